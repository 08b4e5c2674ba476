/**
 * Create at its edges, on the real n8n engine against the sandbox: every part of a document's
 * meta in the one body sent (and no password in the output), the single waited-for item's
 * one-round-trip create with the same body, a draft kept a draft when its Unique Key runs
 * again, a draft still made once the quota is spent, and a refused Group By sending nothing.
 */
import type { IDataObject } from 'n8n-workflow';

import { CONCURRENCY } from '../../../../nodes/shared/helpers/items';
import { useSandbox } from '../../../harness/use-sandbox';
import {
	CONTINUE,
	apiRequests,
	creates,
	invoiceCreate,
	numbered,
	run,
	templateId,
	withSandbox,
	writes,
} from '../helpers';

const sb = useSandbox({ pendingMs: 10, generatingMs: 40 });

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
