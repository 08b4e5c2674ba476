/**
 * Stage 4, the wait and each file's download (engine/wait.ts), on the real n8n engine against the
 * sandbox: timeouts, failures, deleted documents, renewed links, refused files, list narrowing.
 */
import { sleep, type IDataObject } from 'n8n-workflow';
import { CONCURRENCY } from '../../../../nodes/shared/helpers/items';
import { logged, withFirstLinkExpired, until } from '../../../harness/fixtures';
import { useSandbox } from '../../../harness/use-sandbox';
import type { LoggedRequest } from '../../../sandbox';
import {
	CONTINUE,
	byId,
	cardRequests,
	creates,
	pairs,
	run,
	templateId,
	fileRequests,
	numberedCreate,
	listRequests,
	numbered,
	onDocument,
	withSandbox,
} from '../helpers';

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
		// Nine items: a batch waits by polling (only a single item goes through documents/sync).
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

describe('the files of finished documents', () => {
	const sb = useSandbox({ pendingMs: 20, generatingMs: 80 });

	/** When the link of a file request ends, read from its own query (ISO 8601, UTC). */

	function endOf(request: LoggedRequest): string {
		const query = new URLSearchParams(request.rawQuery);
		const date = query.get('X-Amz-Date') ?? '';
		const signedAt = Date.UTC(
			Number(date.slice(0, 4)),
			Number(date.slice(4, 6)) - 1,
			Number(date.slice(6, 8)),
			Number(date.slice(9, 11)),
			Number(date.slice(11, 13)),
			Number(date.slice(13, 15)),
		);
		return new Date(signedAt + Number(query.get('X-Amz-Expires')) * 1000).toISOString();
	}

	/** The link an output item hands on, as its query and its end. */

	const linkOf = (json: IDataObject) => ({
		query: new URL(String(json.download_url)).search.slice(1),
		end: json.download_url_expires_at,
	});

	describe('a link renewed for the download', () => {
		test('one item (sync create): the output hands on the renewed link and its end', async () => {
			const result = await withFirstLinkExpired(sb, () => run(sb, numberedCreate(sb), [{ n: 1 }]));
			expect(result.error).toBeUndefined();
			const [expired, fresh] = fileRequests(sb);
			expect([expired.status, fresh.status]).toEqual([403, 200]);
			expect(fresh.rawQuery).not.toBe(expired.rawQuery);
			expect(linkOf(result.items[0].json)).toEqual({ query: fresh.rawQuery, end: endOf(fresh) });
			expect(result.items[0].binary?.data?.mimeType).toBe('application/pdf');
		});

		test('a batch waited for together: each item hands on the link its own file came through', async () => {
			const result = await withFirstLinkExpired(sb, () =>
				run(sb, numberedCreate(sb), [{ n: 1 }, { n: 2 }]),
			);
			expect(result.error).toBeUndefined();
			expect(pairs(result)).toEqual([0, 1]);
			const files = fileRequests(sb);
			const refused = files.filter((r) => r.status === 403).map((r) => r.rawQuery);
			expect(refused.length).toBeGreaterThanOrEqual(1);
			for (const item of result.items) {
				const fetched = files.find(
					(r) => r.status === 200 && r.path.startsWith(`/files/${String(item.json.id)}/`),
				)!;
				expect(linkOf(item.json)).toEqual({ query: fetched.rawQuery, end: endOf(fetched) });
				expect(refused).not.toContain(linkOf(item.json).query);
			}
		});
	});
});

const MB = 1024 * 1024;

test('a refused file stops the run: no download queued behind the first ones is started', async () => {
	// Files of 3 MB, Max File Size 1 MB: every download is refused, from its announced size.
	await withSandbox({ fileSizeBytes: 3 * MB }, async (sb) => {
		const n = CONCURRENCY + 2;
		const result = await run(
			sb,
			numberedCreate(sb, { download: true, maxFileSize: 1 }),
			numbered(n),
		);
		expect(result.error).toMatchObject({ name: 'NodeOperationError' });
		expect(result.error!.message).toMatch(
			/^The file of document [0-9a-f-]{36} is larger than the Max File Size \(1 MB\)/,
		);
		// Every document finished before the first look: all were handed on together, and only
		// the downloads started at once (CONCURRENCY) reached the file host.
		expect(sb.documents.size).toBe(n);
		expect(fileRequests(sb).length).toBeGreaterThan(0);
		expect(fileRequests(sb).length).toBeLessThanOrEqual(CONCURRENCY);
	});
});

test('a generation that fails for another cause than the quota gives no quota hint', async () => {
	await withSandbox({}, async (sb) => {
		const fails = templateId(sb, 'always-fails');
		const result = await run(
			sb,
			numberedCreate(sb, { templateId: byId('={{ $json.t }}') }),
			[
				{ n: 1, t: fails },
				{ n: 2, t: templateId(sb) },
			],
			CONTINUE,
		);
		expect(result.items[0].json.error).toMatch(/failed to generate/);
		expect(result.items[1].json.status).toBe('success');
		const hints = result.runData['Document Generation'][0].hints ?? [];
		expect(hints.map((hint) => hint.message)).toEqual([]);
	});
});

test("updates to Pending waited for together: the list is narrowed to their documents' template", async () => {
	await withSandbox({}, async (sb) => {
		const docs = [1, 2, 3].map((v) =>
			sb.createDocument({
				document_template_id: templateId(sb),
				payload: { v },
				status: 'success',
			}),
		);
		const result = await run(
			sb,
			onDocument('update', '={{ $json.id }}', { updateFields: { status: 'pending' } }),
			docs.map((doc) => ({ id: doc.id })),
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.json.id, item.json.status])).toEqual(
			docs.map((doc) => [doc.id, 'success']),
		);
		expect(listRequests(sb).length).toBeGreaterThan(0);
		for (const list of listRequests(sb))
			expect(list.query['q[document_template_id]']).toBe(templateId(sb));
	});
});

describe('documents deleted while waited for', () => {
	// Planted mistake caught: a document missing from the list waited for until the Wait Timeout.
	test('two documents both deleted fail as not found within seconds, not at the Wait Timeout', async () => {
		await withSandbox({ pendingMs: 600_000 }, async (sb) => {
			const parameters = numberedCreate(sb, { options: { waitTimeout: 600 } });
			const seeded = new Set(sb.documents.keys());
			const running = run(sb, parameters, numbered(2), CONTINUE);
			const made = () => [...sb.documents.keys()].filter((id) => !seeded.has(id));
			await until(() => made().length >= 2);
			const ids = made();
			expect(ids).toHaveLength(2);
			for (const id of ids) expect(sb.deleteDocument(id)).toBe(true);
			// Were the wait to last until the 600 s Wait Timeout, the test's own 60 s would end it.
			const result = await running;
			expect(result.items).toHaveLength(2);
			for (const item of result.items) {
				const text = JSON.stringify(item.json);
				expect(text).toMatch(/couldn't find|not found/i);
				expect(text).not.toMatch(/still pending/);
			}
		});
	});
});

describe('Wait Timeout: per document, counted from its own write', () => {
	const TIMEOUT_S = 4;
	const sb = useSandbox({ pendingMs: 600_000, generatingMs: 10 });
	afterEach(() => {
		sb.faults.clear();
		for (const id of [...sb.documents.keys()]) sb.deleteDocument(id);
	});
	/** The id of the `n`th document the run made, once the service has made it. */
	async function made(seeded: Set<string>, n: number): Promise<string> {
		const ids = () => [...sb.documents.keys()].filter((id) => !seeded.has(id));
		await until(() => ids().length >= n);
		return ids()[n - 1];
	}

	/**
	 * Two documents in one run, the second write held by the service until the first's
	 * Wait Timeout has passed: the first finishes at once (unless `firstFinishes` is false);
	 * `second` decides the other.
	 */
	async function staggered(second: (id: string) => Promise<void>, firstFinishes = true) {
		sb.resetRequests();
		const seeded = new Set(sb.documents.keys());
		const held = sb.faults.add({ type: 'delay', method: 'POST', after: 1, delayMs: 60_000 });
		const running = run(
			sb,
			numberedCreate(sb, { options: { waitTimeout: TIMEOUT_S } }),
			numbered(2),
			CONTINUE,
		);
		const first = await made(seeded, 1);
		if (firstFinishes) sb.updateDocument(first, { status: 'success' });
		await sleep(TIMEOUT_S * 1000 + 500);
		sb.faults.release(held);
		const late = await made(seeded, 2);
		await second(late);
		const result = await running;
		expect(result.items).toHaveLength(2);
		/** The status of `id`'s item, or its error. */
		const outcome = (id: string) => {
			const item = result.items.find((i) => i.json.id === id || i.json.documentId === id)!;
			return String(item.json.error ?? item.json.status);
		};
		return { first, late, outcome };
	}
	const timedOut = (id: string) => `Document ${id} was still pending after waiting ${TIMEOUT_S} s`;

	test('a document finished within its time is not failed by another document’s slow write; the later one has its full time', async () => {
		const { first, late, outcome } = await staggered(async (id) => {
			// 1.5 s into its own 4 s, some 6 s into the run.
			await sleep(1500);
			sb.updateDocument(id, { status: 'success' });
		});
		expect([outcome(first), outcome(late)]).toEqual(['success', 'success']);
	});

	test('a document still pending past its own Wait Timeout fails; the one finished in time does not', async () => {
		const { first, late, outcome } = await staggered(async () => undefined);
		expect([outcome(first), outcome(late)]).toEqual(['success', timedOut(late)]);
	});

	test('a hold by the limit before a document’s write is not taken off its Wait Timeout; one after it is', async () => {
		sb.resetRequests();
		// Two items (one would go through documents/sync): the first's create is refused, 6 s
		// asked; the second's is made at once, before the hold.
		sb.faults.add({ type: 'status', status: 429, retryAfter: '6', method: 'POST', times: 1 });
		const creating = numberedCreate(sb, { options: { waitTimeout: TIMEOUT_S } });
		const result = await run(sb, creating, numbered(2), CONTINUE);
		expect(creates(sb).map((r) => r.status)).toEqual([429, 201, 201]);
		expect(pairs(result)).toEqual([0, 1]);
		/** The seconds an item's timeout says were held by the limit, not counted. */
		const heldOf = (error: unknown) =>
			Number(/not counting (\d+) s held/.exec(String(error))?.[1] ?? 0);
		for (const item of result.items)
			expect(item.json.error).toMatch(new RegExp(`^${timedOut(String(item.json.documentId))}`));
		const [refused, made] = result.items.map((item) => heldOf(item.json.error));
		expect(refused).toBeLessThan(6);
		expect(made).toBeGreaterThanOrEqual(6);
	});

	test('one still pending when the last write is answered, past its Wait Timeout, fails after one look', async () => {
		const { first, late, outcome } = await staggered(async (id) => {
			sb.updateDocument(id, { status: 'success' });
		}, false);
		// The look at it: the list, or its card, read once the last write was answered.
		expect(listRequests(sb).length + cardRequests(sb, first).length).toBeGreaterThan(0);
		expect([outcome(first), outcome(late)]).toEqual([timedOut(first), 'success']);
	});
});

describe('the poll round: the list while it costs no more requests than fetching each by id', () => {
	test('two documents waited for together are read from one list page, not fetched one by one', async () => {
		await withSandbox({}, async (sb) => {
			sb.setOptions({ visibilityLagMs: 0, listOrder: 'newest' });
			const result = await run(sb, numberedCreate(sb), numbered(2));
			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.json.status)).toEqual(['success', 'success']);
			// One page lists both; fetching each would take two requests a round.
			expect(listRequests(sb).length).toBeGreaterThanOrEqual(1);
			expect(cardRequests(sb)).toHaveLength(0);
		});
	});
});
