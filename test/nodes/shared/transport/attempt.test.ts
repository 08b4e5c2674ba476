/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * Unit tests of one attempt (nodes/shared/transport/attempt.ts) against a stand-in for n8n's
 * request helpers, on a simulated clock: a cancel while waiting for the turn or during the
 * request, a refused redirect's error, the time that does not spend the retry budget, and
 * how the API's `Date` reads a budget's reset. What a user sees of them on the engine is in
 * test/resilience/rateLimit.test.ts, the resilience suites and the trigger's tests.
 */
import type { IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { attemptOnce } from '../../../../nodes/shared/transport/attempt';
import type { Exchange } from '../../../../nodes/shared/transport/calls';
import { Gate } from '../../../../nodes/shared/transport/limit';
import type { TransportContext } from '../../../../nodes/shared/types';
import { nodeFixture } from '../../../harness/fixtures';
import { useFakeClock } from '../../../harness/clock';

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
