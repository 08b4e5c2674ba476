/**
 * Get, on the real n8n engine against the sandbox: a DocumentCard by default, the full Document
 * with Include Payload, meta and payload parsed (a null payload reads as {}), one request per item.
 */
import type { IDataObject } from 'n8n-workflow';
import { statusFault } from '../../../../harness/fixtures';
import { useSandbox } from '../../../../harness/use-sandbox';
import { apiRequests, byId, cardRequests, pairs, run, onDocument } from '../../helpers';

const sb = useSandbox({ pendingMs: 10, generatingMs: 40 });

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

describe('a null payload', () => {
	test('Get with the full record: payload reads as {}', async () => {
		const doc = sb.createDocument({ status: 'success' });
		(sb.documents.get(doc.id) as unknown as { payload: string | null }).payload = null;
		expect(sb.documentJson(doc.id).payload).toBeNull();
		const result = await run(sb, {
			resource: 'document',
			operation: 'get',
			documentId: doc.id,
			options: { includePayload: true },
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.payload).toEqual({});
	});
});
