/**
 * Unit tests of the pure pace as one of a fleet (nodes/shared/transport/pace.ts, fleet.ts,
 * backoff.ts): several paces share one account and see only their own answers. A fixed clock,
 * seeded random sources; the fleet itself is simulated by `fleetSim.ts`.
 */
import { LIMIT_BACKOFF } from '../../../../nodes/shared/transport/backoff';
import { ServiceClock, WAKE_SPREAD, spreadOf } from '../../../../nodes/shared/transport/fleet';
import { Pace } from '../../../../nodes/shared/transport/pace';
import { passThenRefuse, runFleet, seeded, startAll, wavesUntil } from './fleetSim';

const T = 60_000 * 1_000_000; // a whole minute of the service's clock
const MINUTE = 60_000;

/** `n` paces of the gates' kind, each with a random source of its own. */
function fleet(n: number): Pace[] {
	return Array.from({ length: n }, (_, i) => new Pace(8, seeded(i + 1), WAKE_SPREAD));
}

describe('the spread of a wake', () => {
	test('paces refused together with the same Retry-After wake at different instants, after it and within its spread', () => {
		const paces = fleet(4);
		for (const pace of paces) {
			startAll(pace, T);
			for (let i = 0; i < 8; i++) pace.finish(T + 10, T, 429, 4000);
		}
		const wakes = paces.map((pace) => T + 10 + pace.readyIn(T + 10));
		expect(new Set(wakes).size).toBe(4);
		for (const wake of wakes) {
			expect(wake).toBeGreaterThanOrEqual(T + 10 + 4000);
			expect(wake).toBeLessThanOrEqual(T + 10 + 4000 + 500);
		}
	});

	test('one draw per hold: the 429s of requests already on their way do not push the wake further', () => {
		const pace = new Pace(8, () => 0.5, WAKE_SPREAD);
		startAll(pace, T);
		pace.finish(T + 10, T, 429, 4000);
		const first = pace.readyIn(T + 10);
		expect(first).toBe(4000 + 250);
		for (let i = 0; i < 7; i++) pace.finish(T + 10, T, 429, 4000);
		expect(pace.readyIn(T + 10)).toBe(first);
	});

	test("the cap of a wait (Max Wait for Rate Limit) sees the service's own wait, not the spread", () => {
		const pace = new Pace(8, () => 0.99, WAKE_SPREAD);
		pace.start(T);
		pace.finish(T, T, 429, 120_000);
		expect(pace.askedWait(T)).toEqual({ asked: 120_000, left: 120_000 });
		expect(pace.readyIn(T)).toBe(120_000 + 495);
		// In the spread after the wait, nothing is left of what the service asked.
		expect(pace.askedWait(T + 120_200)).toEqual({ asked: 120_000, left: 0 });
		expect(pace.readyIn(T + 120_495)).toBe(0);
	});

	test('paces that read the same announced reset go on at different instants, none before it', () => {
		const paces = fleet(3);
		const wakes = paces.map((pace) => {
			pace.start(T);
			pace.finish(T + 10, T, 200, undefined, { limit: 10, remaining: 0, resetMs: 2000 });
			return T + 10 + pace.readyIn(T + 10);
		});
		expect(new Set(wakes).size).toBe(3);
		for (const wake of wakes) expect(wake).toBeGreaterThanOrEqual(T + 10 + 2000);
	});

	test('the spread is a part of the wait: at most a quarter of it and half a second; none without one', () => {
		expect(spreadOf(400, () => 1, WAKE_SPREAD)).toBe(100);
		expect(spreadOf(60_000, () => 1, WAKE_SPREAD)).toBe(500);
		expect(spreadOf(60_000, () => 0, WAKE_SPREAD)).toBe(0);
		expect(spreadOf(60_000, () => 1)).toBe(0);
	});
});

describe('a 429 without Retry-After, and the service clock', () => {
	test('a backoff never waits past the next whole minute of the service clock (and its spread)', () => {
		const pace = new Pace(8, () => 1, WAKE_SPREAD);
		// The service's clock (its Date) is 2 s ahead of ours.
		pace.clock.heard(T - 2000, T);
		let now = T - 2000 + 1;
		const holds: number[] = [];
		for (let i = 0; i < 8; i++) {
			startAll(pace, now);
			pace.finish(now, now, 429);
			holds.push(pace.readyIn(now));
			now += holds[holds.length - 1];
		}
		// 1, 2, 4, 8, 16, 32 s; the next 32 s would pass the minute: it ends 0.5 s (the spread) after it.
		expect(holds.slice(0, 5)).toEqual([1000, 2000, 4000, 8000, 16_000]);
		expect((now + 2000 - 500) % MINUTE).toBe(0);
		expect(Math.max(...holds)).toBeLessThanOrEqual(LIMIT_BACKOFF.maxMs);
	});

	/** Refused at `now`, then each probe refused until the hold ends at the minute: its end. */
	function refusedUntilTheMinute(pace: Pace, from: number): number {
		let now = from;
		for (let i = 0; i < 10 && (now - T) % MINUTE !== 0; i++) {
			startAll(pace, now);
			pace.finish(now, now, 429);
			now += pace.readyIn(now);
		}
		return now;
	}

	/**
	 * A pace refused `intoMinute` ms into a minute of the service's clock and held until the
	 * minute, whose probe there passed: the pace, and that minute.
	 */
	function probePassedAtTheMinute(intoMinute: number): { pace: Pace; minute: number } {
		const pace = new Pace(8, () => 0, WAKE_SPREAD);
		pace.clock.heard(T, T);
		const minute = refusedUntilTheMinute(pace, T + intoMinute);
		expect(minute).toBe(T + MINUTE);
		startAll(pace, minute);
		pace.finish(minute + 5, minute, 200);
		return { pace, minute };
	}

	test('once a probe at the minute passed after a long hold, the next 429 without Retry-After holds straight to the next minute; a refusal there ends that', () => {
		// Refused 20 s into a minute: backoffs of 0.5, 1, 2, 4, 8, 16 s, then the minute.
		const { pace } = probePassedAtTheMinute(20_000);
		let now: number;
		// Refused again 3 s into the next minute: straight to the one after, no probe before.
		now = T + 2 * MINUTE + 3000;
		startAll(pace, now);
		pace.finish(now, now, 429);
		expect(pace.readyIn(now)).toBe(57_000);
		// That probe refused: back to the backoff, at its second step (half of 2 s here).
		now += 57_000;
		startAll(pace, now);
		pace.finish(now, now, 429);
		expect(pace.readyIn(now)).toBe(1000);
	});

	test('a window shorter than a minute: a probe that passed at the minute after a short hold changes nothing', () => {
		// Refused 59 s into a minute: 0.5 s, then the minute (1 s would pass it).
		const { pace } = probePassedAtTheMinute(59_000);
		const now = T + MINUTE + 10_000;
		startAll(pace, now);
		pace.finish(now, now, 429);
		expect(pace.readyIn(now)).toBe(500);
	});

	test('the service clock: whole-second Dates never put it ahead of the service', () => {
		const clock = new ServiceClock();
		expect(clock.toMinute(T)).toBe(Infinity);
		clock.heard(T + 700, T); // Date said :00 when our clock read +700
		clock.heard(T + 1200, T + 1000);
		// The largest offset seen (-200 ms): the minute is taken 200 ms later than ours.
		expect(clock.toMinute(T + 1200)).toBe(MINUTE - 1000);
	});
});

describe('the learned share', () => {
	test('refused right after a wait the service named, with nothing passed since: the learned count halves', () => {
		const pace = new Pace(8, () => 0, WAKE_SPREAD);
		// 40 pass, then a 429: 40 learned.
		let now = passThenRefuse(pace, T, 40, 1000);
		// The probe after the wait is refused at once: the others took the window.
		startAll(pace, now);
		pace.finish(now, now, 429, 1000);
		now += 1000;
		const waves = wavesUntil(pace, now, 40);
		// One at a time from about 20 (half of 40) on, not only near 40.
		const passedBefore = waves.map((_, i) => waves.slice(0, i).reduce((sum, n) => sum + n, 0));
		const aloneFrom = waves.findIndex((_, i) => waves.slice(i).every((n) => n === 1));
		expect(passedBefore[aloneFrom]).toBeLessThanOrEqual(24);
	});
});

describe('a simulated fleet (4 paces, 120 requests a minute, 200 ms a request)', () => {
	test.each([true, false])(
		'Retry-After %s: after the first window the shares settle; the limit is used whole, each pace gets about its quarter, few refusals',
		(retryAfter) => {
			for (const seed of [1, 2, 3]) {
				const run = runFleet({
					paces: 4,
					limit: { requests: 120, perMs: MINUTE, retryAfter },
					demand: 600,
					latencyMs: 200,
					seed,
				});
				const settled = run.passed.slice(2, 18);
				expect(settled).toHaveLength(16);
				for (const window of settled) {
					expect(window.reduce((sum, n) => sum + n, 0)).toBe(120);
					for (const share of window) {
						expect(share).toBeGreaterThanOrEqual(18);
						expect(share).toBeLessThanOrEqual(40);
					}
				}
				// The first window found the limit with every pace's requests in flight; later
				// windows meet it with about one request each.
				expect(run.refused[0]).toBeGreaterThanOrEqual(24);
				for (const refused of run.refused.slice(2)) expect(refused).toBeLessThanOrEqual(8);
			}
		},
	);

	test('after a shared refusal, no two paces wake at the same instant', () => {
		for (const retryAfter of [true, false]) {
			const run = runFleet({
				paces: 4,
				limit: { requests: 120, perMs: MINUTE, retryAfter },
				demand: 60,
				latencyMs: 200,
			});
			const firstWakes = run.wakes.map((wakes) => wakes[0]);
			expect(firstWakes.every((at) => at !== undefined)).toBe(true);
			expect(new Set(firstWakes).size).toBe(4);
		}
	});

	test('one pace alone uses every window whole, with at most one refusal at the edge of each after the first', () => {
		const alone = runFleet({
			paces: 1,
			limit: { requests: 120, perMs: MINUTE, retryAfter: true },
			demand: 600,
			latencyMs: 200,
		});
		expect(alone.passed.slice(0, 5).map(([n]) => n)).toEqual([120, 120, 120, 120, 120]);
		for (const refused of alone.refused.slice(1)) expect(refused).toBeLessThanOrEqual(1);
	});
});
