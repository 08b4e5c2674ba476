/**
 * Files Into Payload on Create and Update, on the real n8n engine against the sandbox: input
 * files go into the payload as data URIs, read through n8n's binary helpers in both binary
 * modes (Execution Logic v2 too: `_files.…`); a missing or oversized file sends nothing; the
 * input's own file stays as it was.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	credentialsFor,
	getBinaryBuffer,
	loadPackage,
	packageNode,
	runWorkflow,
} from '../../../harness';
import { startNode } from '../../../harness/fixtures';
import { useSandbox } from '../../../harness/use-sandbox';
import { CORE_MAJOR } from '../../../harness/versions';
import type { Sandbox } from '../../../sandbox';
import { creates, invoiceCreate, onDocument, run, writes } from '../helpers';

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
		$files: { logo: { base64: svg.toString('base64'), mimeType: 'image/svg+xml; charset=utf-8' } },
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
	expect(result.error?.message).toMatch(/goes under "company", but the payload has a value there/);
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
