/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * One exchange (nodes/shared/transport/exchange.ts): an attempt at the gate, what the gate learns
 * from the answer, a cancel and a refused redirect; and, on the engine against the sandbox, each
 * shape a limit may have: every item made once, no 429 an item's failure, a wait longer than Max
 * Wait for Rate Limit failing its items at once with one clear error.
 */
import type {
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeParameters,
} from 'n8n-workflow';

import {
	attemptOnce,
	exchange,
	type Exchange,
	type Exchanged,
} from '../../../../nodes/shared/transport/exchange';
import { Gate } from '../../../../nodes/shared/transport/limit';
import type { TransportContext } from '../../../../nodes/shared/types';
import { useFakeClock } from '../../../harness/clock';
import { nodeFixture } from '../../../harness/fixtures';
import type { RateLimit, Sandbox } from '../../../sandbox';
import {
	apiRequests,
	CONTINUE,
	creates,
	createWithOptions,
	orderOf,
	run,
	withSandbox,
} from '../../DocumentGeneration/helpers';

const T = Date.UTC(2030, 0, 1);

type Answer = (options: IHttpRequestOptions) => Promise<IN8nHttpFullResponse>;

/** A context whose request helpers (with the credential or without) answer with `answer`. */
function contextAnswering(answer: Answer): TransportContext {
	return {
		getNode: () => nodeFixture(),
		helpers: {
			httpRequest: answer,
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) =>
				await answer(options),
		},
	} as unknown as TransportContext;
}

const ok: Answer = async () => ({ statusCode: 200, headers: {}, body: '{}' });

function call(to: Exchange['to']): Exchange {
	return {
		http: { method: 'GET', url: 'https://api.example.test/api/v1/documents/d1' },
		to,
		what: 'get document d1',
		secret: 'sk-test-secret',
		itemIndex: 3,
	};
}

const failing = (message: string, name = 'Error') =>
	Object.assign(new Error(message), { name }) as Error;

/** A gate held by a 429 that asked for 5 s: the next requests wait for their turn. */
async function fullGate(): Promise<Gate> {
	const gate = new Gate({ maxWaitMs: 120_000 });
	gate.done(await gate.take(), 429, { retryAfterMs: 5000 });
	return gate;
}

describe('one attempt, on a simulated clock', () => {
	useFakeClock(T);

	describe('the execution cancelled', () => {
		test('while the request waits for its turn: the cancel error, not the limit’s', async () => {
			const gate = await fullGate();
			const execution = new AbortController();
			let outcome: unknown = 'pending';
			attemptOnce(contextAnswering(ok), call('api'), {
				gate,
				signal: execution.signal,
				afterLimit: false,
			}).catch((error: unknown) => (outcome = error));
			execution.abort();
			await new Promise((resolve) => setImmediate(resolve));
			expect(outcome).toMatchObject({
				message: 'The execution was cancelled while trying to get document d1',
				description: 'Nothing more was sent.',
			});
		});

		test.each([
			['its signal aborted, whatever the failure says', true, failing('socket hang up')],
			[
				'n8n’s request cancelled, the signal not (yet) aborted',
				false,
				failing('canceled', 'CanceledError'),
			],
		])(
			'during the request, %s: the cancel error, not a network failure to retry',
			async (_, aborted, failure) => {
				const execution = new AbortController();
				const context = contextAnswering(async () => {
					if (aborted) execution.abort();
					throw failure;
				});
				await expect(
					attemptOnce(context, call('fileHost'), {
						gate: new Gate({ maxWaitMs: 120_000 }),
						signal: execution.signal,
						afterLimit: false,
					}),
				).rejects.toThrow('The execution was cancelled while trying to get document d1');
			},
		);
	});

	test('a redirect refused: the error has its status and its item', async () => {
		const context = contextAnswering(async () => ({
			statusCode: 302,
			headers: { location: 'https://elsewhere.example.test/x' },
			body: '',
		}));
		const refused = attemptOnce(context, call('api'), {
			gate: new Gate({ maxWaitMs: 120_000 }),
			afterLimit: false,
		});
		await expect(refused).rejects.toMatchObject({ httpCode: '302', context: { itemIndex: 3 } });
	});

	describe('the time that does not spend the retry budget', () => {
		test('none for a request sent at once; the wait for its turn for one held by the limit', async () => {
			const gate = new Gate({ maxWaitMs: 120_000 });
			const atOnce = await attemptOnce(contextAnswering(ok), call('fileHost'), {
				gate,
				afterLimit: false,
			});
			expect(atOnce.excludedMs).toBe(0);

			const held = await fullGate();
			held.done(T, 429, { retryAfterMs: 5000 });
			let sentAt = 0;
			const queuedAt = Date.now();
			const attempt = attemptOnce(
				contextAnswering(async (options) => {
					sentAt = Date.now();
					return await ok(options);
				}),
				call('fileHost'),
				{ gate: held, afterLimit: false },
			);
			held.done(T, 200);
			await jest.advanceTimersByTimeAsync(60_000);
			const attempted = await attempt;
			expect(sentAt - queuedAt).toBeGreaterThanOrEqual(5000);
			expect(attempted.excludedMs).toBe(sentAt - queuedAt);
		});

		test('a request that timed out: its own time too; a connection reset: none of it', async () => {
			const taking = (ms: number, failure: Error) =>
				contextAnswering(async () => {
					jest.setSystemTime(Date.now() + ms);
					throw failure;
				});
			const turn = () => ({ gate: new Gate({ maxWaitMs: 120_000 }), afterLimit: false });
			const timedOut = await attemptOnce(
				taking(3000, failing('timeout of 3000ms exceeded')),
				call('fileHost'),
				turn(),
			);
			expect(timedOut).toMatchObject({ timedOut: true, excludedMs: 3000 });
			const reset = await attemptOnce(
				taking(3000, failing('socket hang up')),
				call('fileHost'),
				turn(),
			);
			expect(reset).toMatchObject({ timedOut: false, excludedMs: 0 });
		});
	});

	describe("the API's Date", () => {
		/** An answer with a spent budget whose reset is the unix time T + 70 s, dated `offsetMs` from T. */
		const spent =
			(offsetMs?: number): Answer =>
			async () => ({
				statusCode: 200,
				headers: {
					...(offsetMs === undefined ? {} : { date: new Date(T + offsetMs).toUTCString() }),
					'x-ratelimit-remaining': '0',
					'x-ratelimit-reset': String((T + 70_000) / 1000),
				},
				body: '{}',
			});

		test('reads a reset given as a unix time: 10 s ahead of ours, a reset at T + 70 s is 60 s away', async () => {
			const gate = new Gate({ maxWaitMs: 120_000 });
			await attemptOnce(contextAnswering(spent(10_000)), call('api'), { gate, afterLimit: false });
			gate.pace.readyIn(T);
			expect(gate.pace.askedWait(T)?.asked).toBe(60_000 + 250);
		});

		test('without a Date, the reset is read against our clock', async () => {
			const gate = new Gate({ maxWaitMs: 120_000 });
			await attemptOnce(contextAnswering(spent()), call('api'), { gate, afterLimit: false });
			gate.pace.readyIn(T);
			expect(gate.pace.askedWait(T)?.asked).toBe(70_000 + 250);
		});
	});

	test('an attempt after a 429 is sent before the requests that were already waiting for their turn', async () => {
		const gate = new Gate({ maxWaitMs: 120_000 });
		// Held by a 429 that asked for 1 s: the requests below wait for their turn.
		gate.done(await gate.take(), 429, { retryAfterMs: 1000 });
		const sent: string[] = [];
		const fileHost = {
			getNode: () => nodeFixture(),
			helpers: {
				httpRequest: async (options: IHttpRequestOptions): Promise<IN8nHttpFullResponse> => {
					sent.push(String(options.url));
					return { statusCode: 200, headers: {}, body: '' };
				},
			},
		} as unknown as TransportContext;
		const attempt = (name: string, afterLimit: boolean) =>
			attemptOnce(
				fileHost,
				{
					http: { method: 'GET', url: `https://files.example.test/${name}` },
					to: 'fileHost',
					what: `download ${name}`,
					secret: undefined,
					itemIndex: 0,
				},
				{ gate, afterLimit },
			);
		const attempts = [attempt('a', false), attempt('b', false), attempt('refused-before', true)];
		await jest.advanceTimersByTimeAsync(60_000);
		await Promise.all(attempts);
		expect(sent).toEqual([
			'https://files.example.test/refused-before',
			'https://files.example.test/a',
			'https://files.example.test/b',
		]);
	});
});

/** The wait each refusal asks for, in its `Retry-After` header (seconds). */
const ASKED_S = 1;

/**
 * One request whose first `refusals` answers are 429 (each asking ASKED_S), then 200, on the
 * simulated clock: what it came to and how many times it was sent.
 */
async function refusedRequest(refusals: number): Promise<{ exchanged: Exchanged; sent: number }> {
	let sent = 0;
	const context = contextAnswering(async () => {
		sent++;
		if (sent > refusals) return { statusCode: 200, headers: {}, body: '{}' };
		return { statusCode: 429, headers: { 'retry-after': String(ASKED_S) }, body: '' };
	});
	const exchanged = exchange(context, call('api'));
	// The holds are the only timers: run them all, then the request has ended.
	await jest.runAllTimersAsync();
	return { exchanged: await exchanged, sent };
}

describe('a request refused again and again, on a simulated clock', () => {
	useFakeClock(T);

	test('29 answers of 429, then an answer: the request gets it, sent 30 times', async () => {
		const { exchanged, sent } = await refusedRequest(29);
		expect(exchanged.response.statusCode).toBe(200);
		expect(sent).toBe(30);
		expect(exchanged.attempts.attempts).toBe(30);
	});

	test('30 answers of 429: the request gives up with the 30th and sends nothing more', async () => {
		const { exchanged, sent } = await refusedRequest(30);
		expect(exchanged.response.statusCode).toBe(429);
		expect(sent).toBe(30);
		// retryAfterMs is the wait the last 429's header asked for, read, not a time measured.
		expect(exchanged.attempts).toMatchObject({ attempts: 30, retryAfterMs: ASKED_S * 1000 });
	});
});

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
