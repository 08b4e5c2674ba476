/**
 * The edges of Create → Documents that mutation testing found unpinned, on the real n8n
 * engine against the sandbox: the exact line bound, Group By values read as people write
 * them (spaces around, numbers), and what is refused.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../../../harness/use-sandbox';
import { CONTINUE, creates, invoiceCreate, pairs, run } from '../helpers';

const sb = useSandbox({ pendingMs: 10, generatingMs: 30 });

function grouped(extra: INodeParameters = {}): INodeParameters {
	return invoiceCreate(sb, '={{ { "order": $json.order } }}', {
		grouping: 'byKey',
		groupKey: '={{ $json.order }}',
		linesPath: 'lines',
		line: '={{ { "product": $json.product } }}',
		waitForCompletion: false,
		...extra,
	});
}

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
		const result = await run(sb, grouped({ groupKey }), [{ order: 'A', product: 'Pens', qty: 1 }]);
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
