/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * Unit tests of the execution's gate (nodes/shared/transport/gate.ts) on a simulated clock:
 * the order requests get their turn in, a cancelled request leaving the queue at once, the
 * boundary of Max Wait for Rate Limit, a short hold ending on time with one timer waiting for
 * it, and no listener left on the execution's signal. The
 * gate's behaviour under a real limit is gate.test.ts's, on the engine against the sandbox.
 */
import { getEventListeners } from 'node:events';

import { Gate, GateCancelled, LimitWaitTooLong } from '../../../../nodes/shared/transport/gate';
import { useFakeClock } from '../../../harness/clock';

const T = Date.UTC(2030, 0, 1);

/** What a promise came to by now: `pending`, its value, or its error. */
type State<V> = 'pending' | { value: V } | { error: unknown };

/** Watches a promise; `state()` tells what it came to once the pending callbacks have run. */
function watch<V>(promise: Promise<V>): () => Promise<State<V>> {
	let state: State<V> = 'pending';
	promise.then(
		(value) => (state = { value }),
		(error: unknown) => (state = { error }),
	);
	return async () => {
		await new Promise((resolve) => setImmediate(resolve));
		return state;
	};
}

/** A gate whose first two places (the pace's slow start) are taken; answers their start times. */
async function fullGate(maxWaitMs = 120_000): Promise<{ gate: Gate; started: number[] }> {
	const gate = new Gate({ maxWaitMs });
	const started = [await gate.take(), await gate.take()];
	return { gate, started };
}

useFakeClock(T);

describe('the order of turns', () => {
	test('a retry of a refused request goes first; the others in the order they asked', async () => {
		const { gate, started } = await fullGate();
		const order: string[] = [];
		const turns = [
			gate.take().then(() => order.push('a')),
			gate.take().then(() => order.push('b')),
			gate.take(undefined, true).then(() => order.push('retry')),
		];
		gate.done(started[0], 200);
		gate.done(started[1], 200);
		gate.done(Date.now(), 200);
		await Promise.all(turns);
		expect(order).toEqual(['retry', 'a', 'b']);
	});
});

describe('a cancelled execution', () => {
	test('a request already cancelled is refused at once, without queueing', async () => {
		const { gate } = await fullGate();
		const cancelled = AbortSignal.abort();
		const state = watch(gate.take(cancelled));
		expect(await state()).toEqual({ error: expect.any(GateCancelled) });
	});

	test('a request cancelled while it waits leaves the queue at once: the next one takes the turn it would have had', async () => {
		const { gate, started } = await fullGate();
		const execution = new AbortController();
		const waiting = watch(gate.take(execution.signal));
		const next = watch(gate.take());
		execution.abort();
		expect(await waiting()).toEqual({ error: expect.any(GateCancelled) });
		expect(await next()).toBe('pending');
		gate.done(started[0], 200);
		expect(await next()).toEqual({ value: T });
	});
});

describe('Max Wait for Rate Limit', () => {
	test('a wait the service asks for exactly as long as it is waited; one millisecond more refuses every request waiting', async () => {
		const exactly = await fullGate(5000);
		const waits = watch(exactly.gate.take());
		exactly.gate.done(exactly.started[0], 429, { retryAfterMs: 5000 });
		expect(await waits()).toBe('pending');

		const longer = await fullGate(5000);
		const refused = [watch(longer.gate.take()), watch(longer.gate.take())];
		longer.gate.done(longer.started[0], 429, { retryAfterMs: 5001 });
		for (const state of refused) {
			const error = ((await state()) as { error: LimitWaitTooLong }).error;
			expect(error).toBeInstanceOf(LimitWaitTooLong);
			expect(error).toMatchObject({
				askedMs: 5001,
				message: 'The service asked to wait 5001 ms',
			});
		}
	});
});

describe('a hold', () => {
	test('shorter than a second, it ends when the service said (and its spread), not at the end of a whole slice', async () => {
		const { gate, started } = await fullGate();
		const next = watch(gate.take());
		gate.done(started[0], 429, { retryAfterMs: 300 });
		gate.done(started[1], 200);
		await jest.advanceTimersByTimeAsync(299);
		expect(await next()).toBe('pending');
		// The spread after a wait the service named is at most a quarter of it.
		await jest.advanceTimersByTimeAsync(76);
		const { value } = (await next()) as { value: number };
		expect(value - T).toBeGreaterThanOrEqual(300);
		expect(value - T).toBeLessThanOrEqual(375);
	});

	test('however many answers come while it lasts, one timer waits for it', async () => {
		const gate = new Gate({ maxWaitMs: 120_000 });
		// 16 answers that pass take the slow start from 2 requests in flight to 4.
		for (let i = 0; i < 16; i++) gate.done(await gate.take(), 200);
		const started = await Promise.all([1, 2, 3, 4].map(() => gate.take()));
		const waiting = [watch(gate.take()), watch(gate.take())];
		gate.done(started[0], 429, { retryAfterMs: 30_000 });
		for (const startedAt of started.slice(1)) gate.done(startedAt, 200);
		expect(jest.getTimerCount()).toBe(1);
		await jest.advanceTimersByTimeAsync(5000);
		expect(jest.getTimerCount()).toBe(1);
		for (const state of waiting) expect(await state()).toBe('pending');
	});
});

describe("the execution's signal", () => {
	test('no listener is left on it once a request had its turn, was refused or was cancelled', async () => {
		const { gate, started } = await fullGate(5000);
		const turn = new AbortController();
		gate.done(started[0], 200);
		await gate.take(turn.signal);
		expect(getEventListeners(turn.signal, 'abort')).toEqual([]);

		const refusal = new AbortController();
		const refused = watch(gate.take(refusal.signal));
		expect(getEventListeners(refusal.signal, 'abort')).toHaveLength(1);
		gate.done(started[1], 429, { retryAfterMs: 60_000 });
		expect(await refused()).toEqual({ error: expect.any(LimitWaitTooLong) });
		expect(getEventListeners(refusal.signal, 'abort')).toEqual([]);

		const cancel = new AbortController();
		const cancelled = watch((await fullGate()).gate.take(cancel.signal));
		cancel.abort();
		expect(await cancelled()).toEqual({ error: expect.any(GateCancelled) });
		expect(getEventListeners(cancel.signal, 'abort')).toEqual([]);
	});
});
