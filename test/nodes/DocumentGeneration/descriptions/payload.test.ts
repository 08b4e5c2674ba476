/**
 * A document's payload (descriptions/payload.ts): Create's Payload Mode and its fields as the
 * editor shows them, the payload each mode builds with a group's lines, and Files Into Payload
 * on Create and Update, on the real n8n engine against the sandbox.
 */
import type {
	IDataObject,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
} from 'n8n-workflow';
import {
	credentialsFor,
	displayedNames,
	displayedProperty,
	getBinaryBuffer,
	loadPackage,
	packageNode,
	runWorkflow,
	wordsOf,
} from '../../../harness';
import { createEditor, expectWorded } from '../../../harness/propertyWording';
import { creates, invoiceCreate, onDocument, run, sentPayloads, writes } from '../helpers';
import { useSandbox } from '../../../harness/use-sandbox';
import { startNode } from '../../../harness/fixtures';
import { CORE_MAJOR } from '../../../harness/versions';
import type { Sandbox } from '../../../sandbox';
import { readFileRows, withFiles } from '../../../../nodes/DocumentGeneration/descriptions/payload';

describe('Payload Mode in the editor', () => {
	const CREATE: INodeParameters = { resource: 'document', operation: 'create' };
	const MODES = ['json', 'fields', 'templateFields'];
	const MODE_FIELDS = ['payload', 'payloadFields', 'mappedFields'];

	/**
	 * One test, which loads the package itself: the package is loaded once per file, and
	 * mutation testing credits a property only to the test that loads it.
	 */
	test("Create's payload fields: kinds, defaults, the mode that shows each, and every word a user reads", async () => {
		const action = (await loadPackage()).nodeDescription('documentGeneration');
		const shownIn = (payloadMode: string, name: string): INodeProperties =>
			displayedProperty(action, { ...CREATE, payloadMode }, name);
		const shownFields = (payloadMode: string) =>
			displayedNames(action, { ...CREATE, payloadMode }).filter((name) =>
				MODE_FIELDS.includes(name),
			);

		// Payload Mode: JSON by default; JSON, Fields and Template Fields to choose from.
		const mode = displayedProperty(action, CREATE, 'payloadMode');
		expect([mode.type, mode.default]).toEqual(['options', 'json']);
		expect((mode.options as INodePropertyOptions[]).map((o) => [o.name, o.value])).toEqual([
			['JSON', 'json'],
			['Fields', 'fields'],
			['Template Fields', 'templateFields'],
		]);

		// Each mode shows its own field and hides the other two.
		expect(MODES.map(shownFields)).toEqual([['payload'], ['payloadFields'], ['mappedFields']]);

		// Payload (JSON): a JSON field holding an empty object by default.
		const payload = shownIn('json', 'payload');
		expect([payload.type, payload.default]).toEqual(['json', '{}']);

		// Template Fields: a required resource mapper of the picked template, defined below.
		const mapper = shownIn('templateFields', 'mappedFields');
		expect([mapper.type, mapper.required, mapper.noDataExpression]).toEqual([
			'resourceMapper',
			true,
			true,
		]);
		expect(mapper.default).toEqual({ mappingMode: 'defineBelow', value: null });
		expect(mapper.typeOptions).toEqual({
			loadOptionsDependsOn: ['templateId.value'],
			resourceMapper: {
				resourceMapperMethod: 'getTemplateFields',
				mode: 'add',
				valuesLabel: 'Fields of the Template',
				fieldWords: { singular: 'field', plural: 'fields' },
				addAllFields: true,
				multiKeyMatch: false,
				supportAutoMap: true,
			},
		});

		// The words: labels, help texts, hints, each mode named and described, the rows' examples.
		expect(wordsOf(mode)).toEqual({
			label: 'Payload Mode',
			description: 'How to give the data the template is filled with',
			options: [
				{
					label: 'JSON',
					description: 'Write the data as one JSON object, or map it from the previous node',
				},
				{ label: 'Fields', description: 'Enter the data as name/value rows, without writing JSON' },
				{
					label: 'Template Fields',
					description:
						"Map data onto the fields the picked template prints, listed from the template's own body and sample data",
				},
			],
		});
		expect(wordsOf(payload)).toEqual({
			label: 'Payload (JSON)',
			description:
				'The data to fill the template with: one JSON object (never a list) whose keys are the variables the template uses',
			hint: 'To send the previous node’s data as it is, use {{ $json }}; for one of its fields, {{ $json.invoice }}',
		});
		expect(wordsOf(shownIn('fields', 'payloadFields'))).toEqual({
			label: 'Payload Fields',
			placeholder: 'Add Field',
			description: 'The data to fill the template with, one variable per row',
			hint: 'A dotted name such as customer.name builds nested data: {"customer": {"name": …}}',
			options: [
				{
					label: 'Field',
					fields: [
						{
							label: 'Name',
							placeholder: 'e.g. customer.name',
							description: 'The variable name the template uses; dots make nested objects',
						},
						{
							label: 'Value',
							placeholder: 'e.g. Ada Lovelace',
							description: 'The value; an expression may give a number, a list or an object',
						},
					],
				},
			],
		});
		expect(wordsOf(mapper)).toEqual({
			label: 'Template Fields',
			hint: 'Fields marked optional have a default in the template or only decide what it shows; every other field is printed as given, and left empty it prints blank',
		});
	});
});

describe('Files Into Payload in the editor', () => {
	const { load, one } = createEditor();

	/** Files Into Payload: rows of an input file (data by default) and the payload path it goes to. */
	function expectFilesIntoPayload(): void {
		const files = one('payloadFiles');
		expect([files.type, files.default, files.typeOptions]).toEqual([
			'fixedCollection',
			{},
			{ multipleValues: true },
		]);
		const [row] = (files.options ?? []) as INodePropertyCollection[];
		expect(row.name).toBe('files');
		expect(row.values.map((v) => [v.name, v.type, v.default, v.required])).toEqual([
			['binaryPropertyName', 'string', 'data', true],
			['path', 'string', '', true],
		]);
		expectWorded(files);
	}

	test('Files Into Payload as the editor shows it: names, defaults, a label and help text on each', async () => {
		await load();
		expectFilesIntoPayload();
	});
});

describe('the payload of each mode', () => {
	const sb = useSandbox({ pendingMs: 10, generatingMs: 30 });

	test('a Line Items Path through a value of the payload that is not an object is refused, naming the line items; nothing is sent', async () => {
		const result = await run(
			sb,
			invoiceCreate(sb, '{"order": "A"}', {
				grouping: 'all',
				linesPath: 'order.lines',
				line: '{"qty": 1}',
				waitForCompletion: false,
			}),
			[{}, {}],
		);
		expect(result.error?.message).toBe(
			'The line items goes under "order", but the payload has a value there, not an object (item 1)',
		);
		expect(creates(sb)).toHaveLength(0);
	});

	test('Payload Fields: each item’s rows make its own payload, a dotted name nested; Payload (JSON) is not read, and One per Item adds no lines', async () => {
		const fieldsCreate = invoiceCreate(sb, '{"from_json": true}', {
			payloadMode: 'fields',
			payloadFields: { values: [{ key: 'customer.name', value: '={{ $json.name }}' }] },
			waitForCompletion: false,
		});
		await run(sb, fieldsCreate, [{ name: 'Ada' }, { name: 'Grace' }]);
		expect(sentPayloads(sb)).toEqual([
			{ customer: { name: 'Ada' } },
			{ customer: { name: 'Grace' } },
		]);
	});

	test('Template Fields mapped automatically: each item gives the fields of its own data', async () => {
		const mappedCreate = invoiceCreate(sb, '{"from_json": true}', {
			payloadMode: 'templateFields',
			mappedFields: {
				mappingMode: 'autoMapInputData',
				value: null,
				schema: [{ id: 'number', type: 'string' }],
			} as unknown as INodeParameters,
			waitForCompletion: false,
		});
		await run(sb, mappedCreate, [{ number: 'N-1' }, { number: 'N-2' }]);
		expect(sentPayloads(sb)).toEqual([{ number: 'N-1' }, { number: 'N-2' }]);
	});

	test('a Payload Mode from an expression naming no mode reads Payload (JSON): left empty, the refusal says to fill in Payload (JSON)', async () => {
		const unknownMode = invoiceCreate(sb, '{}', {
			payloadMode: '={{ "spreadsheet" }}',
			payloadFields: { values: [{ key: 'customer.name', value: 'Ada' }] },
			waitForCompletion: false,
		});
		const result = await run(sb, unknownMode);
		expect(result.error?.message).toBe(
			'The payload is empty, so the document would be blank (item 1)',
		);
		expect(result.error?.description).toMatch(
			/^Put the data the template needs into Payload \(JSON\)/,
		);
		expect(creates(sb)).toHaveLength(0);
	});

	test('a Payload (JSON) that is a list is refused naming the payload; nothing is sent', async () => {
		const result = await run(
			sb,
			invoiceCreate(sb, '[{"customer": "Ada"}]', { waitForCompletion: false }),
		);
		expect(result.error?.message).toMatch(/^The payload must be one JSON object, but it is /);
		expect(creates(sb)).toHaveLength(0);
	});

	test('Payload Fields: a value of 0 or false from an expression is sent as it is, not as empty text', async () => {
		const fieldsCreate = invoiceCreate(sb, '{}', {
			payloadMode: 'fields',
			payloadFields: {
				values: [
					{ key: 'total', value: '={{ $json.total }}' },
					{ key: 'paid', value: '={{ $json.paid }}' },
				],
			},
			waitForCompletion: false,
		});
		await run(sb, fieldsCreate, [{ total: 0, paid: false }]);
		expect(sentPayloads(sb)).toEqual([{ total: 0, paid: false }]);
	});

	test('Files Into Payload: each item’s rows are its own (a path from an expression puts each item’s file where its own data says)', async () => {
		const logo = { base64: Buffer.from('-a-tiny-logo-').toString('base64'), mimeType: 'image/png' };
		const filesCreate = invoiceCreate(sb, '{"order": "A"}', {
			payloadFiles: { files: [{ binaryPropertyName: 'logo', path: '={{ $json.slot }}' }] },
			waitForCompletion: false,
		});
		await run(sb, filesCreate, [
			{ slot: 'front', $files: { logo } },
			{ slot: 'back', $files: { logo } },
		]);
		const uri = `data:image/png;base64,${logo.base64}`;
		expect(sentPayloads(sb)).toEqual([
			{ order: 'A', front: uri },
			{ order: 'A', back: uri },
		]);
	});

	test('Template Fields defined below from expressions: each item’s mapping gives its own payload', async () => {
		const mappedCreate = invoiceCreate(sb, '{"from_json": true}', {
			payloadMode: 'templateFields',
			mappedFields: {
				mappingMode: 'defineBelow',
				value: { number: '={{ $json.ref }}' },
				schema: [{ id: 'number', type: 'string' }],
			} as unknown as INodeParameters,
			waitForCompletion: false,
		});
		await run(sb, mappedCreate, [{ ref: 'N-1' }, { ref: 'N-2' }]);
		expect(sentPayloads(sb)).toEqual([{ number: 'N-1' }, { number: 'N-2' }]);
	});

	test('a Payload Mode from an expression is read for each item: each payload comes from the field its own mode names', async () => {
		const mixedCreate = invoiceCreate(sb, '={{ { "via": "json", "name": $json.name } }}', {
			payloadMode: '={{ $json.mode }}',
			payloadFields: { values: [{ key: 'customer', value: '={{ $json.name }}' }] },
			waitForCompletion: false,
		});
		await run(sb, mixedCreate, [
			{ mode: 'json', name: 'Ada' },
			{ mode: 'fields', name: 'Grace' },
		]);
		expect(sentPayloads(sb)).toEqual([{ via: 'json', name: 'Ada' }, { customer: 'Grace' }]);
	});
});

describe('Files Into Payload', () => {
	const sb = useSandbox({ pendingMs: 10, generatingMs: 30 });

	const LOGO = Buffer.from('\x89PNG\r\n\x1a\n-a-tiny-logo-', 'binary');
	const logoItem = (json: IDataObject = {}) => ({
		...json,
		$files: {
			logo: { base64: LOGO.toString('base64'), mimeType: 'image/png', fileName: 'logo.png' },
		},
	});
	const LOGO_URI = `data:image/png;base64,${LOGO.toString('base64')}`;

	function createWithFiles(extra: INodeParameters = {}): INodeParameters {
		return invoiceCreate(sb, '{"customer": "Ada"}', {
			payloadFiles: { files: [{ binaryPropertyName: 'logo', path: 'company.logo' }] },
			waitForCompletion: false,
			...extra,
		});
	}

	function storedPayload(box: Sandbox, id: unknown): IDataObject {
		return JSON.parse(box.documents.get(String(id))!.payload) as IDataObject;
	}

	test('Create: the file goes in as a data URI at its path; the input keeps its file', async () => {
		const result = await run(sb, createWithFiles(), [logoItem()]);
		expect(result.error).toBeUndefined();
		expect(storedPayload(sb, result.items[0].json.id)).toEqual({
			customer: 'Ada',
			company: { logo: LOGO_URI },
		});
		const input = result.data.Start![0][0];
		expect(input.binary?.logo).toBeDefined();
		expect(await getBinaryBuffer(input.binary!.logo)).toEqual(LOGO);
	});

	test('a missing file names its item and the setting; nothing is sent', async () => {
		const result = await run(sb, createWithFiles(), [logoItem(), { no: 'file' }]);
		expect(result.error?.message).toMatch(/no file "logo" for Files Into Payload \(item 2\)/);
		expect(result.error?.description).toMatch(/_files\.data/);
		expect(creates(sb)).toHaveLength(0);
	});

	test('a file past 5 MB names its size and the bound, and says how to make it fit; nothing is sent', async () => {
		const big = Buffer.alloc(5 * 1024 * 1024 + 1, 7).toString('base64');
		const item = { $files: { logo: { base64: big, mimeType: 'image/png' } } };
		const result = await run(sb, createWithFiles(), [logoItem(), item]);
		expect(result.error?.message).toMatch(/"logo" is 5\.0 MB, more than the 5\.0 MB .*\(item 2\)/);
		expect(result.error?.description).toBe(
			'Use a smaller file (resize or compress the image before this node), or put a link to it in the payload instead',
		);
		expect(creates(sb)).toHaveLength(0);
	});

	test('a MIME type with parameters keeps its type (an SVG logo stays image/svg+xml)', async () => {
		const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
		const item = {
			$files: {
				logo: { base64: svg.toString('base64'), mimeType: 'image/svg+xml; charset=utf-8' },
			},
		};
		const result = await run(sb, createWithFiles(), [item]);
		expect(result.error).toBeUndefined();
		const logo = (storedPayload(sb, result.items[0].json.id).company as IDataObject).logo;
		expect(logo).toBe(`data:image/svg+xml;base64,${svg.toString('base64')}`);
	});

	test('a document whose files alone pass 20 MB is refused before the rest is read, saying how to make them fit; nothing is sent', async () => {
		const four = Buffer.alloc(4 * 1024 * 1024, 1).toString('base64');
		const files = Object.fromEntries(
			['a', 'b', 'c', 'd'].map((name) => [name, { base64: four, mimeType: 'image/png' }]),
		);
		const rows = ['a', 'b', 'c', 'd'].map((name) => ({ binaryPropertyName: name, path: name }));
		const result = await run(sb, createWithFiles({ payloadFiles: { files: rows } }), [
			{ $files: files },
		]);
		expect(result.error?.message).toMatch(
			/files of this document are 2\d\.\d MB as data URIs, more than the 20\.0 MB/,
		);
		expect(result.error?.description).toBe(
			'Use fewer or smaller files (resize images before this node), or links to them instead',
		);
		expect(creates(sb)).toHaveLength(0);
	});

	test('a path through a value that is not an object is refused', async () => {
		const result = await run(sb, createWithFiles({ payload: '{"company": "Acme"}' }), [logoItem()]);
		expect(result.error?.message).toMatch(
			/goes under "company", but the payload has a value there/,
		);
		expect(creates(sb)).toHaveLength(0);
	});

	describe('Update', () => {
		async function draft(): Promise<string> {
			const made = await run(sb, createWithFiles({ payloadFiles: {}, status: 'draft' }), [{}]);
			expect(made.error).toBeUndefined();
			return String(made.items[0].json.id);
		}

		test('with Payload: the file goes into the payload given', async () => {
			const id = await draft();
			const result = await run(
				sb,
				onDocument('update', id, {
					updateFields: { payload: '{"customer": "Grace"}' },
					payloadFiles: { files: [{ binaryPropertyName: 'logo', path: 'logo' }] },
					waitForCompletion: false,
				}),
				[logoItem()],
			);
			expect(result.error).toBeUndefined();
			expect(storedPayload(sb, id)).toEqual({ customer: 'Grace', logo: LOGO_URI });
		});

		test('alone, past the bound with the stored payload: refused while checking, before any item is written', async () => {
			const big = await run(
				sb,
				createWithFiles({
					payloadFiles: {},
					status: 'draft',
					payload: `{"text": "${'x'.repeat(17 * 1024 * 1024)}"}`,
				}),
				[{}],
			);
			const bigId = String(big.items[0].json.id);
			const small = await draft();
			sb.resetRequests();
			const four = Buffer.alloc(4 * 1024 * 1024, 1).toString('base64');
			const result = await run(
				sb,
				onDocument('update', '={{ $json.id }}', {
					payloadFiles: { files: [{ binaryPropertyName: 'logo', path: 'logo' }] },
					waitForCompletion: false,
				}),
				[
					{ id: small, $files: { logo: { base64: four, mimeType: 'image/png' } } },
					{ id: bigId, $files: { logo: { base64: four, mimeType: 'image/png' } } },
				],
			);
			expect(result.error?.message).toMatch(
				/The payload is 2\d\.\d MB, more than the 20\.0 MB .*\(item 2\)/,
			);
			expect(writes(sb)).toHaveLength(0);
		});

		test('alone: the file goes into the document’s current payload, the rest kept', async () => {
			const id = await draft();
			const result = await run(
				sb,
				onDocument('update', id, {
					payloadFiles: { files: [{ binaryPropertyName: 'logo', path: 'logo' }] },
					waitForCompletion: false,
				}),
				[logoItem()],
			);
			expect(result.error).toBeUndefined();
			expect(storedPayload(sb, id)).toEqual({ customer: 'Ada', logo: LOGO_URI });
			expect(writes(sb).filter((r) => r.method === 'PUT')).toHaveLength(1);
		});
	});

	/** Execution Logic v2 (`binaryMode: "combined"`) is n8n 2.x's: the compat runs on 1.x skip it. */
	const onN8n2 = CORE_MAJOR >= 2 ? describe : describe.skip;

	onN8n2('Execution Logic v2 (binaryMode combined)', () => {
		async function runCombined(parameters: INodeParameters, items: IDataObject[]) {
			const pkg = await loadPackage();
			const node = packageNode(pkg, 'Create', 'documentGeneration', parameters);
			return await runWorkflow(
				{
					nodes: [startNode(items), node],
					connections: { Start: { main: [[{ node: 'Create', type: 'main', index: 0 }]] } },
					settings: { executionOrder: 'v1', binaryMode: 'combined' } as never,
				},
				{ credentials: credentialsFor(sb) },
			);
		}

		test('the file is read from its path in the item (_files.logo), and the generated file lands in json._files', async () => {
			const result = await runCombined(
				createWithFiles({
					payloadFiles: { files: [{ binaryPropertyName: '_files.logo', path: 'logo' }] },
					waitForCompletion: true,
					download: true,
				}),
				[logoItem()],
			);
			expect(result.error).toBeUndefined();
			const start = result.data.Start![0][0];
			expect(start.binary).toBeUndefined();
			expect((start.json._files as IDataObject).logo).toBeDefined();
			const out = result.data.Create![0][0];
			expect(storedPayload(sb, out.json.id)).toEqual({ customer: 'Ada', logo: LOGO_URI });
			const files = out.json._files as Record<string, { mimeType: string }>;
			expect(files.data.mimeType).toBe('application/pdf');
			expect(out.binary).toBeUndefined();
		});

		test("n8n's file references (_files) of a payload or line taken from {{ $json }} are not sent", async () => {
			const result = await runCombined(
				createWithFiles({
					payload: '={{ $json }}',
					payloadFiles: { files: [{ binaryPropertyName: '_files.logo', path: 'logo' }] },
					grouping: 'all',
					linesPath: 'lines',
				}),
				[logoItem({ customer: 'Ada' }), logoItem({ customer: 'Grace' })],
			);
			expect(result.error).toBeUndefined();
			const out = result.data.Create![0][0];
			const payload = storedPayload(sb, out.json.id);
			expect(payload).toEqual({
				customer: 'Ada',
				logo: LOGO_URI,
				lines: [{ customer: 'Ada' }, { customer: 'Grace' }],
			});
		});
	});
});

describe('Files Into Payload at its edges', () => {
	const sb = useSandbox({ pendingMs: 10, generatingMs: 30 });

	const BYTES = Buffer.from('\x89PNG\r\n\x1a\n-a-tiny-logo-', 'binary');

	/** The data URI the sandbox received at `logo` for one file of this MIME type. */
	async function sentUri(mimeType: string, bytes = BYTES): Promise<unknown> {
		const result = await run(
			sb,
			invoiceCreate(sb, '{}', {
				payloadFiles: { files: [{ binaryPropertyName: 'logo', path: 'logo' }] },
				waitForCompletion: false,
			}),
			[{ $files: { logo: { base64: bytes.toString('base64'), mimeType } } }],
		);
		expect(result.error).toBeUndefined();
		const payload = (creates(sb)[0].body as { document: { payload: unknown } }).document.payload;
		return ((typeof payload === 'string' ? JSON.parse(payload) : payload) as IDataObject).logo;
	}

	test.each([
		['IMAGE/PNG', 'image/png'],
		['Image/SVG+XML; charset=UTF-8', 'image/svg+xml'],
		['image/png ; q=1', 'image/png'],
		['image/vnd.microsoft.icon', 'image/vnd.microsoft.icon'],
		['png', 'application/octet-stream'],
		['image/png/x', 'application/octet-stream'],
		['image/<script>', 'application/octet-stream'],
		['/png', 'application/octet-stream'],
		['image/', 'application/octet-stream'],
	])('a file of MIME type %j goes in as %s', async (mimeType, sent) => {
		expect(await sentUri(mimeType)).toBe(`data:${sent};base64,${BYTES.toString('base64')}`);
	});

	test('a file of exactly 5 MB goes in (the bound is inclusive)', async () => {
		const exact = Buffer.alloc(5 * 1024 * 1024, 7);
		const uri = (await sentUri('image/png', exact)) as string;
		expect(uri.length).toBe('data:image/png;base64,'.length + exact.toString('base64').length);
	});

	describe('readFileRows', () => {
		test('nothing set, or not a list, is no rows', () => {
			expect(readFileRows(undefined)).toEqual([]);
			expect(readFileRows({})).toEqual([]);
			expect(readFileRows({ files: 'logo' })).toEqual([]);
		});

		test('rows are trimmed; a row left blank is skipped', () => {
			expect(
				readFileRows({
					files: [
						{ binaryPropertyName: ' logo ', path: ' company.logo ' },
						{ binaryPropertyName: ' ', path: '' },
						{},
						{ binaryPropertyName: 'sig', path: 'signature' },
					],
				}),
			).toEqual([
				{ property: 'logo', path: 'company.logo' },
				{ property: 'sig', path: 'signature' },
			]);
		});

		test('a row with only one of the two is refused, naming its number and what it lacks', () => {
			const rows = (second: IDataObject) => ({
				files: [{ binaryPropertyName: 'logo', path: 'logo' }, second],
			});
			expect(() => readFileRows(rows({ binaryPropertyName: 'sig' }))).toThrow(
				'Files Into Payload → file 2 has no Payload Path',
			);
			expect(() => readFileRows(rows({ path: 'signature', binaryPropertyName: ' ' }))).toThrow(
				'Files Into Payload → file 2 has no Input Binary Field',
			);
			const refusal = (() => {
				try {
					readFileRows(rows({ path: 'signature' }));
				} catch (error) {
					return error as { hint: string };
				}
				return undefined;
			})();
			expect(refusal?.hint).toMatch(/the name of the input file \(e\.g\. data\)/);
		});
	});

	test('withFiles puts each file at its path, later rows winning, the payload given unchanged', () => {
		const payload = { company: { name: 'Acme' } };
		const files = [
			{ property: 'a', path: 'company.logo', uri: 'data:a' },
			{ property: 'b', path: 'company.logo', uri: 'data:b' },
			{ property: 'c', path: 'sig', uri: 'data:c' },
		];
		expect(withFiles(payload, files)).toEqual({
			company: { name: 'Acme', logo: 'data:b' },
			sig: 'data:c',
		});
		expect(payload).toEqual({ company: { name: 'Acme' } });
		expect(() => withFiles({ sig: 'x' }, [{ property: 'c', path: 'sig.x', uri: 'd' }])).toThrow(
			/file "c" goes under "sig"/,
		);
	});
});
