/**
 * Unit tests of the learned limit (nodes/shared/transport/learnedLimit.ts): episodes, the span
 * kept to, the share halved, probing back up. A fixed clock and a fixed random source.
 */
import { GROWTH_MS, LearnedLimit } from '../../../../nodes/shared/transport/learnedLimit';

const T = 1_000_000;

/** `n` requests started at `at` that pass. */
function pass(limit: LearnedLimit, at: number, n: number): void {
	for (let i = 0; i < n; i++) {
		limit.started(at);
		limit.passed(at);
	}
}

/** A limit that learned `count` per `spanMs` from one episode that began at T. */
function learned(count: number, spanMs: number, random = () => 0.5): LearnedLimit {
	const limit = new LearnedLimit(random);
	pass(limit, T, count);
	limit.started(T + 10);
	limit.refused(T + 20, T + 10, true, T + spanMs);
	return limit;
}

describe('an episode', () => {
	test('nothing is kept to before the limit was met', () => {
		const limit = new LearnedLimit();
		pass(limit, T, 500);
		expect(limit.current).toBeUndefined();
		expect(limit.readyIn(T)).toBe(0);
	});

	test('what passed, over the time from its first pass to the reopening the service named', () => {
		const limit = new LearnedLimit();
		pass(limit, T, 5);
		pass(limit, T + 400, 25);
		limit.started(T + 500);
		limit.refused(T + 520, T + 500, true, T + 15_000);
		expect(limit.current).toEqual({ count: 30, spanMs: 15_000 });
	});

	test('without a named reopening: learned when a probe passes, up to its start', () => {
		const limit = new LearnedLimit();
		pass(limit, T, 30);
		limit.started(T + 300);
		limit.refused(T + 320, T + 300, true);
		expect(limit.current).toBeUndefined();
		limit.reopened(T + 15_050);
		expect(limit.current).toEqual({ count: 30, spanMs: 15_050 });
	});

	test('requests sent before an episode ended count for that one, not for the next', () => {
		const limit = learned(10, 5000);
		// A straggler of the first episode passes after it ended; then 4 of the next.
		limit.passed(T + 15);
		pass(limit, T + 5000, 4);
		limit.started(T + 5100);
		limit.refused(T + 5120, T + 5100, true, T + 6000);
		expect(limit.current).toEqual({ count: 4, spanMs: 1000 });
	});

	test('a 429 to a request already on its way when the episode ended changes nothing learned', () => {
		const limit = learned(10, 5000);
		limit.started(T + 12);
		limit.refused(T + 30, T + 12, false);
		expect(limit.current).toEqual({ count: 10, spanMs: 5000 });
	});
});

describe('the span kept to', () => {
	test('at most `count` requests start in any span (and one beyond it at a time): the next when the oldest leaves it', () => {
		const limit = learned(3, 1000);
		const at = T + 2000;
		pass(limit, at, 1);
		pass(limit, at + 100, 1);
		pass(limit, at + 300, 1);
		// One beyond the count is in flight: it takes a place of the span too.
		limit.started(at + 350);
		expect(limit.readyIn(at + 400)).toBe(700);
		expect(limit.readyIn(at + 1100)).toBe(0);
		limit.started(at + 1100);
		expect(limit.readyIn(at + 1100)).toBe(200);
	});

	test('a refused request does not count against it', () => {
		const limit = learned(2, 1000);
		const at = T + 2000;
		pass(limit, at, 1);
		limit.started(at + 10);
		limit.refused(at + 20, at + 10, false);
		expect(limit.readyIn(at + 20)).toBe(0);
	});
});

describe('a share', () => {
	test('refused where a reopening was expected, with nothing passed: half the count; at one, twice the span', () => {
		const limit = learned(10, 4000);
		for (const expected of [
			{ count: 5, spanMs: 4000 },
			{ count: 2, spanMs: 4000 },
			{ count: 1, spanMs: 4000 },
			{ count: 1, spanMs: 8000 },
		]) {
			limit.started(T + 100_000);
			limit.refused(T + 100_010, T + 100_000, true, T + 101_000, true);
			expect(limit.current).toEqual(expected);
		}
	});

	test('refused with nothing passed where no reopening was expected (a probe of the backoff): nothing changes', () => {
		const limit = learned(10, 4000);
		limit.started(T + 100_000);
		limit.refused(T + 100_010, T + 100_000, true, undefined, false);
		expect(limit.current).toEqual({ count: 10, spanMs: 4000 });
	});
});

describe('probing back up', () => {
	test('beyond the count, one request at a time while they pass', () => {
		const limit = learned(2, 60_000);
		const at = T + 60_000;
		pass(limit, at, 2);
		// The count is reached: one beyond it may go, then none while it is in flight.
		expect(limit.readyIn(at)).toBe(0);
		limit.started(at);
		expect(limit.readyIn(at)).toBeGreaterThan(0);
		// It passed: the next may go at once.
		limit.passed(at);
		expect(limit.readyIn(at + 1)).toBe(0);
	});

	test('one beyond the count refused: none beyond it for 1 to 2 periods (the span, or GROWTH_MS if longer)', () => {
		for (const [random, span] of [
			[0, 1000],
			[0.5, 1000],
			[1, 30_000],
		]) {
			const limit = learned(2, span, () => random);
			const at = T + 100_000;
			pass(limit, at, 2);
			limit.started(at);
			limit.refused(at + 10, at, false);
			const period = Math.max(span, GROWTH_MS);
			// Held by the span until it frees a place, then beyond it only after the wait.
			expect(limit.readyIn(at + span + 1)).toBe(0);
			pass(limit, at + span + 1, 2);
			expect(limit.readyIn(at + span + 2)).toBe(
				Math.min(span - 1, period * (1 + random) - span - 2),
			);
		}
	});

	test('a whole period kept to with requests held back adds one to the count; without any held back, nothing', () => {
		const held = learned(5, 2000);
		held.readyIn(T + 3000);
		pass(held, T + 3000, 5);
		// The span is full (one beyond it may still go): requests are held back by it.
		expect(held.readyIn(T + 3000)).toBe(0);
		held.readyIn(T + 3000 + GROWTH_MS - 1);
		expect(held.current?.count).toBe(5);
		held.readyIn(T + 3000 + GROWTH_MS);
		expect(held.current?.count).toBe(6);

		const idle = learned(5, 2000);
		idle.readyIn(T + 3000);
		idle.readyIn(T + 3000 + GROWTH_MS);
		expect(idle.current?.count).toBe(5);
	});
});

describe('what the mutation run found unpinned', () => {
	test('one request beyond the count at a time: another request passing does not free the place of the one beyond', () => {
		const limit = learned(2, 60_000);
		const at = T + 60_000;
		limit.started(at);
		limit.started(at);
		limit.started(at + 1); // beyond the count, in flight
		limit.passed(at); // one of the two within the count answers
		expect(limit.readyIn(at + 2)).toBeGreaterThan(0);
	});

	test('a 429 to a request sent before the episode ended does not end the episode under way', () => {
		const limit = learned(10, 5000);
		pass(limit, T + 5000, 4);
		limit.started(T + 5010);
		limit.refused(T + 5020, T + 15, false);
		limit.refused(T + 5030, T + 5010, true, T + 6000);
		expect(limit.current).toEqual({ count: 4, spanMs: 1000 });
	});

	test('one more per period only while requests are held back: a period idle after a rise adds nothing', () => {
		const limit = learned(5, 2000);
		pass(limit, T + 3000, 5);
		expect(limit.readyIn(T + 3000)).toBe(0);
		limit.readyIn(T + 3000 + GROWTH_MS);
		expect(limit.current?.count).toBe(6);
		limit.readyIn(T + 3000 + 2 * GROWTH_MS);
		expect(limit.current?.count).toBe(6);
	});

	test('exactly `count` requests in the span fill it: the next waits (once none beyond may go)', () => {
		const limit = learned(2, 1000, () => 0);
		const at = T + 10_000;
		// One beyond the count refused: none beyond it for a while.
		pass(limit, at, 2);
		limit.started(at + 1);
		limit.refused(at + 2, at + 1, false);
		const later = at + 5000;
		pass(limit, later, 2);
		expect(limit.readyIn(later)).toBe(1000);
	});
});

describe('instants that meet', () => {
	test('requests that came each when a place freed, at that very instant, were not held back: no rise', () => {
		const limit = learned(3, 1000);
		expect(limit.readyIn(T + 1000)).toBe(0);
		pass(limit, T + 1000, 3);
		expect(limit.readyIn(T + 2000)).toBe(0);
		pass(limit, T + 2000, 3);
		limit.readyIn(T + 1000 + GROWTH_MS);
		expect(limit.current?.count).toBe(3);
	});

	test('after a rise, fewer start times kept than the count: one more may start at once', () => {
		const limit = learned(3, 1000);
		expect(limit.readyIn(T + 500)).toBe(0);
		expect(limit.readyIn(T + 500 + GROWTH_MS)).toBe(0);
		expect(limit.current?.count).toBe(4);
	});

	test('exactly `count` start times in the span, none beyond it allowed: the next waits for the oldest to leave', () => {
		const limit = learned(3, 1000);
		limit.started(T + 100);
		limit.refused(T + 150, T + 100, false);
		expect(limit.readyIn(T + 200)).toBe(800);
	});

	test('a request started at the instant the episode ended (Retry-After: 0) counts for the next one', () => {
		const limit = learned(5, 1000);
		pass(limit, T + 20, 3);
		limit.started(T + 30);
		limit.refused(T + 40, T + 30, true, T + 2020);
		expect(limit.current).toEqual({ count: 3, spanMs: 2000 });
	});
});

describe('a large limit', () => {
	test('a learned count above the start times kept by default (10,000) is still kept to: the 19,000 starts of its span hold the next', () => {
		const hour = 3_600_000;
		const limit = learned(19_000, hour);
		const reopened = T + hour;
		for (let i = 0; i < 19_000; i++) pass(limit, reopened + i * 100, 1);
		const now = reopened + 19_000 * 100;
		// One try beyond the count may go; then the next waits until the oldest of the newest
		// 19,000 starts (the second of the span) leaves it.
		expect(limit.readyIn(now)).toBe(0);
		limit.started(now);
		expect(limit.readyIn(now)).toBe(reopened + 100 + hour - now);
	});
});
