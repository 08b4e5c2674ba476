/**
 * Every operation of the action node on the real n8n engine against the sandbox: what is
 * sent (counted and read on the sandbox side) and what comes out.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { credentialsFor, runWorkflow } from '../../../../harness';
import { startSandbox, type Sandbox } from '../../../../sandbox';
import { useSandbox } from '../../../../harness/use-sandbox';
import { startNode, statusFault } from '../../../../harness/fixtures';
import {
	apiRequests,
	byId,
	cardRequests,
	creates,
	pairs,
	run,
	templateId,
	onDocument,
} from '../../helpers';

const NODE_TYPE = 'n8n-nodes-document-generation.documentGeneration';

const sb = useSandbox({ pendingMs: 10, generatingMs: 40 });

describe('create', () => {
	test('template by ID (locator), payload, meta and file name: one request with the documented body', async () => {
		const tpl = templateId(sb);
		const result = await run(sb, {
			resource: 'document',
			operation: 'create',
			templateId: byId(tpl),
			payload: '{"customer": "Ada", "total": 42}',
			waitForCompletion: false,
			additionalFields: {
				meta: '{"order_id": "A-1001", "channel": "shop"}',
				filename: ' invoice-A-1001.pdf ',
			},
		});
		expect(result.error).toBeUndefined();
		expect(apiRequests(sb)).toHaveLength(1);
		const [post] = creates(sb);
		expect(post.headers['content-type']).toMatch(/application\/json/);
		expect(post.body).toEqual({
			document: {
				document_template_id: tpl,
				status: 'pending',
				payload: { customer: 'Ada', total: 42 },
				meta: { order_id: 'A-1001', channel: 'shop', _filename: 'invoice-A-1001.pdf' },
			},
		});
		expect(result.items).toHaveLength(1);
		const json = result.items[0].json;
		expect(json.status).toBe('pending');
		// meta and payload are strings of JSON in the API answer; the node hands on objects.
		expect(json.meta).toEqual({
			order_id: 'A-1001',
			channel: 'shop',
			_filename: 'invoice-A-1001.pdf',
		});
		expect(json.payload).toEqual({ customer: 'Ada', total: 42 });
		expect(sb.documents.get(String(json.id))).toBeDefined();
		expect(pairs(result)).toEqual([0]);
	});

	test('template as a plain string, payload as an object from an expression, draft: not generated, not waited for', async () => {
		const tpl = templateId(sb, 'receipt');
		const result = await run(
			sb,
			{
				resource: 'document',
				operation: 'create',
				templateId: tpl,
				payload: '={{ { "n": $json.n, "name": $json.name } }}',
				status: 'draft',
				waitForCompletion: true,
			},
			[
				{ n: 1, name: 'one' },
				{ n: 2, name: 'two' },
				{ n: 3, name: 'three' },
			],
		);
		expect(result.error).toBeUndefined();
		expect(creates(sb).map((r) => r.body)).toEqual(
			[1, 2, 3].map((n) => ({
				document: {
					document_template_id: tpl,
					status: 'draft',
					payload: { n, name: ['one', 'two', 'three'][n - 1] },
				},
			})),
		);
		// Nothing else: a draft is not generated, so there is nothing to wait for.
		expect(apiRequests(sb)).toHaveLength(3);
		expect(
			result.items.map((i) => [i.json.status, (i.json.payload as IDataObject).n, i.json.meta]),
		).toEqual([
			['draft', 1, null],
			['draft', 2, null],
			['draft', 3, null],
		]);
		expect(pairs(result)).toEqual([0, 1, 2]);
	});

	test('payload given as a string of one JSON object per item (expression), meta as an object', async () => {
		const tpl = templateId(sb);
		const result = await run(
			sb,
			{
				resource: 'document',
				operation: 'create',
				templateId: byId(tpl),
				payload: '={{ $json.text }}',
				waitForCompletion: false,
				additionalFields: { meta: '={{ { "order_id": $json.order } }}' },
			},
			[
				{ text: '{"a": 1}', order: 'X-1' },
				{ text: '  {"a": 2, "nested": {"b": [1, 2]}}  ', order: 'X-2' },
			],
		);
		expect(result.error).toBeUndefined();
		expect(creates(sb).map((r) => (r.body as IDataObject).document)).toEqual([
			{
				document_template_id: tpl,
				status: 'pending',
				payload: { a: 1 },
				meta: { order_id: 'X-1' },
			},
			{
				document_template_id: tpl,
				status: 'pending',
				payload: { a: 2, nested: { b: [1, 2] } },
				meta: { order_id: 'X-2' },
			},
		]);
		expect(result.items.map((i) => (i.json.meta as IDataObject).order_id)).toEqual(['X-1', 'X-2']);
	});

	test('no meta and no file name: no meta key is sent', async () => {
		await run(sb, {
			resource: 'document',
			operation: 'create',
			templateId: byId(templateId(sb)),
			payload: '{"n": 1}',
			waitForCompletion: false,
		});
		expect((creates(sb)[0].body as IDataObject).document).toEqual({
			document_template_id: templateId(sb),
			status: 'pending',
			payload: { n: 1 },
		});
	});

	test.each([
		['the default "{}"', undefined],
		['an empty text', ''],
		['blank text', '  \n '],
		['an empty object', '{}'],
		['an expression giving an empty object', '={{ {} }}'],
	])('a payload that is %s is refused before anything is sent', async (_label, payload) => {
		const parameters: INodeParameters = {
			resource: 'document',
			operation: 'create',
			templateId: byId(templateId(sb)),
		};
		if (payload !== undefined) parameters.payload = payload;
		for (const status of ['pending', 'draft']) {
			const result = await run(sb, { ...parameters, status });
			expect(result.error).toMatchObject({ name: 'NodeOperationError', itemIndex: 0 });
			expect(result.error!.message).toBe(
				'The payload is empty, so the document would be blank (item 1)',
			);
			expect(result.error!.description).toMatch(/\{\{ \$json \}\}/);
		}
		expect(sb.requests).toHaveLength(0);
	});

	test('Payload Mode "Fields": rows with dotted names build the nested payload, mapped per item', async () => {
		const result = await run(
			sb,
			{
				resource: 'document',
				operation: 'create',
				templateId: byId(templateId(sb)),
				payloadMode: 'fields',
				payloadFields: {
					values: [
						{ key: 'customer.name', value: '={{ $json.name }}' },
						{ key: 'customer.email', value: 'ada@example.com' },
						{ key: 'total', value: '={{ $json.total }}' },
						{ key: 'lines', value: '={{ $json.lines }}' },
					],
				},
				waitForCompletion: false,
			},
			[
				{ name: 'Ada', total: 42, lines: [{ q: 1 }] },
				{ name: 'Grace', total: 7, lines: [] },
			],
		);
		expect(result.error).toBeUndefined();
		expect(creates(sb).map((r) => (r.body as { document: IDataObject }).document.payload)).toEqual([
			{ customer: { name: 'Ada', email: 'ada@example.com' }, total: 42, lines: [{ q: 1 }] },
			{ customer: { name: 'Grace', email: 'ada@example.com' }, total: 7, lines: [] },
		]);
	});

	test('Payload Mode "Fields" with no rows, or a name given twice, is refused and sends nothing', async () => {
		const base: INodeParameters = {
			resource: 'document',
			operation: 'create',
			templateId: byId(templateId(sb)),
			payloadMode: 'fields',
		};
		const empty = await run(sb, base);
		expect(empty.error!.message).toBe(
			'The payload is empty, so the document would be blank (item 1)',
		);
		expect(empty.error!.description).toMatch(/Payload Fields/);
		const twice = await run(sb, {
			...base,
			payloadFields: {
				values: [
					{ key: 'a', value: '1' },
					{ key: 'a', value: '2' },
				],
			},
		});
		expect(twice.error!.message).toMatch(
			/field 2 \("a"\) sets "a", which another field already sets/,
		);
		expect(sb.requests).toHaveLength(0);
	});
});

describe('get', () => {
	test('a DocumentCard by default; the full Document with includePayload; meta and payload parsed', async () => {
		const doc = sb.createDocument({
			payload: { customer: 'Ada' },
			meta: { order_id: 'G-1' },
			status: 'success',
		});

		const card = await run(sb, onDocument('get', doc.id));
		expect(card.error).toBeUndefined();
		expect(apiRequests(sb).map((r) => `${r.method} ${r.path}`)).toEqual([
			`GET /api/v1/document_cards/${doc.id}`,
		]);
		expect(card.items[0].json).toMatchObject({
			id: doc.id,
			status: 'success',
			meta: { order_id: 'G-1' },
			document_template_identifier: 'invoice',
		});
		expect(card.items[0].json).not.toHaveProperty('payload');

		sb.resetRequests();
		const full = await run(sb, {
			resource: 'document',
			operation: 'get',
			documentId: doc.id, // a plain string works too
			options: { includePayload: true },
		});
		expect(apiRequests(sb).map((r) => `${r.method} ${r.path}`)).toEqual([
			`GET /api/v1/documents/${doc.id}`,
		]);
		expect(full.items[0].json).toMatchObject({
			id: doc.id,
			payload: { customer: 'Ada' },
			meta: { order_id: 'G-1' },
		});
		expect(full.items[0].json.generation_logs).toEqual(expect.any(Array));
		expect(pairs(full)).toEqual([0]);
	});

	test('meta sent as an object (as webhooks do), as null, or as text that is not JSON is accepted', async () => {
		const doc = sb.createDocument({ status: 'success' });
		const card = sb.cardJson(doc.id);
		const answers = [
			{ meta: { order_id: 'OBJ-1' }, expected: { order_id: 'OBJ-1' } },
			{ meta: null, expected: null },
			{ meta: 'not json {', expected: 'not json {' },
			{ meta: '', expected: null },
		];
		for (const { meta } of answers) {
			sb.faults.add(
				statusFault(200, 'GET', `/api/v1/document_cards/${doc.id}`, {
					body: { document_card: { ...card, meta } },
				}),
			);
		}
		const result = await run(
			sb,
			{ resource: 'document', operation: 'get', documentId: byId(doc.id) },
			answers.map(() => ({})),
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.meta)).toEqual(answers.map((a) => a.expected));
	});

	test('many items: one request each, output in input order', async () => {
		const docs = [1, 2, 3, 4, 5].map((n) => sb.createDocument({ meta: { n }, status: 'draft' }));
		const result = await run(
			sb,
			{ resource: 'document', operation: 'get', documentId: byId('={{ $json.id }}') },
			docs.map((d) => ({ id: d.id })),
		);
		expect(result.error).toBeUndefined();
		expect(cardRequests(sb)).toHaveLength(5);
		expect(result.items.map((i) => (i.json.meta as IDataObject).n)).toEqual([1, 2, 3, 4, 5]);
		expect(pairs(result)).toEqual([0, 1, 2, 3, 4]);
	});

	test('Include Payload from an expression is read for each item: each gets the document its own data asks for', async () => {
		const doc = sb.createDocument({ payload: { customer: 'Ada' }, status: 'success' });
		const result = await run(
			sb,
			onDocument('get', doc.id, { options: { includePayload: '={{ $json.full }}' } }),
			[{ full: false }, { full: true }, { full: false }],
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json.payload)).toEqual([
			undefined,
			{ customer: 'Ada' },
			undefined,
		]);
		expect(
			apiRequests(sb)
				.map((r) => r.path.replace(doc.id, ':id'))
				.sort(),
		).toEqual([
			'/api/v1/document_cards/:id',
			'/api/v1/document_cards/:id',
			'/api/v1/documents/:id',
		]);
	});
});

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

describe('update', () => {
	test('sends only the fields given', async () => {
		const doc = sb.createDocument({
			payload: { v: 1 },
			meta: { order_id: 'U-1' },
			status: 'success',
		});
		const result = await run(
			sb,
			onDocument('update', doc.id, {
				updateFields: { payload: '{"v": 2}' },
			}),
		);
		expect(result.error).toBeUndefined();
		expect(apiRequests(sb).map((r) => [r.method, r.path, r.body])).toEqual([
			['PUT', `/api/v1/documents/${doc.id}`, { document: { payload: { v: 2 } } }],
		]);
		expect(result.items[0].json).toMatchObject({
			id: doc.id,
			payload: { v: 2 },
			meta: { order_id: 'U-1' },
			status: 'success',
		});
	});

	test('meta and file name together replace the meta; a template picked by ID; status draft', async () => {
		const doc = sb.createDocument({ meta: { order_id: 'U-2', old: true }, status: 'success' });
		const receipt = templateId(sb, 'receipt');
		await run(sb, {
			resource: 'document',
			operation: 'update',
			documentId: doc.id,
			updateFields: {
				meta: '{"order_id": "U-2b"}',
				filename: 'receipt-U-2.pdf',
				templateId: byId(receipt),
				status: 'draft',
			},
		});
		expect(apiRequests(sb).map((r) => r.body)).toEqual([
			{
				document: {
					document_template_id: receipt,
					meta: { order_id: 'U-2b', _filename: 'receipt-U-2.pdf' },
					status: 'draft',
				},
			},
		]);
		expect(JSON.parse(sb.documents.get(doc.id)!.meta!)).toEqual({
			order_id: 'U-2b',
			_filename: 'receipt-U-2.pdf',
		});
	});

	test('an explicit {} clears the meta; a blank meta (an empty expression) is not sent', async () => {
		const doc = sb.createDocument({ meta: { order_id: 'U-5' }, status: 'success' });
		await run(
			sb,
			onDocument('update', doc.id, {
				updateFields: { meta: '={{ "" }}', payload: '{"v": 5}' },
			}),
		);
		expect(apiRequests(sb).map((r) => r.body)).toEqual([{ document: { payload: { v: 5 } } }]);
		expect(JSON.parse(sb.documents.get(doc.id)!.meta!)).toEqual({ order_id: 'U-5' });

		sb.resetRequests();
		await run(
			sb,
			onDocument('update', doc.id, {
				updateFields: { meta: '{}' },
			}),
		);
		expect(apiRequests(sb).map((r) => r.body)).toEqual([{ document: { meta: {} } }]);
		expect(JSON.parse(sb.documents.get(doc.id)!.meta ?? '{}')).toEqual({});
	});

	test('a file name alone is added to the current meta (the other keys are kept)', async () => {
		const doc = sb.createDocument({ meta: { order_id: 'U-3' }, status: 'success' });
		await run(
			sb,
			onDocument('update', doc.id, {
				updateFields: { filename: 'u3.pdf' },
			}),
		);
		expect(apiRequests(sb).map((r) => `${r.method} ${r.path}`)).toEqual([
			`GET /api/v1/document_cards/${doc.id}`,
			`PUT /api/v1/documents/${doc.id}`,
		]);
		expect(apiRequests(sb)[1].body).toEqual({
			document: { meta: { order_id: 'U-3', _filename: 'u3.pdf' } },
		});
	});

	test('a file name alone keeps the PDF password in the meta sent back, and outputs none', async () => {
		const meta = { order_id: 'U-5', _password: 'pdf-secret' };
		const doc = sb.createDocument({ meta, status: 'success' });
		const result = await run(
			sb,
			onDocument('update', doc.id, { updateFields: { filename: 'u5.pdf' } }),
		);
		expect(apiRequests(sb)[1].body).toEqual({
			document: { meta: { ...meta, _filename: 'u5.pdf' } },
		});
		expect(JSON.stringify(result.items)).not.toContain('pdf-secret');
	});

	test('status pending regenerates and waits for the new generation', async () => {
		const doc = sb.createDocument({ meta: { order_id: 'U-4' }, status: 'success' });
		const before = sb.documents.get(doc.id)!.updated_at;
		const result = await run(
			sb,
			onDocument('update', doc.id, {
				updateFields: { status: 'pending', filename: 'again.pdf', meta: '{"order_id": "U-4"}' },
			}),
		);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			id: doc.id,
			status: 'success',
			filename: 'again.pdf',
			meta: { order_id: 'U-4', _filename: 'again.pdf' },
		});
		expect(Date.parse(String(result.items[0].json.updated_at))).toBeGreaterThan(before);
		expect(cardRequests(sb, doc.id).length).toBeGreaterThanOrEqual(1);
	});
});

describe('delete', () => {
	test('deletes and outputs {deleted: true, id} per item', async () => {
		const docs = [sb.createDocument(), sb.createDocument({ status: 'success' })];
		const result = await run(
			sb,
			{ resource: 'document', operation: 'delete', documentId: byId('={{ $json.id }}') },
			docs.map((d) => ({ id: d.id })),
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => i.json)).toEqual(docs.map((d) => ({ deleted: true, id: d.id })));
		expect(pairs(result)).toEqual([0, 1]);
		expect(apiRequests(sb).map((r) => `${r.method} ${r.status}`)).toEqual([
			'DELETE 204',
			'DELETE 204',
		]);
		for (const d of docs) expect(sb.documents.has(d.id)).toBe(false);
	});
});

describe('account', () => {
	test('get: the account record without auth_token', async () => {
		const result = await run(sb, { resource: 'account', operation: 'get' });
		expect(result.error).toBeUndefined();
		expect(apiRequests(sb).map((r) => `${r.method} ${r.path}`)).toEqual([
			'GET /api/v1/current_user',
		]);
		const json = result.items[0].json;
		expect(json).toMatchObject({
			id: sb.account.id,
			email: expect.any(String),
			available_documents: expect.any(Number),
			share_links: false,
		});
		expect(json).not.toHaveProperty('auth_token');
		expect(JSON.stringify(result.items)).not.toContain(sb.apiKey);
		expect(pairs(result)).toEqual([0]);
	});
});

describe('downstream nodes', () => {
	test('meta is handed on: a later node uses {{ $json.meta.order_id }}', async () => {
		const tpl = templateId(sb);
		const { data, error } = await runWorkflow(
			{
				nodes: [
					startNode([{ order: 'D-1' }, { order: 'D-2' }]),
					{
						id: 'c',
						name: 'Create',
						type: NODE_TYPE,
						typeVersion: 1,
						position: [200, 0],
						parameters: {
							resource: 'document',
							operation: 'create',
							templateId: byId(tpl),
							payload: '{"n": 1}',
							additionalFields: { meta: '={{ { "order_id": $json.order } }}' },
						},
					},
					{
						id: 'n',
						name: 'Next',
						type: NODE_TYPE,
						typeVersion: 1,
						position: [400, 0],
						parameters: {
							resource: 'document',
							operation: 'update',
							documentId: byId('={{ $json.id }}'),
							updateFields: {
								payload: '={{ { "copied_order": $json.meta.order_id, "was": $json.status } }}',
							},
						},
					},
				],
				connections: {
					Start: { main: [[{ node: 'Create', type: 'main', index: 0 }]] },
					Create: { main: [[{ node: 'Next', type: 'main', index: 0 }]] },
				},
			},
			{ credentials: credentialsFor(sb) },
		);
		expect(error).toBeUndefined();
		const puts = sb.requests.filter((r) => r.method === 'PUT');
		expect(puts.map((r) => r.body)).toEqual([
			{ document: { payload: { copied_order: 'D-1', was: 'success' } } },
			{ document: { payload: { copied_order: 'D-2', was: 'success' } } },
		]);
		expect(data.Next?.[0]?.map((i) => (i.json.payload as IDataObject).copied_order)).toEqual([
			'D-1',
			'D-2',
		]);
		expect(data.Next?.[0]?.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});
});
