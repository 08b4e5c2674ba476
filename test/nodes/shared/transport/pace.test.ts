/** Unit tests of the pure pace (nodes/shared/transport/pace.ts): a fixed clock, a fixed random. */
import fc from 'fast-check';

import { parseLimitHeaders } from '../../../../nodes/shared/transport/limitHeaders';
import { LIMIT_BACKOFF, Pace } from '../../../../nodes/shared/transport/pace';
import { passThenRefuse, startAll, wavesUntil } from './fleetSim';

const T = 1_000_000;

/** A pace whose first 48 requests passed: its slow start is over, 8 may be in flight. */
function warmedUp(max = 8): Pace {
	const pace = new Pace(max);
	wavesUntil(pace, T - 1000, 48);
	return pace;
}

describe('concurrency', () => {
	test('2 in flight at first, one more per 8 that pass, up to the maximum: a limit met early is met by few requests at once', () => {
		const first = new Pace(8);
		expect(startAll(first, T)).toBe(2);
		expect(first.readyIn(T)).toBe(Infinity);
		const pace = new Pace(8);
		const waves = wavesUntil(pace, T + 10, 60);
		expect(waves.slice(0, 4)).toEqual([2, 2, 2, 2]);
		expect(waves.slice(4, 7)).toEqual([3, 3, 3]);
		expect(Math.max(...waves)).toBe(8);
		expect(wavesUntil(pace, T + 20, 16)).toEqual([8, 8]);
	});

	test('up to the maximum in flight once warmed up; an answer frees a place', () => {
		const pace = warmedUp();
		expect(startAll(pace, T)).toBe(8);
		expect(pace.readyIn(T)).toBe(Infinity);
		pace.finish(T + 10, T, 200);
		expect(pace.readyIn(T + 10)).toBe(0);
	});

	test('a request that got no answer frees its place and tells nothing of the limit', () => {
		const pace = new Pace(1);
		pace.start(T);
		pace.finish(T + 5, T);
		expect(pace.readyIn(T + 5)).toBe(0);
		expect(pace.report(T + 5)).toMatchObject({ limited: 0, heldMs: 0 });
	});
});

describe('a 429 with Retry-After', () => {
	test('holds every request until then, and the hold is counted', () => {
		const pace = new Pace(8);
		startAll(pace, T);
		pace.finish(T + 100, T, 429, 5000);
		expect(pace.readyIn(T + 100)).toBe(5000);
		expect(pace.readyIn(T + 3000)).toBe(2100);
		expect(pace.askedWait(T + 3000)).toEqual({ asked: 5000, left: 2100 });
		expect(pace.heldMs(T + 3000)).toBe(2900);
		expect(pace.heldMs(T + 9000)).toBe(5000);
		expect(pace.report(T + 9000)).toMatchObject({ limited: 1, episodes: 1, longestAskedMs: 5000 });
	});

	test('the 429s of requests already on their way are one episode; a longer Retry-After extends the hold', () => {
		const pace = new Pace(8);
		startAll(pace, T);
		pace.finish(T + 100, T, 429, 2000);
		pace.finish(T + 110, T, 429, 2000);
		pace.finish(T + 120, T, 429, 3000);
		expect(pace.report(T + 120)).toMatchObject({ limited: 3, episodes: 1 });
		expect(pace.readyIn(T + 120)).toBe(3000);
		// Held time is one interval, not three.
		expect(pace.heldMs(T + 10_000)).toBe(3020);
	});

	test('after the hold one request goes alone (the probe); once it passes, half the former concurrency', () => {
		const pace = warmedUp();
		startAll(pace, T);
		for (let i = 0; i < 8; i++) pace.finish(T + 100, T, 429, 1000);
		const after = T + 1100;
		expect(startAll(pace, after)).toBe(1);
		pace.finish(after + 50, after, 200);
		expect(startAll(pace, after + 50)).toBe(4);
	});

	test('concurrency climbs back by one per window of answers that pass', () => {
		const pace = new Pace(8);
		startAll(pace, T);
		for (let i = 0; i < 8; i++) pace.finish(T + 1, T, 429, 0);
		let now = T + 10;
		const inFlight: number[] = [];
		for (let round = 0; round < 40; round++) {
			const n = startAll(pace, now);
			inFlight.push(n);
			for (let i = 0; i < n; i++) pace.finish(now + 1, now, 200);
			now += 10;
		}
		expect(inFlight[0]).toBe(1); // the probe
		expect(Math.max(...inFlight)).toBe(8);
		// Monotone climb, never a jump back to 8 at once.
		expect(inFlight[2]).toBeLessThanOrEqual(5);
	});
});

describe('a 429 without Retry-After', () => {
	test('a shared backoff with jitter that grows while the probes are refused and starts over once one passes', () => {
		const pace = new Pace(8, () => 1);
		startAll(pace, T);
		pace.finish(T + 1, T, 429);
		const first = pace.readyIn(T + 1);
		expect(first).toBe(LIMIT_BACKOFF.baseMs);
		expect(pace.askedWait(T + 1)).toBeUndefined();
		// A straggler sent before the 429 does not make the backoff longer.
		pace.finish(T + 2, T, 429);
		expect(pace.readyIn(T + 2)).toBe(first - 1);
		let now = T + 1 + first;
		const holds: number[] = [first];
		for (let i = 0; i < 7; i++) {
			startAll(pace, now);
			pace.finish(now, now, 429);
			holds.push(pace.readyIn(now));
			now += holds[holds.length - 1];
		}
		expect(holds).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 32_000, 32_000]);
		startAll(pace, now);
		pace.finish(now, now, 200);
		startAll(pace, now);
		pace.finish(now + 1, now, 429);
		expect(pace.readyIn(now + 1)).toBe(1000);
	});

	test('jitter: each hold is between half and all of its step', () => {
		fc.assert(
			fc.property(fc.double({ min: 0, max: 0.999, noNaN: true }), (r) => {
				const pace = new Pace(2, () => r);
				pace.start(T);
				pace.finish(T, T, 429);
				const hold = pace.readyIn(T);
				return hold >= LIMIT_BACKOFF.baseMs / 2 && hold <= LIMIT_BACKOFF.baseMs;
			}),
		);
	});
});

describe('a learned limit', () => {
	test('what passed before a 429, over the time to the reopening it named, is kept to; beyond it, one request at a time', () => {
		const pace = new Pace(8);
		// 20 pass, then a 429 that names the reopening 1 s later.
		const now = passThenRefuse(pace, T, 20, 1000);
		expect(pace.learned.current).toEqual({ count: 20, spanMs: 1000 });
		// After the wait: the probe alone, then the others; past 20 in the span, one at a time.
		const waves = wavesUntil(pace, now, 30);
		expect(waves[0]).toBe(1);
		let before = 0;
		for (const wave of waves) {
			if (before >= 20) expect(wave).toBe(1);
			before += wave;
		}
		// One beyond the count refused (no Retry-After): the pace holds, a second at most here.
		expect(startAll(pace, now, 1)).toBe(1);
		pace.finish(now + 5, now, 429);
		const held = pace.readyIn(now + 5);
		expect(held).toBeGreaterThan(0);
		expect(held).toBeLessThanOrEqual(1000);
	});
});

describe('an announced budget', () => {
	test('requests stop when it is spent and go on at its reset, without a 429', () => {
		const pace = warmedUp();
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
		const pace = new Pace(8);
		startAll(pace, T);
		pace.finish(T + 10, T, 200, undefined, { remaining: 8, resetMs: 5000 });
		// 7 in flight may take 7 of the 8: one more may start.
		expect(startAll(pace, T + 10)).toBe(1);
	});
});

describe('parseLimitHeaders', () => {
	const from = (headers: Record<string, string>) => (name: string) => headers[name];

	test('X-RateLimit-*: reset as a unix time, read against the answer’s own clock', () => {
		const now = Date.UTC(2026, 10, 24, 12, 0, 10);
		expect(
			parseLimitHeaders(
				from({
					'x-ratelimit-limit': '100',
					'x-ratelimit-remaining': '42',
					'x-ratelimit-reset': String(Date.UTC(2026, 10, 24, 12, 1, 0) / 1000),
				}),
				now,
			),
		).toEqual({ limit: 100, remaining: 42, resetMs: 50_000 });
	});

	test('X-RateLimit-Reset as seconds from now', () => {
		expect(
			parseLimitHeaders(from({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '12' }), T),
		).toEqual({ remaining: 0, resetMs: 12_000 });
	});

	test('IETF drafts: separate fields, the combined field, and the structured one with a policy', () => {
		expect(
			parseLimitHeaders(
				from({ 'ratelimit-limit': '10', 'ratelimit-remaining': '4', 'ratelimit-reset': '7' }),
				T,
			),
		).toEqual({ limit: 10, remaining: 4, resetMs: 7000 });
		expect(parseLimitHeaders(from({ ratelimit: 'limit=10, remaining=4, reset=7' }), T)).toEqual({
			limit: 10,
			remaining: 4,
			resetMs: 7000,
		});
		expect(
			parseLimitHeaders(
				from({ ratelimit: '"default";r=4;t=7', 'ratelimit-policy': '"default";q=10;w=60' }),
				T,
			),
		).toEqual({ limit: 10, remaining: 4, resetMs: 7000 });
	});

	test('several policies in one field: the tightest counts', () => {
		expect(
			parseLimitHeaders(from({ ratelimit: '"hour";r=400;t=3000, "minute";r=3;t=20' }), T),
		).toEqual({ remaining: 3, resetMs: 20_000 });
	});

	test('none, or junk: nothing', () => {
		expect(parseLimitHeaders(from({}), T)).toBeUndefined();
		expect(parseLimitHeaders(from({ 'x-ratelimit-remaining': 'lots' }), T)).toBeUndefined();
	});
});

describe('what the mutation run found unpinned', () => {
	/** 8 in flight on a warmed-up pace; the first refused at T + 100 with a Retry-After of `retryAfterMs`. */
	function oneRefused(retryAfterMs: number): Pace {
		const pace = warmedUp();
		startAll(pace, T);
		pace.finish(T + 100, T, 429, retryAfterMs);
		return pace;
	}

	test('two holds apart are both counted, the time between them not', () => {
		const pace = new Pace(8);
		pace.start(T);
		pace.finish(T, T, 429, 1000);
		pace.start(T + 5000);
		pace.finish(T + 5000, T + 5000, 429, 1000);
		expect(pace.heldMs(T + 10_000)).toBe(2000);
	});

	test('a later 429 naming an earlier end does not shorten the hold, nor change the wait asked', () => {
		const pace = oneRefused(3000);
		pace.finish(T + 200, T, 429, 1000);
		expect(pace.readyIn(T + 1500)).toBe(1600);
		pace.finish(T + 1100, T, 429, 2000);
		expect(pace.askedWait(T + 1500)).toEqual({ asked: 3000, left: 1600 });
	});

	test('the wait asked is over at the instant the hold ends', () => {
		const pace = oneRefused(1000);
		expect(pace.askedWait(T + 1099)).toEqual({ asked: 1000, left: 1 });
		expect(pace.askedWait(T + 1100)).toBeUndefined();
		expect(pace.askedWait(T + 5000)).toBeUndefined();
	});

	test('the requests that went out are counted', () => {
		const pace = new Pace(8);
		expect(startAll(pace, T)).toBe(2);
		expect(pace.report(T).started).toBe(2);
	});

	test('after a 429, the requests sent before it that pass neither end the probing nor raise the concurrency', () => {
		const pace = oneRefused(1000);
		for (let i = 0; i < 7; i++) pace.finish(T + 150, T, 200);
		const after = T + 1100;
		expect(startAll(pace, after)).toBe(1);
		pace.finish(after + 50, after, 200);
		expect(startAll(pace, after + 50)).toBe(4);
	});

	test('the probe that got no answer tells nothing: the probing goes on', () => {
		const pace = oneRefused(1000);
		for (let i = 0; i < 7; i++) pace.finish(T + 150, T, 429, 1000);
		const after = T + 1150;
		expect(startAll(pace, after)).toBe(1);
		pace.finish(after + 50, after);
		expect(startAll(pace, after + 50)).toBe(1);
	});

	test('Retry-After: 0: a request sent at the instant of the 429 is news, refused or passed', () => {
		/** A warmed-up pace whose one request in flight was refused at T with a Retry-After of 0. */
		const refusedAtOnce = () => {
			const pace = warmedUp();
			pace.start(T - 100);
			pace.finish(T, T - 100, 429, 0);
			return pace;
		};
		const refused = refusedAtOnce();
		expect(startAll(refused, T)).toBe(1);
		refused.finish(T + 10, T, 429);
		expect(refused.report(T + 10)).toMatchObject({ limited: 2, episodes: 2 });
		expect(refused.readyIn(T + 10)).toBeGreaterThan(0);

		const passed = refusedAtOnce();
		expect(startAll(passed, T)).toBe(1);
		passed.finish(T + 10, T, 200);
		expect(startAll(passed, T + 10)).toBe(4);
	});

	test('a budget spent, read again only after its reset: nothing held then, and later holds counted right', () => {
		const pace = new Pace(8);
		pace.start(T);
		pace.finish(T + 10, T, 200, undefined, { remaining: 0, resetMs: 1000 });
		expect(pace.readyIn(T + 5000)).toBe(0);
		pace.start(T + 6000);
		pace.finish(T + 6000, T + 6000, 429, 1000);
		expect(pace.heldMs(T + 10_000)).toBe(1000);
	});

	test('a budget read while requests are in flight: what they may take leaves none to start', () => {
		const pace = warmedUp();
		startAll(pace, T);
		pace.finish(T + 10, T, 200, undefined, { remaining: 3, resetMs: 2000 });
		expect(startAll(pace, T + 10)).toBe(0);
		expect(pace.readyIn(T + 10)).toBeGreaterThanOrEqual(2000);
	});

	test('the time a learned limit keeps requests back is counted as held', () => {
		const pace = new Pace(8);
		const now = passThenRefuse(pace, T, 20, 1000);
		wavesUntil(pace, now, 20);
		// One beyond the count is in flight: the next waits for the span to free a place.
		expect(startAll(pace, now, 1)).toBe(1);
		const before = pace.heldMs(now);
		const kept = pace.readyIn(now);
		expect(kept).toBeGreaterThan(0);
		expect(pace.heldMs(now + kept) - before).toBe(kept);
		expect(pace.heldMs(now + kept + 5000) - before).toBe(kept);
	});

	test('refused at once after a wait the service named, while the backoff searches: half the share', () => {
		const pace = new Pace(8, () => 1);
		const reopen = passThenRefuse(pace, T, 20, 1000);
		expect(startAll(pace, reopen)).toBe(1);
		pace.finish(reopen + 10, reopen, 200);
		expect(startAll(pace, reopen + 10)).toBe(2);
		// One refused without Retry-After (the backoff searches), the other, already on its way, with one.
		pace.finish(reopen + 20, reopen + 10, 429);
		pace.finish(reopen + 30, reopen + 10, 429, 5000);
		const after = reopen + 30 + 5000;
		expect(startAll(pace, after)).toBe(1);
		pace.finish(after + 10, after, 429, 1000);
		expect(pace.learned.current).toEqual({ count: 10, spanMs: 1000 });
	});

	test('refused at once after the backoff found the limit open (its hold over, nothing passed since): half the share', () => {
		const pace = new Pace(8, () => 1);
		pace.start(T);
		pace.finish(T, T, 429);
		const open = T + LIMIT_BACKOFF.baseMs;
		expect(startAll(pace, open)).toBe(1);
		pace.finish(open, open, 200);
		// Refused at the same instant with Retry-After: 0: one passed in no time, and no hold is set
		// (it would end when the backoff's did), so the wait asked is none and the backoff no longer searches.
		expect(startAll(pace, open)).toBe(1);
		pace.finish(open, open, 429, 0);
		expect(pace.learned.current).toEqual({ count: 1, spanMs: 1 });
		expect(startAll(pace, open)).toBe(1);
		pace.finish(open + 1, open, 429);
		expect(pace.learned.current).toEqual({ count: 1, spanMs: 2 });
	});
});

describe('the backoff probes at a round instant of the service clock', () => {
	const MINUTE = 60_000;

	/** A pace refused at T without Retry-After, the service clock at `serverNow` then: its hold. */
	function holdAt(serverNow: number): number {
		const pace = new Pace(8, () => 1);
		pace.clock.heard(T, serverNow);
		pace.start(T);
		pace.finish(T, T, 429);
		return pace.readyIn(T);
	}

	test('a whole second exactly a quarter of the step away is taken', () => {
		// 750 ms into a second: the next whole second is 250 ms away, a quarter of 1 s.
		expect(holdAt(100 * MINUTE + 30_750)).toBe(250);
	});

	test('a round instant exactly at the end of the drawn hold is taken before a less round one', () => {
		const pace = new Pace(8, () => 0.5);
		pace.start(T);
		pace.finish(T, T, 429);
		let now = T + pace.readyIn(T);
		pace.start(now);
		pace.finish(now, now, 429);
		now += pace.readyIn(now);
		// The third step: 4 s, drawn 3 s. The service clock 2 s past a whole minute: a whole 5 s in 3 s.
		pace.clock.heard(now, 100 * MINUTE + 2000);
		pace.start(now);
		pace.finish(now, now, 429);
		expect(pace.readyIn(now)).toBe(3000);
	});
});
