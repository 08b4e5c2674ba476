/**
 * Many items into one document (Create → Documents), on the real n8n engine against the
 * sandbox: one document for all items, one per group, the lines each item adds, what is sent
 * and what comes out; a malformed line sends nothing and names its item.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../../../harness/use-sandbox';
import { CONTINUE, byId, creates, invoiceCreate, run, templateId } from '../helpers';
import type { Sandbox } from '../../../sandbox';
import { lineFieldsOf } from '../methods/helpers';

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

function grouped(extra: INodeParameters = {}): INodeParameters {
	return invoiceCreate(sb, '={{ { "order": $json.order } }}', {
		grouping: 'byKey',
		groupKey: '={{ $json.order }}',
		linesPath: 'invoice.lines',
		line: '={{ { "description": $json.product, "quantity": $json.qty } }}',
		waitForCompletion: false,
		...extra,
	});
}

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
	async function oneDocumentOf(extra: INodeParameters, rows: IDataObject[]): Promise<IDataObject> {
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
