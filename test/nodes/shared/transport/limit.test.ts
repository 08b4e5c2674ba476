/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * Unit tests of the pacing (nodes/shared/transport/limit.ts), all on a simulated clock: the
 * adaptive rate (a token bucket whose rate follows CUBIC), the holds the service names and
 * their spread, announced budgets, the time held, the gate's queue (order, cancellation, Max
 * Wait for Rate Limit, one timer), and a fleet of paces sharing one limit (test/harness/limitSim).
 * The pacing under a real limit on the engine is test/resilience/rateLimit.test.ts's.
 */
import { getEventListeners } from 'node:events';

import {
	AdaptiveRate,
	Gate,
	GateCancelled,
	LimitWaitTooLong,
	Pace,
	WAKE_SPREAD,
} from '../../../../nodes/shared/transport/limit';
import { useFakeClock } from '../../../harness/clock';
import type { FleetLimit } from '../../../harness/limitSim';
import { earliestMs, runFleet, seeded, startAll } from '../../../harness/limitSim';

const T = 1_000_000;

/** `n` answers of `status` to requests started at `now`, answered at `now`. */
function answer(pace: Pace, now: number, n: number, status = 200, retryAfterMs?: number): void {
	for (let i = 0; i < n; i++) {
		pace.start(now);
		pace.finish(now, now, status, retryAfterMs);
	}
}

describe('the adaptive rate', () => {
	test('off until the first 429: requests go at once, however many', () => {
		const rate = new AdaptiveRate(0);
		for (let t = 0; t < 2; t += 0.01) rate.answered(t, false);
		expect(rate.enabled).toBe(false);
		expect(rate.waitS(2)).toBe(0);
		const pace = new Pace(T);
		expect(startAll(pace, T, 50)).toBe(50);
	});

	test('the measured rate: answers per half second, each closed half second weighing 0.8', () => {
		const rate = new AdaptiveRate(0);
		for (let i = 0; i < 10; i++) rate.answered(0.01 * i, false);
		expect(rate.measured).toBe(0);
		rate.answered(0.5, false);
		expect(rate.measured).toBeCloseTo(0.8 * (11 / 0.5));
		rate.answered(1.5, false);
		expect(rate.measured).toBeCloseTo(0.8 * (1 / 1) + 0.2 * 0.8 * 22);
	});

	test('a 429 cuts the rate to 0.7 of the measured rate and turns the bucket on; never below 0.5 a second', () => {
		const rate = new AdaptiveRate(0);
		for (let i = 0; i <= 20; i++) rate.answered(0.05 * i, false);
		const measured = rate.measured;
		rate.answered(1.01, true);
		expect(rate.enabled).toBe(true);
		expect(rate.fillRate).toBeCloseTo(0.7 * measured);
		for (let i = 0; i < 20; i++) rate.answered(1.02, true);
		expect(rate.fillRate).toBe(0.5);
	});

	test('after a cut it regrows along the cubic curve: back to the rate it was cut from after (w·0.3/0.4)^(1/3) s', () => {
		const rate = new AdaptiveRate(0);
		// 40 answers a second: measured 40, so twice it caps nothing here.
		for (let i = 0; i < 160; i++) rate.answered(i / 40, false);
		const cutFrom = rate.measured;
		rate.answered(4, true);
		const k = Math.cbrt((cutFrom * 0.3) / 0.4);
		for (let t = 4; t < 4 + k / 2; t += 1 / 40) rate.answered(t, false);
		rate.answered(4 + k / 2, false);
		// Half its way back in time: w - 0.4 (k/2)^3, nearer w than the cut.
		expect(rate.fillRate).toBeCloseTo(cutFrom - 0.4 * (k / 2) ** 3);
		expect(rate.fillRate).toBeGreaterThan(0.9 * cutFrom);
		for (let t = 4 + k / 2; t < 4 + k; t += 1 / 40) rate.answered(t, false);
		rate.answered(4 + k, false);
		expect(rate.fillRate).toBeCloseTo(cutFrom);
		for (let t = 4 + k; t < 5 + k; t += 1 / 40) rate.answered(t, false);
		rate.answered(4 + k + 1, false);
		expect(rate.fillRate).toBeCloseTo(cutFrom + 0.4);
	});

	test('never above twice the measured rate', () => {
		const rate = new AdaptiveRate(0);
		for (let i = 0; i < 20; i++) rate.answered(i / 10, false);
		rate.answered(2, true);
		rate.answered(60, false);
		expect(rate.fillRate).toBeCloseTo(2 * rate.measured);
	});

	test('the bucket holds at most one second of tokens (at least one), and each request takes one', () => {
		const pace = new Pace(T);
		answer(pace, T, 1, 429);
		// The rate is at its least (0.5 a second): a token every 2 s, one held at most.
		expect(pace.rate.fillRate).toBe(0.5);
		const after = T + 60_000;
		expect(startAll(pace, after)).toBe(1);
		expect(pace.readyIn(after)).toBe(2000);
		expect(pace.readyIn(after + 1500)).toBe(500);
	});
});

describe('a 429 with Retry-After', () => {
	test('holds every request until then, and the hold is counted', () => {
		const pace = new Pace(T, () => 0);
		startAll(pace, T, 8);
		pace.finish(T + 100, T, 429, 5000);
		expect(pace.readyIn(T + 100)).toBe(5000);
		expect(pace.readyIn(T + 3000)).toBe(2100);
		expect(pace.askedWait(T + 3000)).toEqual({ asked: 5000, left: 2100 });
		expect(pace.heldMs(T + 3000)).toBe(2900);
		expect(pace.heldMs(T + 9000)).toBe(5000);
		expect(pace.report(T + 9000)).toMatchObject({ limited: 1, episodes: 1, longestAskedMs: 5000 });
	});

	test('the 429s of requests already on their way are one episode; a longer Retry-After extends the hold', () => {
		const pace = new Pace(T, () => 0);
		startAll(pace, T, 8);
		pace.finish(T + 100, T, 429, 2000);
		pace.finish(T + 110, T, 429, 2000);
		pace.finish(T + 120, T, 429, 3000);
		expect(pace.report(T + 120)).toMatchObject({ limited: 3, episodes: 1 });
		expect(pace.readyIn(T + 120)).toBe(3000);
		// Held time is one interval, not three.
		expect(pace.heldMs(T + 10_000)).toBe(3020);
	});

	test('a later 429 naming an earlier end does not shorten the hold, nor change the wait asked', () => {
		const pace = new Pace(T, () => 0);
		startAll(pace, T, 8);
		pace.finish(T + 100, T, 429, 3000);
		pace.finish(T + 200, T, 429, 1000);
		expect(pace.readyIn(T + 1500)).toBe(1600);
		pace.finish(T + 1100, T, 429, 2000);
		expect(pace.askedWait(T + 1500)).toEqual({ asked: 3000, left: 1600 });
	});

	test('the wait asked is over at the instant the hold ends', () => {
		const pace = new Pace(T, () => 0);
		pace.start(T);
		pace.finish(T + 100, T, 429, 1000);
		expect(pace.askedWait(T + 1099)).toEqual({ asked: 1000, left: 1 });
		expect(pace.askedWait(T + 1100)).toBeUndefined();
		expect(pace.askedWait(T + 5000)).toBeUndefined();
	});

	test('a 429 to a request sent after the last one is a new episode; a request without an answer tells nothing', () => {
		const pace = new Pace(T);
		pace.start(T);
		pace.finish(T + 5, T);
		expect(pace.report(T + 5)).toMatchObject({ limited: 0, heldMs: 0, started: 1 });
		expect(pace.rate.enabled).toBe(false);
		answer(pace, T + 10, 1, 429, 0);
		answer(pace, T + 10, 1, 429, 0);
		expect(pace.report(T + 10)).toMatchObject({ limited: 2, episodes: 2, started: 3 });
	});
});

describe('the spread of a wake', () => {
	test('paces refused together with the same Retry-After wake at different instants, after it and within its spread', () => {
		const paces = [1, 2, 3, 4].map((i) => new Pace(T, seeded(i)));
		const wakes = paces.map((pace) => {
			startAll(pace, T, 8);
			for (let i = 0; i < 8; i++) pace.finish(T + 10, T, 429, 4000);
			return T + 10 + pace.readyIn(T + 10);
		});
		expect(new Set(wakes).size).toBe(4);
		for (const wake of wakes) {
			expect(wake).toBeGreaterThanOrEqual(T + 10 + 4000);
			expect(wake).toBeLessThanOrEqual(T + 10 + 4000 + 500);
		}
	});

	test('one draw per hold: the 429s of requests already on their way do not push the wake further', () => {
		const pace = new Pace(T, () => 0.5);
		startAll(pace, T, 8);
		pace.finish(T + 10, T, 429, 4000);
		const first = pace.readyIn(T + 10);
		expect(first).toBe(4000 + 250);
		for (let i = 0; i < 7; i++) pace.finish(T + 10, T, 429, 4000);
		expect(pace.readyIn(T + 10)).toBe(first);
	});

	test('a new hold draws its spread anew; it is at most a quarter of the wait', () => {
		const draws = [0.2, 1];
		const pace = new Pace(T, () => draws.shift() ?? 0);
		answer(pace, T, 1, 429, 2000);
		expect(pace.readyIn(T)).toBe(2000 + 100);
		answer(pace, T + 2100, 1, 429, 400);
		expect(pace.readyIn(T + 2100)).toBe(400 + 100);
	});

	test("the cap of a wait (Max Wait for Rate Limit) sees the service's own wait, not the spread", () => {
		const pace = new Pace(T, () => 0.99);
		answer(pace, T, 1, 429, 120_000);
		expect(pace.askedWait(T)).toEqual({ asked: 120_000, left: 120_000 });
		expect(pace.readyIn(T)).toBe(120_000 + Math.round(0.99 * WAKE_SPREAD.maxMs));
		// In the spread after the wait, nothing is left of what the service asked.
		expect(pace.askedWait(T + 120_200)).toEqual({ asked: 120_000, left: 0 });
		expect(pace.readyIn(T + 120_495)).toBe(0);
	});

	test('paces that read the same announced reset go on at different instants, none before it', () => {
		const wakes = [1, 2, 3].map((i) => {
			const pace = new Pace(T, seeded(i));
			pace.start(T);
			pace.finish(T + 10, T, 200, undefined, { limit: 10, remaining: 0, resetMs: 2000 });
			return T + 10 + pace.readyIn(T + 10);
		});
		expect(new Set(wakes).size).toBe(3);
		for (const wake of wakes) expect(wake).toBeGreaterThanOrEqual(T + 10 + 2000);
	});
});

describe('an announced budget', () => {
	test('requests stop when it is spent and go on at its reset, without a 429', () => {
		const pace = new Pace(T, () => 0);
		pace.start(T);
		pace.finish(T + 10, T, 200, undefined, { limit: 10, remaining: 3, resetMs: 2000 });
		expect(startAll(pace, T + 10)).toBe(3);
		const wait = pace.readyIn(T + 10);
		expect(wait).toBeGreaterThanOrEqual(2000);
		expect(pace.askedWait(T + 10)?.left).toBe(wait);
		expect(pace.report(T + 10).limited).toBe(0);
		// Past the reset the budget is unknown again until an answer tells it.
		expect(pace.readyIn(T + 10 + wait)).toBe(0);
	});

	test('requests still in flight are counted against what is left', () => {
		const pace = new Pace(T);
		startAll(pace, T, 8);
		pace.finish(T + 10, T, 200, undefined, { remaining: 8, resetMs: 5000 });
		// 7 in flight may take 7 of the 8: one more may start.
		expect(startAll(pace, T + 10)).toBe(1);
		const full = new Pace(T);
		startAll(full, T, 8);
		full.finish(T + 10, T, 200, undefined, { remaining: 3, resetMs: 2000 });
		expect(startAll(full, T + 10)).toBe(0);
		expect(full.readyIn(T + 10)).toBeGreaterThanOrEqual(2000);
	});

	test('a budget spent, read again only after its reset: nothing held then, and later holds counted right', () => {
		const pace = new Pace(T, () => 0);
		pace.start(T);
		pace.finish(T + 10, T, 200, undefined, { remaining: 0, resetMs: 1000 });
		expect(pace.readyIn(T + 5000)).toBe(0);
		answer(pace, T + 6000, 1, 429, 1000);
		expect(pace.heldMs(T + 10_000)).toBe(1000);
	});
});

describe('the time held', () => {
	test('nothing held is no time; a hold from instant 0 is counted as it runs and to its end', () => {
		expect(new Pace(T).heldMs(T + 5000)).toBe(0);
		const pace = new Pace(0, () => 0);
		answer(pace, 0, 1, 429, 1000);
		expect(pace.heldMs(400)).toBe(400);
		expect(pace.heldMs(5000)).toBe(1000);
	});

	test('two holds apart are summed, and the gap between them is not', () => {
		const pace = new Pace(T, () => 0);
		answer(pace, T, 1, 429, 1000);
		answer(pace, T + 3000, 1, 429, 500);
		expect(pace.heldMs(T + 3200)).toBe(1200);
		expect(pace.heldMs(T + 10_000)).toBe(1500);
	});

	test('the wait for a token is counted as held, once', () => {
		const pace = new Pace(T, () => 0);
		answer(pace, T, 1, 429);
		startAll(pace, T + 60_000);
		const before = pace.heldMs(T + 60_000);
		const wait = pace.readyIn(T + 60_000);
		expect(wait).toBeGreaterThan(0);
		expect(pace.heldMs(T + 60_000 + wait) - before).toBe(wait);
		pace.readyIn(T + 60_000 + 10);
		expect(pace.heldMs(T + 70_000) - before).toBe(wait);
	});
});

/** The shapes: fixed 20 per 10 s, sliding 30 over 15 s, a bucket of 2 a second holding 10. */
const SHAPES: Array<[string, Omit<FleetLimit, 'retryAfter'>]> = [
	['a fixed window of 20 per 10 s', { requests: 20, perMs: 10_000 }],
	['a sliding window of 30 over 15 s', { requests: 30, perMs: 15_000, window: 'sliding' }],
	[
		'a token bucket of 2 a second, holding 10',
		{ requests: 2, perMs: 1000, window: 'bucket', burst: 10 },
	],
];

const CASES = SHAPES.flatMap(([name, shape]) =>
	[true, false].map((retryAfter) => [
		`${name}, Retry-After ${retryAfter}`,
		{ ...shape, retryAfter },
	]),
) as Array<[string, FleetLimit]>;

describe('a fleet on a simulated clock (160 requests)', () => {
	test.each(CASES)(
		'%s: one pace within 1.10x of the earliest (1.25x sliding without Retry-After), at most 1/3 refused',
		(_, limit) => {
			const within = limit.window === 'sliding' && !limit.retryAfter ? 1.25 : 1.1;
			for (const seed of [1, 2, 3]) {
				const run = runFleet({ paces: 1, limit, demand: 160, seed, latencyMs: 60, maxMs: 300_000 });
				expect(run.doneAt[0]).toBeLessThanOrEqual(within * earliestMs(limit, 160) + 1000);
				expect(run.limited).toBeLessThanOrEqual(run.sent / 3);
			}
		},
	);

	test.each(CASES)(
		'%s: four paces get all their requests through within 1.10x of one pace alone',
		(_, limit) => {
			for (const seed of [1, 2, 3]) {
				const alone = runFleet({
					paces: 1,
					limit,
					demand: 160,
					seed,
					latencyMs: 60,
					maxMs: 300_000,
				});
				const four = runFleet({ paces: 4, limit, demand: 40, seed, latencyMs: 60, maxMs: 300_000 });
				expect(four.doneAt.filter((at) => at !== undefined)).toHaveLength(4);
				expect(Math.max(...four.doneAt)).toBeLessThanOrEqual(1.1 * alone.doneAt[0]);
			}
		},
	);

	test('after a shared refusal with Retry-After, no two paces wake at the same instant', () => {
		const run = runFleet({
			paces: 4,
			limit: { requests: 20, perMs: 10_000, retryAfter: true },
			demand: 40,
			latencyMs: 200,
		});
		const firstWakes = run.wakes.map((wakes) => wakes[0]);
		expect(firstWakes.every((at) => at !== undefined)).toBe(true);
		expect(new Set(firstWakes).size).toBe(4);
	});

	test('a fixed window met by four with Retry-After: while all four have requests to send, every window is used whole', () => {
		for (const seed of [1, 2, 3]) {
			const limit: FleetLimit = { requests: 20, perMs: 10_000, retryAfter: true };
			const run = runFleet({ paces: 4, limit, demand: 40, seed, latencyMs: 60 });
			const allBusy = run.passed.slice(0, Math.floor(Math.min(...run.doneAt) / 10_000));
			expect(allBusy.length).toBeGreaterThanOrEqual(3);
			for (const window of allBusy) expect(window.reduce((sum, n) => sum + n, 0)).toBe(20);
		}
	});
});

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

const NOW = Date.UTC(2030, 0, 1);

/**
 * A gate whose last request was refused with a wait of `retryAfterMs`: the rest wait. `warm`:
 * 50 answers a second for 2 s before, so the bucket has tokens when the wait ends.
 */
async function heldGate(retryAfterMs = 1000, warm = false): Promise<Gate> {
	const gate = new Gate({ maxWaitMs: 120_000 });
	for (let i = 0; warm && i < 100; i++) {
		gate.done(await gate.take(), 200);
		jest.advanceTimersByTime(20);
	}
	gate.done(await gate.take(), 429, { retryAfterMs });
	return gate;
}

describe('the gate', () => {
	useFakeClock(NOW);

	test('a retry of a refused request goes first; the others in the order they asked', async () => {
		const gate = await heldGate();
		const order: string[] = [];
		const turns = [
			gate.take().then(() => order.push('a')),
			gate.take().then(() => order.push('b')),
			gate.take(undefined, true).then(() => order.push('retry')),
		];
		await jest.advanceTimersByTimeAsync(10_000);
		await Promise.all(turns);
		expect(order).toEqual(['retry', 'a', 'b']);
	});

	test('a request already cancelled is refused at once, without queueing', async () => {
		const gate = await heldGate();
		const state = watch(gate.take(AbortSignal.abort()));
		expect(await state()).toEqual({ error: expect.any(GateCancelled) });
	});

	test('a request cancelled while it waits leaves the queue at once: the next one takes the turn it would have had', async () => {
		const gate = await heldGate(1000, true);
		const from = Date.now();
		const execution = new AbortController();
		const waiting = watch(gate.take(execution.signal));
		const next = watch(gate.take());
		execution.abort();
		expect(await waiting()).toEqual({ error: expect.any(GateCancelled) });
		expect(await next()).toBe('pending');
		await jest.advanceTimersByTimeAsync(1250);
		const { value } = (await next()) as { value: number };
		expect(value - from).toBeLessThanOrEqual(1250);
	});

	test('a wait the service asks for exactly as long as it is waited; one millisecond more refuses every request waiting', async () => {
		/** Two requests sent; the first refused for 1 s, two more waiting; the second refused for `ms`. */
		const refusedFor = async (ms: number) => {
			const gate = new Gate({ maxWaitMs: 5000 });
			const started = [await gate.take(), await gate.take()];
			gate.done(started[0], 429, { retryAfterMs: 1000 });
			const waiting = [watch(gate.take(undefined, true)), watch(gate.take())];
			gate.done(started[1], 429, { retryAfterMs: ms });
			return waiting;
		};
		for (const waits of await refusedFor(5000)) expect(await waits()).toBe('pending');
		const refused = await refusedFor(5001);
		for (const state of refused) {
			const error = ((await state()) as { error: LimitWaitTooLong }).error;
			expect(error).toBeInstanceOf(LimitWaitTooLong);
			expect(error).toMatchObject({ askedMs: 5001, message: 'The service asked to wait 5001 ms' });
		}
	});

	test('a hold shorter than a second ends when the service said (and its spread), not at the end of a whole slice', async () => {
		const gate = await heldGate(300, true);
		const from = Date.now();
		const next = watch(gate.take());
		await jest.advanceTimersByTimeAsync(299);
		expect(await next()).toBe('pending');
		// The spread after a wait the service named is at most a quarter of it.
		await jest.advanceTimersByTimeAsync(76);
		const { value } = (await next()) as { value: number };
		expect(value - from).toBeGreaterThanOrEqual(300);
		expect(value - from).toBeLessThanOrEqual(375);
	});

	test('however many answers come while a hold lasts, one timer waits for it; none once the queue is empty', async () => {
		const gate = new Gate({ maxWaitMs: 120_000 });
		const started = await Promise.all([1, 2, 3, 4].map(() => gate.take()));
		expect(jest.getTimerCount()).toBe(0);
		gate.done(started[0], 429, { retryAfterMs: 30_000 });
		const waiting = [watch(gate.take()), watch(gate.take())];
		for (const startedAt of started.slice(1)) gate.done(startedAt, 200);
		expect(jest.getTimerCount()).toBe(1);
		await jest.advanceTimersByTimeAsync(5000);
		expect(jest.getTimerCount()).toBe(1);
		for (const state of waiting) expect(await state()).toBe('pending');
		await jest.advanceTimersByTimeAsync(40_000);
		for (const state of waiting) expect(await state()).not.toBe('pending');
		expect(jest.getTimerCount()).toBe(0);
	});

	test('no listener is left on the signal once a request had its turn, was refused or was cancelled', async () => {
		const turn = new AbortController();
		const gate = new Gate({ maxWaitMs: 5000 });
		const first = await gate.take(turn.signal);
		expect(getEventListeners(turn.signal, 'abort')).toEqual([]);

		const refusal = new AbortController();
		const refused = watch(gate.take(refusal.signal, true));
		gate.done(first, 429, { retryAfterMs: 1000 });
		const waiting = watch(gate.take(refusal.signal));
		expect(getEventListeners(refusal.signal, 'abort')).toHaveLength(1);
		gate.done(await (refused() as Promise<{ value: number }>).then((s) => s.value), 429, {
			retryAfterMs: 60_000,
		});
		expect(await waiting()).toEqual({ error: expect.any(LimitWaitTooLong) });
		expect(getEventListeners(refusal.signal, 'abort')).toEqual([]);

		const cancel = new AbortController();
		const cancelled = watch((await heldGate()).take(cancel.signal));
		cancel.abort();
		expect(await cancelled()).toEqual({ error: expect.any(GateCancelled) });
		expect(getEventListeners(cancel.signal, 'abort')).toEqual([]);
	});
});
