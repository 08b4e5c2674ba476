/**
 * The learned pace on the real engine against the sandbox, on each shape a limit may have (a
 * fixed window, a sliding window, a token bucket), with and without Retry-After, one execution
 * and two sharing the limit. What must hold on any machine: every item is made once and
 * succeeds with its file, no 429 becomes an item's failure, and a wait longer than Max Wait
 * for Rate Limit fails its items at once with the same clear error. How fast, and how many
 * 429s, is the fleet benchmark's (`npm run bench -- --only fleet --matrix`), never asserted here.
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { RateLimit, Sandbox } from '../../../sandbox';
import {
	CONTINUE,
	apiRequests,
	creates,
	createWithOptions,
	orderOf,
	run,
	withSandbox,
} from '../../DocumentGeneration/helpers';

const SHAPES: Array<[string, RateLimit]> = [
	['a fixed window', { requests: 6, perMs: 2000 }],
	['a sliding window', { requests: 6, perMs: 2000, window: 'sliding' }],
	['a token bucket', { requests: 3, perMs: 1000, window: 'bucket', burst: 4 }],
];

const CASES = SHAPES.flatMap(([name, limit]) =>
	[true, false].map(
		(retryAfter) =>
			[
				`${name}, ${retryAfter ? 'with' : 'without'} Retry-After`,
				{ ...limit, retryAfter },
			] as const,
	),
);

/** `count` executions at once, execution `e` over items numbered from e·100. */
async function executions(
	sb: Sandbox,
	count: number,
	items: number,
	options: INodeParameters = {},
) {
	return await Promise.all(
		Array.from(
			{ length: count },
			async (_, e) =>
				await run(
					sb,
					createWithOptions(sb, options),
					Array.from({ length: items }, (__, i) => ({ n: e * 100 + i })),
					CONTINUE,
				),
		),
	);
}

/** Every item succeeded with its file, and the sandbox made exactly one document for each. */
function expectEachMadeOnce(
	sb: Sandbox,
	results: Array<{ items: INodeExecutionData[] }>,
	n: number,
) {
	const items = results.flatMap((r) => r.items);
	expect(items.filter((i) => i.json.error)).toEqual([]);
	expect(items.filter((i) => i.json.status === 'success' && i.binary?.data)).toHaveLength(n);
	expect(sb.documents.size).toBe(n);
	const made = creates(sb)
		.filter((r) => r.status === 201)
		.map(orderOf);
	expect(new Set(made).size).toBe(n);
	expect(made).toHaveLength(n);
}

describe('each limit shape, on the engine', () => {
	test.each(CASES)(
		'%s: one execution of 16 items, every item made once, the 429s fail none',
		async (_, rateLimit) => {
			await withSandbox({ rateLimit, pendingMs: 50, generatingMs: 200 }, async (sb) => {
				const results = await executions(sb, 1, 16);
				expectEachMadeOnce(sb, results, 16);
				expect(apiRequests(sb).filter((r) => r.status === 429).length).toBeGreaterThan(0);
			});
		},
	);

	test.each(CASES)(
		'%s: two executions sharing it, 8 items each, every item made once, the 429s fail none',
		async (_, rateLimit) => {
			await withSandbox({ rateLimit, pendingMs: 50, generatingMs: 200 }, async (sb) => {
				const results = await executions(sb, 2, 8);
				expectEachMadeOnce(sb, results, 16);
			});
		},
	);

	test.each([
		['a fixed window', { requests: 2, perMs: 60_000 }],
		['a sliding window', { requests: 2, perMs: 60_000, window: 'sliding' }],
		['a token bucket', { requests: 1, perMs: 60_000, window: 'bucket', burst: 2 }],
	] as Array<[string, RateLimit]>)(
		'%s whose reopening is further than Max Wait for Rate Limit: the items that need it fail at once, with the clear error, nothing sent again',
		async (_, rateLimit) => {
			// A fixed window reopens on the service's whole minutes: a sandbox started 55 s into
			// one would reopen within the 5 s the run accepts. Its clock starts on a window's
			// start, so the reopening is a minute away wherever the real clock stands.
			const startTime = Math.floor(Date.now() / rateLimit.perMs) * rateLimit.perMs;
			const options = { rateLimit, pendingMs: 50, generatingMs: 200, startTime };
			await withSandbox(options, async (sb) => {
				const [{ items }] = await executions(sb, 1, 6, { maxRateLimitWait: 5 });
				expect(items).toHaveLength(6);
				const failed = items.filter((i) => i.json.error);
				expect(failed.length).toBeGreaterThan(0);
				for (const item of failed)
					expect(item.json.message).toMatch(
						/Options → Max Wait for Rate Limit \(5 s\), so nothing more was sent/,
					);
				const orders = creates(sb).map(orderOf);
				expect(new Set(orders).size).toBe(orders.length);
				// Every document the sandbox made is in its item.
				const named = items.map((i) => (i.json.error ? i.json.documentId : i.json.id));
				for (const id of sb.documents.keys()) expect(named).toContain(id);
			});
		},
	);
});
