/**
 * Large batches against a plan with limits, on the real engine against the sandbox (short
 * windows, so they run in seconds): a request limit with or without Retry-After or announced
 * in headers, a wait longer than the node accepts, the Wait Timeout that does not run while
 * the limit holds, a quota spent mid-batch, the service's generation queue; and every
 * document made named in exactly one item, output or error. Then several executions sharing
 * one account, each with a pace of its own, exactly as separate processes (queue-mode
 * workers) would. How the paces share a limit is measured on a simulated clock
 * (test/nodes/shared/transport/limit.test.ts) and by `node scripts/bench-fleet.js`, never here.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { statusFault } from '../harness/fixtures';
import type { Sandbox } from '../sandbox';
import {
	CONTINUE,
	apiRequests,
	creates,
	expectNoCreateRetriedBeforeItsWindow,
	numbered,
	orderOf,
	run,
	withSandbox,
	createWithOptions,
	numberedCreate,
} from '../nodes/DocumentGeneration/helpers';

const create = createWithOptions;

/** Every output item succeeded with its file, in input order. */
function expectAllSucceeded(items: INodeExecutionData[], n: number) {
	expect(items).toHaveLength(n);
	expect(items.filter((i) => i.json.status === 'success' && i.binary?.data)).toHaveLength(n);
	expect(items.map((i) => (i.json.meta as IDataObject).order_id)).toEqual(
		numbered(n).map((x) => `O-${x.n}`),
	);
}

/** Every document the sandbox made appears in exactly one item: output (`id`) or error (`documentId`). */
function expectEveryDocumentNamedOnce(sb: Sandbox, items: INodeExecutionData[]) {
	const named = items
		.map((i) => (i.json.error ? i.json.documentId : i.json.id))
		.filter((id): id is string => typeof id === 'string');
	expect(new Set(named).size).toBe(named.length);
	expect([...named].sort()).toEqual([...sb.documents.keys()].sort());
}

const limited = (sb: Sandbox) => apiRequests(sb).filter((r) => r.status === 429);

describe('a request limit', () => {
	test('with Retry-After: every item succeeds with one document; a 429 holds every request until the window ends', async () => {
		await withSandbox({ rateLimit: { requests: 10, perMs: 2000 } }, async (sb) => {
			const result = await run(sb, create(sb), numbered(25), CONTINUE);
			expect(result.error).toBeUndefined();
			expectAllSucceeded(result.items, 25);
			expect(sb.documents.size).toBe(25);
			expect(creates(sb).filter((r) => r.status === 201)).toHaveLength(25);
			// A refused create waits for its window to reopen (whatever the machine's speed).
			expect(expectNoCreateRetriedBeforeItsWindow(sb, 2000)).toBeGreaterThan(0);
			// Without the pace every queued create would have been refused once per window.
			expect(limited(sb).length).toBeLessThan(25);
		});
	});

	test('without Retry-After: the adaptive rate paces every request; every item succeeds with one document', async () => {
		await withSandbox(
			{ rateLimit: { requests: 8, perMs: 2000, retryAfter: false } },
			async (sb) => {
				const result = await run(sb, create(sb), numbered(20), CONTINUE);
				expectAllSucceeded(result.items, 20);
				expect(sb.documents.size).toBe(20);
				expect(limited(sb).length).toBeGreaterThan(0);
				expect(limited(sb).every((r) => r.headers['retry-after'] === undefined)).toBe(true);
			},
		);
	});

	test.each(['x', 'ietf'] as const)(
		'announced in %s headers: paced ahead, no 429 once the first answer told the budget',
		async (headers) => {
			await withSandbox({ rateLimit: { requests: 10, perMs: 2000, headers } }, async (sb) => {
				const result = await run(sb, create(sb), numbered(25), CONTINUE);
				expectAllSucceeded(result.items, 25);
				// The first wave (8 at once) goes out before any answer; after it, none is refused.
				expect(
					apiRequests(sb)
						.slice(8)
						.filter((r) => r.status === 429),
				).toEqual([]);
			});
		},
	);

	test('a wait longer than Max Wait for Rate Limit fails the items that need it at once, saying what the service asked and what to change; every document made is named once', async () => {
		await withSandbox({}, async (sb) => {
			// The first create is refused with a 30 s wait; the node accepts 5 s.
			sb.faults.add({
				type: 'status',
				status: 429,
				retryAfter: '30',
				method: 'POST',
				path: /^\/api\/v1\/documents$/,
				times: 1,
			});
			const result = await run(sb, create(sb, { maxRateLimitWait: 5 }), numbered(12), CONTINUE);
			// At once: no item's create was sent again after the refusal (no wait for it).
			const orders = creates(sb).map(orderOf);
			expect(new Set(orders).size).toBe(orders.length);
			expect(creates(sb).filter((r) => r.status === 429)).toHaveLength(1);
			const failed = result.items.filter((i) => i.json.error);
			expect(failed.length).toBeGreaterThan(0);
			for (const item of failed) {
				expect(item.json.error).toMatch(
					/^The service asked to wait 30 s before the next request \(429 Too Many Requests\) while trying to /,
				);
				expect(item.json.message).toMatch(
					/longest wait this run accepts, Options → Max Wait for Rate Limit \(5 s\), so nothing more was sent/,
				);
				expect(item.json.message).toMatch(/lower the batch's pace/);
			}
			expect(result.items).toHaveLength(12);
			expectEveryDocumentNamedOnce(sb, result.items);
			// Documents made before the refusal and waited for are named with their status.
			for (const item of failed.filter((i) => i.json.documentId)) {
				expect(item.json.message).toContain(`Its document was made: ${item.json.documentId}`);
				expect(sb.documents.has(String(item.json.documentId))).toBe(true);
			}
		});
	});

	test('drafts: Max Wait for Rate Limit bounds their waits too, and a value below 1 is refused before anything is sent', async () => {
		await withSandbox({}, async (sb) => {
			// The first create is refused with a 30 s wait; the drafts accept 5 s.
			sb.faults.add(
				statusFault(429, 'POST', /^\/api\/v1\/documents$/, { retryAfter: '30', times: 1 }),
			);
			const drafts = numberedCreate(sb, { status: 'draft', options: { maxRateLimitWait: 5 } });
			const result = await run(sb, drafts, numbered(6), CONTINUE);
			const orders = creates(sb).map(orderOf);
			expect(new Set(orders).size).toBe(orders.length);
			const failed = result.items.filter((i) => i.json.error);
			expect(failed.length).toBeGreaterThan(0);
			for (const item of failed) {
				expect(item.json.message).toMatch(
					/longest wait this run accepts, Options → Max Wait for Rate Limit \(5 s\), so nothing more was sent/,
				);
			}
			expectEveryDocumentNamedOnce(sb, result.items);
		});
		await withSandbox({}, async (sb) => {
			const drafts = numberedCreate(sb, { status: 'draft', options: { maxRateLimitWait: 0 } });
			const result = await run(sb, drafts, numbered(2));
			expect(result.error?.message).toMatch(/max wait for rate limit/i);
			expect(apiRequests(sb)).toEqual([]);
		});
	});

	test('time held by the limit does not count against the Wait Timeout', async () => {
		// Generation takes 3.5 s, the Wait Timeout is 3 s of it: the first poll is held 2 s by a
		// 429, so the documents finish past the Wait Timeout counted from their create.
		await withSandbox({ pendingMs: 100, generatingMs: 3400 }, async (sb) => {
			sb.faults.add({
				type: 'status',
				status: 429,
				retryAfter: '2',
				method: 'GET',
				path: '/api/v1/document_cards',
				times: 1,
			});
			const result = await run(sb, create(sb, { waitTimeout: 3 }), numbered(2), CONTINUE);
			expectAllSucceeded(result.items, 2);
			// The poll was held, and each document took longer than the Wait Timeout (the
			// sandbox's own times): only the time held kept the items from timing out.
			expect(
				apiRequests(sb).filter((r) => r.path === '/api/v1/document_cards' && r.status === 429),
			).toHaveLength(1);
			for (const item of result.items) {
				const took =
					Date.parse(String(item.json.updated_at)) - Date.parse(String(item.json.created_at));
				expect(took).toBeGreaterThan(3000);
			}
		});
	});
});

describe('a quota spent mid-batch', () => {
	test('the items not sent yet are not sent: they fail at once naming the quota; a hint says so', async () => {
		await withSandbox({ availableDocuments: 3 }, async (sb) => {
			const result = await run(sb, create(sb), numbered(20), CONTINUE);
			const ok = result.items.filter((i) => i.json.status === 'success');
			const refused = result.items.filter((i) =>
				/You've reached your quota/.test(String(i.json.error)),
			);
			const notSent = result.items.filter(
				(i) => i.json.error === "Not sent: the account's document quota is spent",
			);
			expect(ok).toHaveLength(3);
			expect(refused.length).toBeGreaterThan(0);
			expect(ok.length + refused.length + notSent.length).toBe(20);
			// At most the creates already on their way when the first refusal came (8 at a time).
			expect(creates(sb).length).toBeLessThanOrEqual(3 + 8);
			expect(notSent.length).toBeGreaterThanOrEqual(20 - 3 - 8);
			expect(notSent[0].json.message).toMatch(/Add documents to the plan or upgrade it/);
			expect(sb.documents.size).toBe(3);
			expectEveryDocumentNamedOnce(sb, result.items);
			const hints = result.runData['Document Generation'][0].hints ?? [];
			expect(hints.map((h) => h.message)).toContainEqual(
				expect.stringMatching(
					/^The account's document quota ran out during this run: \d+ items were not sent after the service refused one\./,
				),
			);
		});
	});

	test('documents that fail with "Quota exceeded" fail their own items, named, and the hint counts them', async () => {
		await withSandbox(
			{ availableDocuments: 2, quotaMode: 'fail', generatingMs: 300 },
			async (sb) => {
				const result = await run(sb, create(sb), numbered(4), CONTINUE);
				const failed = result.items.filter((i) => /Quota exceeded/.test(String(i.json.error)));
				expect(failed).toHaveLength(2);
				for (const item of failed) expect(item.json.status).toBe('failure');
				expectEveryDocumentNamedOnce(sb, result.items);
				const hints = result.runData['Document Generation'][0].hints ?? [];
				expect(hints.map((h) => h.message)).toContainEqual(
					expect.stringMatching(
						/quota ran out during this run: 2 documents failed with "Quota exceeded"/,
					),
				);
			},
		);
	});
});

describe('items that fail after their document was made name it', () => {
	test('a wait timeout, under Continue: documentId, last status and how to fetch it', async () => {
		await withSandbox({ generatingMs: 20_000 }, async (sb) => {
			const result = await run(sb, create(sb, { waitTimeout: 1 }), numbered(2), CONTINUE);
			for (const item of result.items) {
				const id = String(item.json.documentId);
				expect(sb.documents.has(id)).toBe(true);
				expect(item.json).toMatchObject({
					error: `Document ${id} was still generating after waiting 1 s`,
					status: 'generating',
				});
				expect(item.json.message).toContain(
					`Its document was made: ${id} (last status: generating). Fetch it with Get or Download (Document ID ${id})`,
				);
			}
			expectEveryDocumentNamedOnce(sb, result.items);
		});
	});

	test('a download that fails: documentId with status success', async () => {
		await withSandbox({}, async (sb) => {
			sb.faults.add({ type: 'status', status: 404, method: 'GET', path: '/files/', times: 50 });
			const result = await run(sb, create(sb), numbered(2), CONTINUE);
			for (const item of result.items) {
				expect(item.json.error).toMatch(/^The file could not be downloaded \(404\)/);
				expect(item.json.status).toBe('success');
				expect(sb.documents.get(String(item.json.documentId))?.status).toBe('success');
			}
			expectEveryDocumentNamedOnce(sb, result.items);
		});
	});

	test('to the error output: only error and message (what n8n 1.x routes), the message names the document', async () => {
		await withSandbox({ generatingMs: 20_000 }, async (sb) => {
			const result = await run(sb, create(sb, { waitTimeout: 1 }), numbered(2), {
				onError: 'continueErrorOutput',
			});
			const [ok, failed] = result.outputs;
			expect(ok).toEqual([]);
			expect(failed).toHaveLength(2);
			for (const item of failed) {
				expect(Object.keys(item.json).sort()).toEqual(['error', 'message', 'n']);
				const id = /^Document (\S+) was still/.exec(String(item.json.error))![1];
				expect(item.json.message).toContain(`Its document was made: ${id}`);
			}
		});
	});

	test('without Continue, the error that stops the run names the other documents it made', async () => {
		await withSandbox({ generatingMs: 20_000 }, async (sb) => {
			const result = await run(sb, create(sb, { waitTimeout: 1 }), numbered(3));
			const ids = [...sb.documents.keys()];
			expect(ids).toHaveLength(3);
			const own = /^Document (\S+) was still/.exec(result.error!.message)![1];
			expect(result.error!.description).toContain(`Its document was made: ${own}`);
			expect(result.error!.description).toMatch(
				/This run had also made 2 other documents \(.+\); they are kept and keep generating/,
			);
			for (const id of ids)
				expect(`${result.error!.message} ${result.error!.description}`).toContain(id);
		});
	});
});

describe('what happened on long work: execution hints on the node', () => {
	test('the request limit: how many requests were refused, how long the run waited, what to change', async () => {
		await withSandbox({}, async (sb) => {
			// The limit refuses the first three creates, however fast the machine sends them (a
			// budget per second is not reached when a busy machine spreads the batch out).
			sb.faults.add(
				statusFault(429, 'POST', /^\/api\/v1\/documents$/, { retryAfter: '1', times: 3 }),
			);
			const result = await run(sb, create(sb), numbered(10), CONTINUE);
			expectAllSucceeded(result.items, 10);
			const hints = result.runData['Document Generation'][0].hints ?? [];
			const hint = hints.find((h) => /request limit/.test(h.message));
			expect(hint).toMatchObject({ type: 'warning', location: 'outputPane' });
			expect(hint!.message).toMatch(
				/^10 items: the service's request limit answered \d+ of \d+ requests with 429 \(Too Many Requests\); the longest wait it asked for was \d s, so this run waited \d+ s for it in all\./,
			);
			expect(hint!.message).toMatch(/Loop Over Items with a Wait node/);
			expect(hint!.message).toMatch(/Max Wait for Rate Limit/);
			expect(hint!.message).toMatch(/answered 3 of \d+ requests with 429/);
			expect(limited(sb)).toHaveLength(3);
		});
	});

	test("the service's queue: documents that waited pending for seconds", async () => {
		// One worker, a second per document: the ninth starts generating after 8 s.
		await withSandbox({ workers: 1, pendingMs: 20, generatingMs: 1000 }, async (sb) => {
			const result = await run(sb, create(sb), numbered(9), CONTINUE);
			expectAllSucceeded(result.items, 9);
			const hints = result.runData['Document Generation'][0].hints ?? [];
			expect(hints.map((h) => h.message)).toContainEqual(
				expect.stringMatching(
					/^9 items: \d documents? waited up to \d+ s in the service's queue before generating/,
				),
			);
		});
	});

	test('no limit, no queue: no hint', async () => {
		await withSandbox({}, async (sb) => {
			const result = await run(sb, create(sb), numbered(3), CONTINUE);
			expectAllSucceeded(result.items, 3);
			expect(result.runData['Document Generation'][0].hints ?? []).toEqual([]);
		});
	});
});

/** The items of execution `e` of a fleet: `{ n }` numbered from e·100, so each is its own. */
const itemsOf = (e: number, count: number): IDataObject[] =>
	Array.from({ length: count }, (_, i) => ({ n: e * 100 + i }));

/** `count` executions at once, each over its own items. */
async function fleetRun(
	sb: Sandbox,
	parameters: INodeParameters,
	{ count, items }: { count: number; items: number },
) {
	return await Promise.all(
		Array.from(
			{ length: count },
			async (_, e) => await run(sb, parameters, itemsOf(e, items), CONTINUE),
		),
	);
}

/** Every item succeeded with its file; the sandbox made exactly one document per item. */
function expectEachDocumentOnce(
	sb: Sandbox,
	results: Array<{ items: INodeExecutionData[] }>,
	n: number,
) {
	const items = results.flatMap((r) => r.items);
	expect(items).toHaveLength(n);
	expect(items.filter((i) => i.json.status === 'success' && i.binary?.data)).toHaveLength(n);
	expect(items.filter((i) => i.json.error)).toEqual([]);
	expect(sb.documents.size).toBe(n);
	const orders = [...sb.documents.values()].map((d) => JSON.stringify(d.meta));
	expect(new Set(orders).size).toBe(n);
	expect(creates(sb).filter((r) => r.status === 201)).toHaveLength(n);
}

describe('executions sharing one account', () => {
	test.each([
		['with Retry-After', { requests: 8, perMs: 2000, retryAfter: true }],
		['without Retry-After', { requests: 8, perMs: 2000, retryAfter: false }],
	])(
		'%s: every item of every execution succeeds with one document; a refusal fails no item',
		async (_, rateLimit) => {
			await withSandbox({ rateLimit, pendingMs: 50, generatingMs: 200 }, async (sb) => {
				const results = await fleetRun(sb, create(sb), { count: 4, items: 5 });
				expectEachDocumentOnce(sb, results, 20);
				expect(apiRequests(sb).filter((r) => r.status === 429).length).toBeGreaterThan(0);
			});
		},
	);

	test('with Retry-After, each execution waits for the window its create was refused in (no create sent again before it reopens)', async () => {
		const rateLimit = { requests: 8, perMs: 2000 };
		await withSandbox({ rateLimit, pendingMs: 50, generatingMs: 200 }, async (sb) => {
			const results = await fleetRun(sb, create(sb), { count: 4, items: 5 });
			expectEachDocumentOnce(sb, results, 20);
			expect(expectNoCreateRetriedBeforeItsWindow(sb, rateLimit.perMs)).toBeGreaterThan(0);
		});
	});

	test('a wait longer than Max Wait for Rate Limit fails each execution’s items at once, with the same clear error', async () => {
		await withSandbox({}, async (sb) => {
			sb.faults.add(
				statusFault(429, 'POST', /^\/api\/v1\/documents$/, { retryAfter: '30', times: 1000 }),
			);
			const results = await fleetRun(sb, create(sb, { maxRateLimitWait: 5 }), {
				count: 3,
				items: 4,
			});
			// At once: no item's create was sent again after its refusal (no wait for it).
			const orders = creates(sb).map(orderOf);
			expect(new Set(orders).size).toBe(orders.length);
			for (const { items } of results) {
				expect(items).toHaveLength(4);
				for (const item of items) {
					expect(item.json.error).toMatch(
						/^The service asked to wait 30 s before the next request \(429 Too Many Requests\) while trying to /,
					);
					expect(item.json.message).toMatch(
						/Options → Max Wait for Rate Limit \(5 s\), so nothing more was sent/,
					);
				}
			}
			expect(sb.documents.size).toBe(0);
		});
	});

	test("a quota spent while several executions write: each stops its unsent writes with the quota's one error", async () => {
		await withSandbox({ availableDocuments: 3 }, async (sb) => {
			const results = await fleetRun(sb, create(sb), { count: 2, items: 6 });
			const items = results.flatMap((r) => r.items);
			const ok = items.filter((i) => i.json.status === 'success');
			const quota = items.filter(
				(i) =>
					/You've reached your quota/.test(String(i.json.error)) ||
					i.json.error === "Not sent: the account's document quota is spent",
			);
			expect(ok).toHaveLength(3);
			expect(ok.length + quota.length).toBe(12);
			expect(sb.documents.size).toBe(3);
		});
	});
});
