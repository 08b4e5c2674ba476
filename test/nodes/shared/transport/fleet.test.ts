/**
 * Several executions sharing one account and one request limit, on the real engine against
 * one sandbox. Each execution has a pace of its own and sees only its own answers, exactly as
 * separate processes (queue-mode workers, several instances) would: the fleet of issue 38.
 * What must hold: retries after a shared refusal are spread; every item of every execution
 * succeeds with one document; the Max Wait cap and the quota's clear error are unchanged.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { statusFault } from '../../../harness/fixtures';
import type { LoggedRequest, Sandbox } from '../../../sandbox';
import {
	CONTINUE,
	apiRequests,
	creates,
	run,
	withSandbox,
	createWithOptions,
} from '../../DocumentGeneration/helpers';

const create = createWithOptions;

/** The items of execution `e` of a fleet: `{ n }` numbered from e·100, so each is its own. */
const itemsOf = (e: number, count: number): IDataObject[] =>
	Array.from({ length: count }, (_, i) => ({ n: e * 100 + i }));

/** The execution that sent a create (from its item's order id). */
function executionOf(request: LoggedRequest): number {
	const document = (request.body as { document?: { meta?: unknown } }).document;
	const meta = typeof document?.meta === 'string' ? JSON.parse(document.meta) : document?.meta;
	return Math.floor(Number(String((meta as IDataObject).order_id).slice(2)) / 100);
}

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
	afterEach(() => jest.restoreAllMocks());

	test('after a shared refusal, no two executions send again at the same instant (50 ms apart at least), and none before the window reopens', async () => {
		// Math.random gives a fixed, evenly spread sequence, so the draws (one per execution's
		// hold) are known to differ; with the real one, equal instants are improbable, not impossible.
		let draw = 0;
		jest.spyOn(Math, 'random').mockImplementation(() => (++draw * 0.618_033_988_75) % 1);
		await withSandbox(
			{ rateLimit: { requests: 4, perMs: 4000 }, pendingMs: 50, generatingMs: 200 },
			async (sb) => {
				const results = await fleetRun(sb, create(sb), { count: 4, items: 3 });
				expectEachDocumentOnce(sb, results, 12);
				const refused = creates(sb).filter((r) => r.status === 429);
				const firstRefusal = new Map<number, LoggedRequest>();
				for (const r of refused)
					if (!firstRefusal.has(executionOf(r))) firstRefusal.set(executionOf(r), r);
				expect(firstRefusal.size).toBeGreaterThanOrEqual(2);
				// Each execution's first create after the window it was refused in ends: its retry.
				const retries: number[] = [];
				for (const [e, refusal] of firstRefusal) {
					const windowEnd = (Math.floor(refusal.at / 4000) + 1) * 4000;
					const mine = creates(sb).filter((r) => executionOf(r) === e);
					// Nothing new before the window reopens (only creates already on their way).
					expect(mine.filter((r) => r.at > refusal.at + 300 && r.at < windowEnd)).toEqual([]);
					retries.push(mine.find((r) => r.at >= windowEnd)!.at);
				}
				// Not the same instant: at least 50 ms apart (without the spread, executions woken
				// together reach the service a millisecond or two apart).
				const sorted = [...retries].sort((a, b) => a - b);
				for (let i = 1; i < sorted.length; i++)
					expect(sorted[i] - sorted[i - 1]).toBeGreaterThanOrEqual(50);
			},
		);
	});

	test.each([
		['with Retry-After', { requests: 8, perMs: 2000 }],
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

	test.each([
		['with Retry-After', true],
		['without Retry-After', false],
	])(
		'%s: the shares settle: after the window where the executions met the limit together (the most 429s), each window draws at most half as many',
		async (_, retryAfter) => {
			const window = 2000;
			await withSandbox(
				{ rateLimit: { requests: 6, perMs: window, retryAfter }, pendingMs: 50, generatingMs: 200 },
				async (sb) => {
					const results = await fleetRun(sb, create(sb), { count: 3, items: 10 });
					expectEachDocumentOnce(sb, results, 30);
					// Refusals per window of the sandbox's clock-aligned windows. Under load the
					// executions start apart, so the window where they all meet the limit (the most
					// refusals) need not be the first: every window after it draws at most half.
					const refusedIn = new Map<number, number>();
					for (const r of apiRequests(sb).filter((r) => r.status === 429)) {
						const w = Math.floor(r.at / window);
						refusedIn.set(w, (refusedIn.get(w) ?? 0) + 1);
					}
					const [collision, most] = [...refusedIn].reduce((a, b) => (b[1] > a[1] ? b : a));
					expect(most).toBeGreaterThan(6);
					for (const [w, refused] of refusedIn)
						if (w > collision) expect(refused).toBeLessThanOrEqual(most / 2);
				},
			);
		},
	);

	test('a wait longer than Max Wait for Rate Limit fails each execution’s items at once, with the same clear error', async () => {
		await withSandbox({}, async (sb) => {
			sb.faults.add(
				statusFault(429, 'POST', /^\/api\/v1\/documents$/, { retryAfter: '30', times: 1000 }),
			);
			const started = Date.now();
			const results = await fleetRun(sb, create(sb, { maxRateLimitWait: 5 }), {
				count: 3,
				items: 4,
			});
			expect(Date.now() - started).toBeLessThan(15_000);
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
