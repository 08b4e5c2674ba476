/**
 * What Create sends, on the real n8n engine against the sandbox: the template, payload, meta and
 * File Name of each item in one request, read per item from expressions; a draft with a Unique
 * Key; a spent quota; a refused Group By; meta handed on to a later node.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { CONCURRENCY } from '../../../../../../nodes/shared/helpers/items';
import { credentialsFor, runWorkflow } from '../../../../../harness';
import { startNode } from '../../../../../harness/fixtures';
import { useSandbox } from '../../../../../harness/use-sandbox';
import {
	apiRequests,
	byId,
	creates,
	pairs,
	run,
	templateId,
	CONTINUE,
	invoiceCreate,
	numbered,
	withSandbox,
	writes,
} from '../../../helpers';

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

/** The `document` of a create request's body. */
const sentDocument = (request: { body: unknown }) =>
	(request.body as { document: IDataObject }).document;

test('Meta (JSON), File Name, PDF Password and Image Options go into one meta; the output shows no password', async () => {
	const result = await run(
		sb,
		invoiceCreate(sb, '{"n": 1}', {
			waitForCompletion: false,
			additionalFields: {
				meta: '{"order_id": "E-1"}',
				filename: 'e-1.png',
				password: 'pdf-secret',
			},
			imageOptions: { format: 'png', width: 640 },
		}),
	);
	expect(result.error).toBeUndefined();
	expect(creates(sb).map(sentDocument)).toEqual([
		{
			document_template_id: templateId(sb),
			status: 'pending',
			payload: { n: 1 },
			meta: {
				order_id: 'E-1',
				_type: 'png',
				_width: 640,
				_filename: 'e-1.png',
				_password: 'pdf-secret',
			},
		},
	]);
	expect(result.items[0].json.meta).toEqual({
		order_id: 'E-1',
		_type: 'png',
		_width: 640,
		_filename: 'e-1.png',
	});
	expect(JSON.stringify(result.items)).not.toContain('pdf-secret');
});

/** The creates sent, each as its `document`, in the order of their payload's `n`. */
const sentByN = () =>
	creates(sb)
		.map(sentDocument)
		.sort((a, b) => Number((a.payload as IDataObject).n) - Number((b.payload as IDataObject).n));

test('Template and Status from expressions are read for each document: each is sent with its own', async () => {
	const receipt = templateId(sb, 'receipt');
	const result = await run(
		sb,
		invoiceCreate(sb, '={{ { "n": $json.n } }}', {
			templateId: { __rl: true, mode: 'id', value: '={{ $json.template }}' },
			status: '={{ $json.status }}',
			waitForCompletion: false,
		}),
		[
			{ n: 1, template: templateId(sb), status: 'draft' },
			{ n: 2, template: receipt, status: 'pending' },
		],
	);
	expect(result.error).toBeUndefined();
	expect(sentByN()).toEqual([
		{ document_template_id: templateId(sb), status: 'draft', payload: { n: 1 } },
		{ document_template_id: receipt, status: 'pending', payload: { n: 2 } },
	]);
});

test('File Name, PDF Password and Image Options from expressions are read for each document: each meta is its own', async () => {
	const result = await run(
		sb,
		invoiceCreate(sb, '={{ { "n": $json.n } }}', {
			waitForCompletion: false,
			additionalFields: { filename: '={{ $json.name }}', password: '={{ $json.secret }}' },
			imageOptions: { format: 'png', width: '={{ $json.width }}' },
		}),
		[
			{ n: 1, name: 'one.png', secret: 'pw-1', width: 300 },
			{ n: 2, name: 'two.png', secret: 'pw-2', width: 600 },
		],
	);
	expect(result.error).toBeUndefined();
	expect(sentByN().map((document) => document.meta)).toEqual([
		{ _type: 'png', _width: 300, _filename: 'one.png', _password: 'pw-1' },
		{ _type: 'png', _width: 600, _filename: 'two.png', _password: 'pw-2' },
	]);
});

test('one item waited for: one create that answers when the file is ready, with the same body as any create', async () => {
	const result = await run(
		sb,
		invoiceCreate(sb, '{"n": 2}', {
			download: false,
			additionalFields: { meta: '{"order_id": "E-2"}', filename: 'e-2.pdf' },
		}),
	);
	expect(result.error).toBeUndefined();
	const [sync] = creates(sb);
	expect(creates(sb)).toHaveLength(1);
	expect(sync.path).toBe('/api/v1/documents/sync');
	expect(sentDocument(sync)).toEqual({
		document_template_id: templateId(sb),
		status: 'pending',
		payload: { n: 2 },
		meta: { order_id: 'E-2', _filename: 'e-2.pdf' },
	});
	expect(result.items[0].json).toMatchObject({
		status: 'success',
		meta: { order_id: 'E-2', _filename: 'e-2.pdf' },
	});
	expect(result.items[0].binary).toBeUndefined();
});

test('a draft made with a Unique Key is found again as a draft: the second run writes nothing and generates nothing', async () => {
	const draft = invoiceCreate(sb, '{"n": 3}', {
		status: 'draft',
		options: { uniqueKey: 'DRAFT-3' },
	});
	const first = await run(sb, draft);
	expect(first.error).toBeUndefined();
	expect(writes(sb)).toHaveLength(1);
	const id = String(first.items[0].json.id);

	sb.resetRequests();
	const again = await run(sb, draft);
	expect(again.error).toBeUndefined();
	expect(writes(sb)).toHaveLength(0);
	expect(again.items[0].json).toMatchObject({ id, status: 'draft' });
	expect(sb.documents.get(id)!.status).toBe('draft');
});

test('a draft made with a Unique Key, then Pending with the same key and data: that draft is generated, no second document', async () => {
	const keyed = (status: string) =>
		invoiceCreate(sb, '{"n": 4}', { status, options: { uniqueKey: 'DRAFT-4' }, download: false });
	const first = await run(sb, keyed('draft'));
	const id = String(first.items[0].json.id);

	sb.resetRequests();
	const pending = await run(sb, keyed('pending'));
	expect(pending.error).toBeUndefined();
	expect(creates(sb)).toHaveLength(0);
	expect(writes(sb).map((r) => [r.method, r.path, r.body])).toEqual([
		['PUT', `/api/v1/documents/${id}`, { document: { status: 'pending' } }],
	]);
	expect(pending.items[0].json).toMatchObject({ id, status: 'success' });
});

test('once the service says the quota is spent, a draft is still made (it uses none) and a later pending item is not sent', async () => {
	await withSandbox({ availableDocuments: 0 }, async (quotaless) => {
		// CONCURRENCY pending creates go out at once; the next item, a draft, and the one after
		// it, pending, start only after one of them was answered.
		const status = (n: number) => (n === CONCURRENCY ? 'draft' : 'pending');
		const items = numbered(CONCURRENCY + 2).map((x) => ({ ...x, s: status(Number(x.n)) }));
		const result = await run(
			quotaless,
			invoiceCreate(quotaless, '={{ { "n": $json.n } }}', {
				status: '={{ $json.s }}',
				waitForCompletion: false,
			}),
			items,
			CONTINUE,
		);
		const sent = creates(quotaless).map((r) => `${String(sentDocument(r).status)} ${r.status}`);
		expect(sent.sort()).toEqual(['draft 201', ...Array<string>(CONCURRENCY).fill('pending 422')]);
		const [draft, later] = result.items.slice(CONCURRENCY);
		expect(draft.json).toMatchObject({ status: 'draft', payload: { n: CONCURRENCY } });
		expect(later.json.error).toBe("Not sent: the account's document quota is spent");
	});
});

test('a refused Group By stops the node naming its item as the editor counts it; nothing is sent', async () => {
	const result = await run(
		sb,
		invoiceCreate(sb, '={{ { "n": $json.n } }}', {
			grouping: 'byKey',
			groupKey: '={{ $json.k }}',
			linesPath: 'lines',
			line: '={{ { "n": $json.n } }}',
		}),
		[
			{ n: 0, k: 'A' },
			{ n: 1, k: '' },
			{ n: 2, k: 'A' },
		],
	);
	expect(result.error).toMatchObject({ itemIndex: 1 });
	expect(result.error!.message).toMatch(/^The Group By value is empty \(item 2\)/);
	expect(apiRequests(sb)).toHaveLength(0);
});
