/**
 * Generations that do not finish in time: timeout (with backoff between polls), failure of
 * one document ending a run without continueOnFail, a document deleted while waited for.
 * Real engine, sandbox whose documents stay pending unless a test changes them.
 */
import type { IDataObject } from 'n8n-workflow';

import { logged } from '../../../harness/fixtures';
import { useSandbox } from '../../../harness/use-sandbox';
import { CONTINUE, byId, creates, pairs, run, templateId } from '../helpers';

describe('documents that do not finish', () => {
	// Generations that take ten minutes: documents stay pending unless the test changes them.
	const sb = useSandbox({ pendingMs: 600_000, generatingMs: 10 });
	afterEach(() => {
		for (const id of [...sb.documents.keys()]) sb.deleteDocument(id);
	});
	const create = (extra: IDataObject = {}) => ({
		resource: 'document',
		operation: 'create',
		templateId: byId(templateId(sb)),
		payload: '{"n": 1}',
		...extra,
	});

	test('without continueOnFail, the first failed document ends the run at once (the others are not waited for)', async () => {
		const running = run(sb, create({ options: { waitTimeout: 300 } }), [{}, {}, {}]);
		await logged(sb, (r) => r.method === 'POST' && r.status === 201, 3);
		const ids = [...sb.documents.keys()];
		expect(ids).toHaveLength(3);
		sb.updateDocument(ids[1], { status: 'failure', failure_cause: 'Quota exceeded' });
		const result = await running;
		expect(result.error).toMatchObject({ name: 'NodeOperationError' });
		expect(result.error!.message).toBe(`Document ${ids[1]} failed to generate: Quota exceeded`);
		// The other two are still pending: the node did not wait for them (they would take 10 min).
		expect([ids[0], ids[2]].map((id) => sb.documents.get(id)!.status)).toEqual([
			'pending',
			'pending',
		]);
	});

	test('a document deleted while waited for fails its item only (continueOnFail)', async () => {
		const running = run(sb, create(), [{}, {}], CONTINUE);
		await logged(sb, (r) => r.method === 'POST' && r.status === 201, 2);
		const [kept, deleted] = [...sb.documents.keys()];
		sb.deleteDocument(deleted);
		sb.updateDocument(kept, { status: 'success' });
		const result = await running;
		expect(result.items).toHaveLength(2);
		expect(pairs(result)).toEqual([0, 1]);
		const byIdOut = new Map(result.items.map((item) => [item.json.id ?? 'error', item]));
		expect(byIdOut.get(kept)?.json.status).toBe('success');
		const errorItem = result.items.find((item) => item.json.error);
		expect(errorItem?.json.error).toMatch(/Not found \(404\)/);
		expect(errorItem?.json.error).toContain(deleted);
	});

	test('one item: the sync create gives up at the wait timeout; the document is found, not created twice', async () => {
		const result = await run(sb, create({ options: { waitTimeout: 2 } }));
		expect(sb.documents.size).toBe(1);
		const [id] = [...sb.documents.keys()];
		expect(result.error!.message).toBe(`Document ${id} was still pending after waiting 2 s`);
		expect(sb.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
	});

	test('timeout: the item fails naming the document and how to fetch it later; polls back off meanwhile', async () => {
		const started = Date.now();
		// Nine items: a batch waits by polling (up to 8 go through documents/sync).
		const result = await run(
			sb,
			create({ options: { waitTimeout: 4 } }),
			Array.from({ length: 9 }, () => ({})),
		);
		const seconds = (Date.now() - started) / 1000;
		const id = /Document (\S+) was/.exec(String(result.error?.message))?.[1] ?? '';
		expect(result.error).toMatchObject({ name: 'NodeOperationError', itemIndex: 0 });
		expect(result.error!.message).toBe(`Document ${id} was still pending after waiting 4 s`);
		expect(result.error!.description).toContain(`Get or Download operation (Document ID ${id})`);
		expect(result.error!.description).toMatch(/Wait Timeout/);
		expect(seconds).toBeGreaterThanOrEqual(4);

		// Poll rounds (one list for all): the first a second after the creates, at the earliest;
		// then quick looks and a back-off (the exact schedule is pollDelay's, pollTiming.test.ts).
		// On a fast machine that is 7 rounds in the 4 s (1 s, four quarter seconds, 3 s, the
		// deadline); a slow one fits fewer, never more. Polling at a fixed quarter second would
		// take a dozen.
		const polls = sb.requests
			.filter((r) => r.method === 'GET')
			.map((r) => r.at)
			.filter((at, i, all) => i === 0 || at - all[i - 1] > 150);
		expect(polls.length).toBeGreaterThanOrEqual(2);
		expect(polls.length).toBeLessThanOrEqual(7);
		const lastCreate = Math.max(...creates(sb).map((r) => r.at));
		expect(polls[0] - lastCreate).toBeGreaterThanOrEqual(900);
	});
});
