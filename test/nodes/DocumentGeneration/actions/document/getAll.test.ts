/**
 * Get Many, on the real n8n engine against the sandbox: the limit, Return All, the filters as
 * query parameters, one list per input item.
 */
import { startSandbox, type Sandbox } from '../../../../sandbox';
import { pairs, run } from '../../helpers';

describe('getAll', () => {
	let list: Sandbox;
	const pageRequests = () => list.requests.filter((r) => r.path === '/api/v1/document_cards');
	beforeAll(async () => {
		list = await startSandbox({ pendingMs: 10, generatingMs: 40 });
	});
	afterAll(async () => {
		await list.close();
	});
	beforeEach(() => {
		for (const id of [...list.documents.keys()]) list.deleteDocument(id);
		list.resetRequests();
	});
	const seed = (n: number, fields: Parameters<Sandbox['createDocument']>[0] = {}) =>
		Array.from({ length: n }, (_, i) =>
			list.createDocument({ status: 'success', meta: { i }, ...fields }),
		);

	test.each([
		// [documents, returnAll, limit, expected items]
		[50, false, 50, 50],
		[49, true, undefined, 49],
		[48, true, undefined, 48],
		[100, false, 24, 24],
		[100, false, 25, 25],
		[100, false, 50, 50],
		[30, false, 1, 1],
		[1, true, undefined, 1],
		[250, true, undefined, 250],
		[250, false, 101, 101],
		[250, false, 100, 100],
	])(
		'%i documents, returnAll %s, limit %s: exactly the pages needed',
		async (n, returnAll, limit, expected) => {
			seed(n);
			const result = await run(list, {
				resource: 'document',
				operation: 'getAll',
				returnAll,
				...(limit !== undefined ? { limit } : {}),
			});
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(expected);
			// 100 cards a page, as the sandbox serves when asked
			expect(pageRequests()).toHaveLength(Math.ceil(expected / 100));
			expect(pageRequests().map((r) => r.query['page[number]'])).toEqual(
				Array.from({ length: Math.ceil(expected / 100) }, (_, i) => String(i + 1)),
			);
			expect(new Set(result.items.map((i) => i.json.id)).size).toBe(expected);
			expect(
				result.items.every((i) => typeof i.json.meta === 'object' && i.json.meta !== null),
			).toBe(true);
			expect(new Set(pairs(result))).toEqual(new Set([0]));
		},
	);

	test('the default limit is 50', async () => {
		seed(60);
		const result = await run(list, { resource: 'document', operation: 'getAll' });
		expect(result.items).toHaveLength(50);
		// one page of 100 holds them
		expect(pageRequests()).toHaveLength(1);
	});

	test('an empty list: one request, no items', async () => {
		const result = await run(list, { resource: 'document', operation: 'getAll', returnAll: true });
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([]);
		expect(pageRequests()).toHaveLength(1);
	});

	test('filters: templates (list or comma-separated text), status, workspace, updated since (unix seconds)', async () => {
		const invoice = list.templates.find((t) => t.identifier === 'invoice')!;
		const receipt = list.templates.find((t) => t.identifier === 'receipt')!;
		const payslip = list.templates.find((t) => t.identifier === 'payslip')!;
		const old = '2020-01-01T00:00:00.000Z';
		seed(3, { document_template_id: invoice.id });
		seed(2, { document_template_id: receipt.id, status: 'failure' });
		seed(2, { document_template_id: payslip.id });
		seed(1, { document_template_id: invoice.id, updated_at: old });

		const since = new Date(Date.parse('2021-06-01T12:00:00Z'));
		const result = await run(list, {
			resource: 'document',
			operation: 'getAll',
			returnAll: true,
			filters: {
				templateIds: [invoice.id, receipt.id],
				status: 'success',
				workspaceId: invoice.app_id,
				updatedSince: '2021-06-01T12:00:00Z',
			},
		});
		expect(result.error).toBeUndefined();
		const [request] = pageRequests();
		expect(request.query).toEqual({
			'page[number]': '1',
			'page[size]': '100',
			'q[document_template_id]': `${invoice.id},${receipt.id}`,
			'q[status]': 'success',
			'q[workspace_id]': invoice.app_id,
			'q[updated_since]': String(Math.floor(since.getTime() / 1000)),
		});
		expect(result.items).toHaveLength(3);
		expect(
			result.items.every(
				(i) => i.json.document_template_id === invoice.id && i.json.status === 'success',
			),
		).toBe(true);

		list.resetRequests();
		const text = await run(list, {
			resource: 'document',
			operation: 'getAll',
			returnAll: true,
			filters: { templateIds: `${receipt.id}, ${payslip.id}` },
		});
		expect(pageRequests()[0].query['q[document_template_id]']).toBe(`${receipt.id},${payslip.id}`);
		expect(text.items).toHaveLength(4);
	});

	test('one list per input item, each paired with its item', async () => {
		seed(30);
		const result = await run(
			list,
			{ resource: 'document', operation: 'getAll', limit: '={{ $json.limit }}' },
			[{ limit: 2 }, { limit: 30 }],
		);
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(32);
		expect(pairs(result)).toEqual([0, 0, ...Array(30).fill(1)]);
		expect(pageRequests()).toHaveLength(1 + 1);
	});

	test('Filters from an expression are read for each item: each lists the documents its own data asks for', async () => {
		seed(3);
		seed(2, { status: 'failure' });
		const result = await run(
			list,
			{
				resource: 'document',
				operation: 'getAll',
				returnAll: true,
				filters: { status: '={{ $json.status }}' },
			},
			[{ status: 'success' }, { status: 'failure' }],
		);
		expect(result.error).toBeUndefined();
		expect(pageRequests().map((r) => r.query['q[status]'])).toEqual(
			expect.arrayContaining(['success', 'failure']),
		);
		expect(result.items.map((i) => [i.pairedItem, i.json.status])).toEqual([
			...Array(3).fill([{ item: 0 }, 'success']),
			...Array(2).fill([{ item: 1 }, 'failure']),
		]);
	});
});
