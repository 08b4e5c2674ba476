/**
 * Several executions sharing one account and one request limit, on the real engine against
 * one sandbox. Each execution has a pace of its own and sees only its own answers, exactly as
 * separate processes (queue-mode workers, several instances) would: the fleet of issue 38.
 * What must hold, on any machine: every item of every execution succeeds with one document; a
 * refusal fails no item; a refused create waits for its window to reopen; the Max Wait cap and
 * the quota's clear error are unchanged. How far apart the executions wake and how the shares
 * settle are measured on a simulated clock (pace.fleet.test.ts) and by the fleet benchmark
 * (`npm run bench -- --only fleet`), never here on the machine's clock.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { statusFault } from '../../../harness/fixtures';
import type { Sandbox } from '../../../sandbox';
import {
	CONTINUE,
	apiRequests,
	creates,
	expectNoCreateRetriedBeforeItsWindow,
	orderOf,
	run,
	withSandbox,
	createWithOptions,
} from '../../DocumentGeneration/helpers';

const create = createWithOptions;

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
