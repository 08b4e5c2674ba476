/**
 * Many items into one document (descriptions/lineItems.ts): Create → Documents and its line
 * fields as the editor shows them, and on the real n8n engine against the sandbox one document
 * for all items or per group, the lines each item adds, the bounds and what is refused.
 */
import type {
	IDataObject,
	INodeParameters,
	INodeProperties,
	INodeTypeDescription,
} from 'n8n-workflow';
import { displayedProperties, loadPackage, wordsOf } from '../../../harness';
import {
	createEditor,
	expectWorded,
	optionValues as values,
} from '../../../harness/propertyWording';
import {
	byId,
	CONTINUE,
	creates,
	invoiceCreate,
	LINE_MAPPER_TYPE_OPTIONS,
	pairs,
	run,
	templateId,
} from '../helpers';
import { useSandbox } from '../../../harness/use-sandbox';
import type { Sandbox } from '../../../sandbox';
import { lineFieldsOf } from '../../../harness/templateFields';

describe('the fields in the editor', () => {
	const { load, one, shownNames } = createEditor();

	/** Documents: one per item by default; Group By only per group; the line fields only grouped, by mode. */
	function expectDocuments(): void {
		const grouping = one('grouping');
		expect([grouping.type, grouping.default, values(grouping)]).toEqual([
			'options',
			'perItem',
			['perItem', 'all', 'byKey'],
		]);
		const grouped = ['groupKey', 'linesPath', 'lineMode', 'line', 'lineFields', 'mappedLineFields'];
		expect(shownNames({ grouping: 'perItem' }).filter((n) => grouped.includes(n))).toEqual([]);
		expect(
			shownNames({ grouping: 'all', lineMode: 'json' }).filter((n) => grouped.includes(n)),
		).toEqual(['linesPath', 'lineMode', 'line']);
		expect(
			shownNames({ grouping: 'byKey', lineMode: 'fields' }).filter((n) => grouped.includes(n)),
		).toEqual(['groupKey', 'linesPath', 'lineMode', 'lineFields']);
		expect(
			shownNames({ grouping: 'all', lineMode: 'templateFields' }).filter((n) =>
				grouped.includes(n),
			),
		).toEqual(['linesPath', 'lineMode', 'mappedLineFields']);

		const groupKey = one('groupKey', { grouping: 'byKey' });
		expect([groupKey.type, groupKey.default, groupKey.required]).toEqual(['string', '', true]);
		const linesPath = one('linesPath', { grouping: 'all' });
		expect([linesPath.type, linesPath.default, linesPath.required]).toEqual([
			'string',
			'lines',
			true,
		]);
		const lineMode = one('lineMode', { grouping: 'all' });
		expect([lineMode.default, values(lineMode)]).toEqual([
			'json',
			['json', 'fields', 'templateFields'],
		]);
		const line = one('line', { grouping: 'all', lineMode: 'json' });
		expect([line.type, line.default]).toEqual(['json', '={{ $json }}']);
		const mapper = one('mappedLineFields', { grouping: 'all', lineMode: 'templateFields' });
		expect([mapper.type, mapper.noDataExpression, mapper.required, mapper.default]).toEqual([
			'resourceMapper',
			true,
			true,
			{ mappingMode: 'defineBelow', value: null },
		]);
		expect(mapper.typeOptions).toEqual(LINE_MAPPER_TYPE_OPTIONS);
		const modeOf: Record<string, string> = {
			lineFields: 'fields',
			mappedLineFields: 'templateFields',
		};
		for (const name of ['grouping', ...grouped])
			expectWorded(one(name, { grouping: 'byKey', lineMode: modeOf[name] ?? 'json' }));
	}

	test('Documents as the editor shows them: names, values, defaults, when each shows, a label and help text on each', async () => {
		await load();
		expectDocuments();
	});
});

describe('what the editor shows', () => {
	const CREATE: INodeParameters = { resource: 'document', operation: 'create' };
	const GROUPINGS = ['perItem', 'all', 'byKey'];
	const LINE_MODES = ['json', 'fields', 'templateFields'];
	const FIELDS = [
		'grouping',
		'groupKey',
		'linesPath',
		'lineMode',
		'line',
		'lineFields',
		'mappedLineFields',
	];

	/** Each Documents and Line Mode setting, as "grouping lineMode", with the fields it shows. */
	function fieldsBySetting(action: INodeTypeDescription): Array<[string, INodeProperties[]]> {
		return GROUPINGS.flatMap((grouping) =>
			LINE_MODES.map((lineMode): [string, INodeProperties[]] => [
				`${grouping} ${lineMode}`,
				displayedProperties(action, { ...CREATE, grouping, lineMode }).filter((p) =>
					FIELDS.includes(p.name),
				),
			]),
		);
	}

	/**
	 * One test, which loads the package itself: the package is loaded once per file, and
	 * mutation testing credits a property only to the test that loads it.
	 */
	test('Documents: where each field shows, its kind, default and stored values', async () => {
		const action = (await loadPackage()).nodeDescription('documentGeneration');
		const settings = fieldsBySetting(action);
		const whereShown = (name: string) =>
			settings
				.filter(([, shown]) => shown.some((p) => p.name === name))
				.map(([setting]) => setting);
		const byName = Object.fromEntries(
			settings.flatMap(([, shown]) => shown.map((p) => [p.name, p])),
		);

		// Where each shows: Group By only per group; the lines' fields only grouped, by Line Mode.
		const everywhere = settings.map(([setting]) => setting);
		const grouped = everywhere.filter((setting) => !setting.startsWith('perItem'));
		const inMode = (mode: string) => grouped.filter((setting) => setting.endsWith(` ${mode}`));
		expect(FIELDS.map(whereShown)).toEqual([
			everywhere,
			['byKey json', 'byKey fields', 'byKey templateFields'],
			grouped,
			grouped,
			inMode('json'),
			inMode('fields'),
			inMode('templateFields'),
		]);

		// Kind, default, required.
		expect(
			FIELDS.map((name) => [
				name,
				byName[name].type,
				byName[name].default,
				!!byName[name].required,
			]),
		).toEqual([
			['grouping', 'options', 'perItem', false],
			['groupKey', 'string', '', true],
			['linesPath', 'string', 'lines', true],
			['lineMode', 'options', 'json', false],
			['line', 'json', '={{ $json }}', false],
			['lineFields', 'fixedCollection', {}, false],
			['mappedLineFields', 'resourceMapper', { mappingMode: 'defineBelow', value: null }, true],
		]);

		// The values a saved workflow stores.
		const optionValues = (name: string) => values(byName[name]);
		expect(optionValues('grouping')).toEqual(['perItem', 'all', 'byKey']);
		expect(optionValues('lineMode')).toEqual(['json', 'fields', 'templateFields']);

		// Line Fields of the Template: the template's line fields at the Line Items Path, fixed.
		const mapper = byName.mappedLineFields;
		expect(mapper.noDataExpression).toBe(true);
		expect(mapper.typeOptions).toEqual(LINE_MAPPER_TYPE_OPTIONS);
	});
});

describe('the words the editor shows', () => {
	const GROUPED: INodeParameters = { resource: 'document', operation: 'create', grouping: 'byKey' };

	test('Documents: the labels, placeholders, help texts and option names the editor shows', async () => {
		const action = (await loadPackage()).nodeDescription('documentGeneration');
		const shown = (lineMode: string) =>
			displayedProperties(action, { ...GROUPED, lineMode }).map((p) => [p.name, p]);
		const byName = Object.fromEntries([
			...shown('json'),
			...shown('fields'),
			...shown('templateFields'),
		]) as Record<string, INodeProperties>;
		const words = (name: string) => wordsOf(byName[name]);

		expect(words('grouping')).toEqual({
			label: 'Documents',
			description:
				'How many documents the input items make: line items of an invoice or a statement come from many items',
			options: [
				{ label: 'One per Item', description: 'Each input item makes its own document' },
				{
					label: 'One for All Items',
					description:
						'All input items make one document: the first gives its data, each item adds a line',
				},
				{
					label: 'One per Group of Items',
					description:
						'Items with the same Group By value make one document together, each adding a line',
				},
			],
		});
		expect(words('groupKey')).toEqual({
			label: 'Group By',
			placeholder: 'e.g. {{ $json.order_id }}',
			description:
				'A value of each item: items with the same value make one document. Groups keep the order of their first items.',
		});
		expect(words('linesPath')).toEqual({
			label: 'Line Items Path',
			placeholder: 'e.g. lines or invoice.items',
			description:
				"Where the list of lines goes in the payload (dots make nested objects); it replaces whatever the first item's payload has there",
		});
		expect(words('lineMode')).toEqual({
			label: 'Line Mode',
			description: 'How each item gives its line',
			options: [
				{ label: 'JSON', description: 'Each line as one JSON object' },
				{ label: 'Fields', description: 'Each line as name/value rows' },
				{
					label: 'Template Fields',
					description:
						"The fields of the template's own list at the Line Items Path, typed from its sample data",
				},
			],
		});
		expect(words('line')).toEqual({
			label: 'Line (JSON)',
			description:
				'The line each item adds, as one JSON object; evaluated for every item of the group',
			hint: 'e.g. {{ { "description": $json.product, "qty": $json.qty, "price": $json.price } }}',
		});
		expect(words('lineFields')).toEqual({
			label: 'Line Fields',
			placeholder: 'Add Line Field',
			description:
				'The line each item adds, one value per row; evaluated for every item of the group',
			options: [
				{
					label: 'Field',
					fields: [
						{
							label: 'Name',
							placeholder: 'e.g. description',
							description: 'The variable name the template uses; dots make nested objects',
						},
						{
							label: 'Value',
							placeholder: 'e.g. {{ $json.product }}',
							description: 'The value; an expression may give a number, a list or an object',
						},
					],
				},
			],
		});
		expect(words('mappedLineFields')).toEqual({ label: 'Line Fields of the Template' });
	});
});

/** Create by Group By `$json.order`, not waited for; `extra` gives the lines' path and line. */
function groupedCreate(sb: Sandbox, extra: INodeParameters): INodeParameters {
	return invoiceCreate(sb, '={{ { "order": $json.order } }}', {
		grouping: 'byKey',
		groupKey: '={{ $json.order }}',
		waitForCompletion: false,
		...extra,
	});
}

describe('documents from many items', () => {
	const sb = useSandbox({ pendingMs: 10, generatingMs: 30 });

	/** Order rows: three orders, A (items 1, 3, 5), B (items 2, 6) and C (item 4). */
	const ROWS: IDataObject[] = [
		{ order: 'A', product: 'Pens', qty: 2 },
		{ order: 'B', product: 'Ink', qty: 1 },
		{ order: 'A', product: 'Paper', qty: 5 },
		{ order: 'C', product: 'Desk', qty: 1 },
		{ order: 'A', product: 'Stapler', qty: 1 },
		{ order: 'B', product: 'Lamp', qty: 3 },
	];

	const grouped = (extra: INodeParameters = {}) =>
		groupedCreate(sb, {
			linesPath: 'invoice.lines',
			line: '={{ { "description": $json.product, "quantity": $json.qty } }}',
			...extra,
		});

	/** The payload the sandbox stored for a created document. */
	function storedPayload(box: Sandbox, id: unknown): IDataObject {
		const record = box.documents.get(String(id));
		if (!record) throw new Error(`no document ${String(id)}`);
		return JSON.parse(record.payload) as IDataObject;
	}

	const pairedItems = (item: { pairedItem?: unknown }) =>
		([] as Array<{ item: number }>).concat(item.pairedItem as { item: number }).map((p) => p.item);

	describe('one document per group of items', () => {
		test('groups in the order of their first items, lines in input order, each output paired with its items', async () => {
			const result = await run(sb, grouped(), ROWS);
			expect(result.error).toBeUndefined();
			expect(creates(sb)).toHaveLength(3);
			expect(result.items).toHaveLength(3);
			expect(result.items.map(pairedItems)).toEqual([[0, 2, 4], [1, 5], [3]]);
			const payloads = result.items.map((item) => storedPayload(sb, item.json.id));
			expect(payloads[0]).toEqual({
				order: 'A',
				invoice: {
					lines: [
						{ description: 'Pens', quantity: 2 },
						{ description: 'Paper', quantity: 5 },
						{ description: 'Stapler', quantity: 1 },
					],
				},
			});
			expect(payloads[1].order).toBe('B');
			expect((payloads[2].invoice as IDataObject).lines).toEqual([
				{ description: 'Desk', quantity: 1 },
			]);
		});

		test('One for All Items: one create, every item a line, the output paired with every item', async () => {
			const result = await run(sb, grouped({ grouping: 'all', linesPath: 'lines' }), ROWS);
			expect(result.error).toBeUndefined();
			expect(creates(sb)).toHaveLength(1);
			expect(result.items).toHaveLength(1);
			expect(pairedItems(result.items[0])).toEqual([0, 1, 2, 3, 4, 5]);
			const payload = storedPayload(sb, result.items[0].json.id);
			expect(payload.order).toBe('A');
			expect((payload.lines as IDataObject[]).map((line) => line.description)).toEqual(
				ROWS.map((row) => row.product),
			);
		});

		/** The payload of the one document all `rows` made with these settings. */
		async function oneDocumentOf(
			extra: INodeParameters,
			rows: IDataObject[],
		): Promise<IDataObject> {
			const result = await run(sb, grouped({ grouping: 'all', ...extra }), rows);
			expect(result.error).toBeUndefined();
			return storedPayload(sb, result.items[0].json.id);
		}

		test('lines from Fields rows, a dotted name nesting', async () => {
			const payload = await oneDocumentOf(
				{
					lineMode: 'fields',
					lineFields: {
						values: [
							{ key: 'description', value: '={{ $json.product }}' },
							{ key: 'amount.qty', value: '={{ $json.qty }}' },
						],
					},
				},
				ROWS.slice(0, 2),
			);
			expect((payload.invoice as IDataObject).lines).toEqual([
				{ description: 'Pens', amount: { qty: 2 } },
				{ description: 'Ink', amount: { qty: 1 } },
			]);
		});

		test("lines from the template's own list fields, typed from its sample data", async () => {
			const payload = await oneDocumentOf(
				{
					payloadMode: 'json',
					payload: '{"customer": {"name": "Ada"}}',
					linesPath: 'lines',
					lineMode: 'templateFields',
					mappedLineFields: {
						mappingMode: 'defineBelow',
						value: { description: '={{ $json.product }}', quantity: '={{ String($json.qty) }}' },
						schema: [
							{ id: 'description', type: 'string' },
							{ id: 'quantity', type: 'number' },
						],
					},
				},
				ROWS.slice(0, 2),
			);
			expect(payload.lines).toEqual([
				{ description: 'Pens', quantity: 2 },
				{ description: 'Ink', quantity: 1 },
			]);
		});

		test("the editor lists the fields of each line of the template's list, typed; another path names its lists", async () => {
			const tpl = templateId(sb);
			const ask = async (linesPath: string) => await lineFieldsOf(sb, byId(tpl), linesPath);
			const listed = await ask('lines');
			const types = Object.fromEntries(listed.fields.map((field) => [field.id, field.type]));
			expect(types).toMatchObject({
				description: 'string',
				quantity: 'number',
				unit_price: 'number',
			});
			const wrong = await ask('items');
			expect(wrong.fields).toEqual([]);
			expect(wrong.emptyFieldsNotice).toMatch(/no list at "items".*Its lists: lines/);
		});
	});

	describe('refused before anything is sent', () => {
		test('a malformed line in item 5 (a later row of its group) sends nothing and names item 5, not its group’s first', async () => {
			// Item 5 is order A's third row; order A's first row is item 1.
			const rows = ROWS.map((row, i) => (i === 4 ? { ...row, bad: true } : row));
			const result = await run(
				sb,
				grouped({ line: '={{ $json.bad ? "[1, 2]" : { "d": $json.product } }}' }),
				rows,
			);
			expect(result.error?.message).toMatch(/line.*\(item 5\)/i);
			expect(result.error?.message).not.toMatch(/\(item 1\)/);
			expect(result.error?.itemIndex).toBe(4);
			expect(creates(sb)).toHaveLength(0);
		});

		test('with Continue On Fail the other groups are made; the failed group is one error item paired with its items, naming the bad row', async () => {
			// "Lamp" is item 6, order B's second row (its first is item 2).
			const result = await run(
				sb,
				grouped({ line: '={{ $json.product === "Lamp" ? "not json" : { "d": $json.product } }}' }),
				ROWS,
				CONTINUE,
			);
			expect(creates(sb)).toHaveLength(2);
			expect(result.items).toHaveLength(3);
			expect(result.items[1].json.error).toMatch(/\(item 6\)/);
			expect(pairedItems(result.items[1])).toEqual([1, 5]);
			expect(result.items[0].json.id).toBeDefined();
			expect(result.items[2].json.id).toBeDefined();
		});

		test('the input items keep their JSON when their data is the payload and the lines ({{ $json }})', async () => {
			const rows = ROWS.slice(0, 3).map((row) => ({ ...row, nested: { keep: 'me' } }));
			const result = await run(
				sb,
				grouped({ payload: '={{ $json }}', linesPath: 'nested.lines', line: '={{ $json }}' }),
				rows,
			);
			expect(result.error).toBeUndefined();
			const start = result.data.Start![0].map((item) => item.json);
			expect(start).toEqual(rows);
			const payload = storedPayload(sb, result.items[0].json.id);
			expect((payload.nested as IDataObject).keep).toBe('me');
			expect(((payload.nested as IDataObject).lines as IDataObject[]).length).toBe(2);
		});

		test('an empty Group By names its item; nothing is sent', async () => {
			const rows = ROWS.map((row, i) => (i === 2 ? { ...row, order: '' } : row));
			const result = await run(sb, grouped(), rows);
			expect(result.error?.message).toMatch(/Group By value is empty \(item 3\)/);
			expect(creates(sb)).toHaveLength(0);
		});

		test('more lines than one document takes is refused with the bound', async () => {
			const rows = Array.from({ length: 10_001 }, (_, n) => ({
				order: 'A',
				product: `p${n}`,
				qty: 1,
			}));
			const result = await run(sb, grouped({ grouping: 'all' }), rows);
			expect(result.error?.message).toMatch(/10001 line items, more than the 10000/);
			expect(result.error?.description).toMatch(/finer Group By/);
			expect(creates(sb)).toHaveLength(0);
		});

		test('a payload past 20 MB is refused with its size and the bound', async () => {
			const big = 'x'.repeat(3 * 1024 * 1024);
			const rows = Array.from({ length: 7 }, (_, n) => ({ order: 'A', product: big, qty: n }));
			const result = await run(sb, grouped({ grouping: 'all' }), rows);
			expect(result.error?.message).toMatch(/The payload is 21\.0 MB, more than the 20\.0 MB/);
			expect(creates(sb)).toHaveLength(0);
		});
	});

	describe('running again', () => {
		test('a Unique Key per group reuses each group’s document on a second run', async () => {
			const params = grouped({ options: { uniqueKey: '={{ "order-" + $json.order }}' } });
			const first = await run(sb, params, ROWS);
			expect(first.error).toBeUndefined();
			expect(creates(sb)).toHaveLength(3);
			const second = await run(sb, params, ROWS);
			expect(second.error).toBeUndefined();
			expect(creates(sb)).toHaveLength(3);
			expect(second.items.map((item) => item.json.origin)).toEqual(['reused', 'reused', 'reused']);
			expect(second.items.map((item) => item.json.id)).toEqual(
				first.items.map((item) => item.json.id),
			);
		});

		test('Retry On Fail generates the group’s document again instead of making a second one', async () => {
			const fails = templateId(sb, 'always-fails');
			const params = grouped({
				grouping: 'all',
				templateId: byId(fails),
				waitForCompletion: true,
				download: false,
			});
			const result = await run(sb, params, ROWS, {
				retryOnFail: true,
				maxTries: 2,
				waitBetweenTries: 0,
			});
			expect(result.error?.message).toMatch(/failed to generate/);
			expect(creates(sb)).toHaveLength(1);
			const regenerated = sb.requests.filter(
				(r) => r.method === 'PUT' && r.path.startsWith('/api/v1/documents/'),
			);
			expect(regenerated).toHaveLength(1);
		});
	});
});

describe('the bounds and what is refused', () => {
	const sb = useSandbox({ pendingMs: 10, generatingMs: 30 });

	const grouped = (extra: INodeParameters = {}) =>
		groupedCreate(sb, {
			linesPath: 'lines',
			line: '={{ { "product": $json.product } }}',
			...extra,
		});

	/** The lines of each create sent, in the order sent (a payload goes out as an object or as JSON text). */
	const sentLines = () =>
		creates(sb).map((r) => {
			const payload = (r.body as { document: { payload: unknown } }).document.payload;
			const parsed = (typeof payload === 'string' ? JSON.parse(payload) : payload) as IDataObject;
			return parsed.lines as IDataObject[];
		});

	test('exactly 10000 line items make one document with every line (the bound is inclusive)', async () => {
		const rows = Array.from({ length: 10_000 }, () => ({}));
		// A line without an expression: 10,000 items stay quick to read.
		const result = await run(
			sb,
			invoiceCreate(sb, '{"order": "A"}', {
				grouping: 'all',
				linesPath: 'lines',
				line: '{"qty": 1}',
				waitForCompletion: false,
			}),
			rows,
		);
		expect(result.error).toBeUndefined();
		expect(creates(sb)).toHaveLength(1);
		expect(sentLines()[0]).toHaveLength(10_000);
	});

	test('Group By values differing only in spaces around them make one document', async () => {
		const rows = [
			{ order: 'A', product: 'Pens' },
			{ order: 'A ', product: 'Ink' },
			{ order: ' A', product: 'Paper' },
			{ order: 'B', product: 'Desk' },
		];
		const result = await run(sb, grouped(), rows);
		expect(result.error).toBeUndefined();
		expect(creates(sb)).toHaveLength(2);
		expect(sentLines()).toEqual([
			[{ product: 'Pens' }, { product: 'Ink' }, { product: 'Paper' }],
			[{ product: 'Desk' }],
		]);
	});

	test('a numeric Group By groups like its text: 7, "7" and 7.0 make one document, 8 another', async () => {
		const rows = [
			{ order: 7, product: 'Pens' },
			{ order: 8, product: 'Ink' },
			{ order: '7', product: 'Paper' },
			{ order: 7.0, product: 'Desk' },
		];
		const result = await run(sb, grouped(), rows);
		expect(result.error).toBeUndefined();
		expect(creates(sb)).toHaveLength(2);
		expect(sentLines()).toEqual([
			[{ product: 'Pens' }, { product: 'Paper' }, { product: 'Desk' }],
			[{ product: 'Ink' }],
		]);
	});

	test.each([
		['a space only', ' ', /Group By value is empty \(item 2\)/],
		['an object', { id: 1 }, /Group By value must be text or a number, not .*id.*\(item 2\)/],
		['true', true, /Group By value must be text or a number, not true \(item 2\)/],
	])(
		'a Group By of %s is refused, naming its item; nothing is sent',
		async (_name, value, message) => {
			const rows = [
				{ order: 'A', product: 'Pens' },
				{ order: value, product: 'Ink' },
			];
			const result = await run(sb, grouped(), rows);
			expect(result.error?.message).toMatch(message);
			expect(result.error?.description).toMatch(/order_id/);
			expect(creates(sb)).toHaveLength(0);
		},
	);

	test('with Continue On Fail an item whose Group By is refused is an error of its own; the groups are made', async () => {
		const rows = [
			{ order: 'A', product: 'Pens' },
			{ order: null, product: 'Ink' },
			{ order: 'A', product: 'Paper' },
		];
		const result = await run(sb, grouped(), rows, CONTINUE);
		expect(creates(sb)).toHaveLength(1);
		expect(result.items).toHaveLength(2);
		expect(result.items[0].json.id).toBeDefined();
		expect(result.items[1].json.error).toMatch(/Group By value is empty/);
		expect(sentLines()).toEqual([[{ product: 'Pens' }, { product: 'Paper' }]]);
	});

	test.each([
		['an empty JSON line', { line: '={{ {} }}' }, /Give each item a line as one JSON object/],
		[
			'Fields without a row',
			{ lineMode: 'fields', lineFields: { values: [] } },
			/Map at least one value of each line/,
		],
	])(
		'%s is refused as an empty line, naming its item; nothing is sent',
		async (_name, extra, hint) => {
			const result = await run(sb, grouped(extra), [{ order: 'A', product: 'Pens' }]);
			expect(result.error?.message).toMatch(/The line is empty \(item 1\)/);
			expect(result.error?.description).toMatch(hint);
			expect(creates(sb)).toHaveLength(0);
		},
	);

	test('a Line Items Path of spaces is refused; one with spaces around is trimmed', async () => {
		const rows = [{ order: 'A', product: 'Pens' }];
		const blank = await run(sb, grouped({ linesPath: '  ' }), rows);
		expect(blank.error?.message).toMatch(/The Line Items Path is empty/);
		expect(blank.error?.description).toMatch(/e\.g\. lines/);
		expect(creates(sb)).toHaveLength(0);
		const padded = await run(sb, grouped({ linesPath: ' lines ' }), rows);
		expect(padded.error).toBeUndefined();
		expect(sentLines()).toEqual([[{ product: 'Pens' }]]);
	});

	test('One per Item (the default) adds no lines: each item is its own document, its output paired with it', async () => {
		const rows = [
			{ order: 'A', product: 'Pens' },
			{ order: 'A', product: 'Ink' },
		];
		const result = await run(sb, grouped({ grouping: 'perItem' }), rows);
		expect(result.error).toBeUndefined();
		expect(creates(sb)).toHaveLength(2);
		expect(sentLines()).toEqual([undefined, undefined]);
		expect(pairs(result)).toEqual([0, 1]);
	});

	test('a Group By naming a field the item lacks is refused as empty, naming its item', async () => {
		const rows = [{ order: 'A', product: 'Pens' }, { product: 'Ink' }];
		const result = await run(sb, grouped(), rows);
		expect(result.error?.message).toMatch(/^The Group By value is empty \(item 2\)/);
		expect(creates(sb)).toHaveLength(0);
	});

	test.each([
		['a division by zero (Infinity)', '={{ $json.qty / 0 }}', 'Infinity'],
		['a number that is not one (NaN)', '={{ Number($json.order) }}', 'NaN'],
	])(
		'a Group By of %s is refused, not made a group, naming the value',
		async (_name, groupKey, shown) => {
			const result = await run(sb, grouped({ groupKey }), [
				{ order: 'A', product: 'Pens', qty: 1 },
			]);
			expect(result.error?.message).toMatch(
				new RegExp(`Group By value must be text or a number, not ${shown} \\(item 1\\)`),
			);
			expect(creates(sb)).toHaveLength(0);
		},
	);

	test('with Continue On Fail the error of an item whose Group By is refused pairs with that item', async () => {
		const rows = [
			{ order: 'A', product: 'Pens' },
			{ order: '', product: 'Ink' },
		];
		const result = await run(sb, grouped(), rows, CONTINUE);
		expect(result.items[1].json.error).toMatch(/Group By value is empty/);
		expect(pairs(result)).toEqual([0, 1]);
	});

	test("Line Fields of the Template mapped automatically: each line takes its item's fields of the same names", async () => {
		const rows = [
			{ order: 'A', description: 'Pens', quantity: 2, other: 'x' },
			{ order: 'A', description: 'Ink', quantity: 1 },
		];
		const mappedLineFields = {
			mappingMode: 'autoMapInputData',
			value: null,
			schema: [
				{ id: 'description', type: 'string' },
				{ id: 'quantity', type: 'number' },
			],
		};
		const result = await run(sb, grouped({ lineMode: 'templateFields', mappedLineFields }), rows);
		expect(result.error).toBeUndefined();
		expect(sentLines()).toEqual([
			[
				{ description: 'Pens', quantity: 2 },
				{ description: 'Ink', quantity: 1 },
			],
		]);
	});

	test('a Line Mode from an expression is read for each document from its own first item', async () => {
		await run(
			sb,
			grouped({
				lineMode: '={{ $json.kind }}',
				line: '={{ { "product": $json.product, "via": "json" } }}',
				lineFields: { values: [{ key: 'product', value: '={{ $json.product }}' }] },
			}),
			[
				{ order: 'A', kind: 'json', product: 'p1' },
				{ order: 'B', kind: 'fields', product: 'p2' },
				{ order: 'A', kind: 'json', product: 'p3' },
			],
		);
		expect(sentLines()).toEqual([
			[
				{ product: 'p1', via: 'json' },
				{ product: 'p3', via: 'json' },
			],
			[{ product: 'p2' }],
		]);
	});

	test('a Line Items Path from an expression is read for each document from its own first item', async () => {
		await run(sb, grouped({ linesPath: '={{ $json.where }}' }), [
			{ order: 'A', where: 'lines', product: 'p1' },
			{ order: 'B', where: 'rows', product: 'p2' },
			{ order: 'A', where: 'lines', product: 'p3' },
		]);
		const payloads = creates(sb).map((r) => {
			const payload = (r.body as { document: { payload: unknown } }).document.payload;
			return typeof payload === 'string' ? JSON.parse(payload) : payload;
		});
		expect(payloads).toEqual([
			{ order: 'A', lines: [{ product: 'p1' }, { product: 'p3' }] },
			{ order: 'B', rows: [{ product: 'p2' }] },
		]);
	});
});
