/** Delete, on the real n8n engine against the sandbox: {deleted: true, id} per item. */
import { useSandbox } from '../../../../harness/use-sandbox';
import { apiRequests, byId, pairs, run } from '../../helpers';

const sb = useSandbox({ pendingMs: 10, generatingMs: 40 });

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
