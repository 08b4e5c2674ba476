/**
 * A simulated fleet for the pure pace (nodes/shared/transport/pace.ts): several paces, each
 * with its own seeded random source, share one request limit of a fixed window, on a simulated
 * clock. Each pace keeps its requests coming (up to `demand` each); a request reaches the
 * limit `latencyMs / 2` after it starts and is answered `latencyMs` after it starts. Nothing
 * here reads the real clock.
 */
import { WAKE_SPREAD } from '../../../../nodes/shared/transport/fleet';
import { Pace } from '../../../../nodes/shared/transport/pace';

/** Starts as many requests as the pace lets start at `now` (at most `max`); answers how many. */
export function startAll(pace: Pace, now: number, max = 100): number {
	let started = 0;
	while (started < max && pace.readyIn(now) === 0) {
		pace.start(now);
		started++;
	}
	return started;
}

/**
 * `passed` requests answered at `now`, then one refused with a Retry-After of `retryAfterMs`:
 * the moment that wait ends.
 */
export function passThenRefuse(
	pace: Pace,
	now: number,
	passed: number,
	retryAfterMs: number,
): number {
	for (let i = 0; i < passed; i++) {
		pace.start(now);
		pace.finish(now, now, 200);
	}
	pace.start(now);
	pace.finish(now, now, 429, retryAfterMs);
	return now + retryAfterMs;
}

/** Requests started at `now` in waves, each answered 200 at once, until `count` have passed: each wave's size. */
export function wavesUntil(pace: Pace, now: number, count: number): number[] {
	const waves: number[] = [];
	for (let passed = 0; passed < count && waves.length < 10 * count; ) {
		const n = startAll(pace, now);
		waves.push(n);
		for (let i = 0; i < n; i++) pace.finish(now, now, 200);
		passed += n;
	}
	return waves;
}

export interface FleetLimit {
	requests: number;
	perMs: number;
	/** 429s carry Retry-After (whole seconds to the window's end), as the sandbox does. */
	retryAfter: boolean;
}

export interface FleetRun {
	/** Per window: the requests each pace got through. */
	passed: number[][];
	/** Per window: the requests refused (429). */
	refused: number[];
	/** Per pace: the instants its refused requests were sent again (the first start after a 429). */
	wakes: number[][];
	/** When each pace's last request was answered. */
	doneAt: number[];
}

/** A small deterministic random source (mulberry32). */
export function seeded(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

interface Flight {
	pace: number;
	startedAt: number;
	arrives: number;
	answers: number;
	status?: number;
	retryAfterMs?: number;
}

/** A fixed-window limit: the answer to a request arriving at `at`. */
function limiter(limit: FleetLimit) {
	const used = new Map<number, number>();
	return (at: number): { status: number; retryAfterMs?: number; window: number } => {
		const window = Math.floor(at / limit.perMs);
		const count = used.get(window) ?? 0;
		if (count < limit.requests) {
			used.set(window, count + 1);
			return { status: 200, window };
		}
		const resetIn = (window + 1) * limit.perMs - at;
		const retryAfterMs = limit.retryAfter
			? Math.max(1, Math.ceil(resetIn / 1000)) * 1000
			: undefined;
		return { status: 429, retryAfterMs, window };
	};
}

/** Runs `paces` paces sharing `limit` until each has had `demand` requests pass (bounded). */
export function runFleet(options: {
	paces: number;
	limit: FleetLimit;
	demand: number;
	latencyMs?: number;
	maxMs?: number;
	seed?: number;
}): FleetRun {
	const { paces: n, limit, demand, latencyMs = 20, maxMs = 30 * limit.perMs, seed = 1 } = options;
	const paces = Array.from(
		{ length: n },
		(_, i) => new Pace(8, seeded(seed * 1000 + i), WAKE_SPREAD),
	);
	const answer = limiter(limit);
	const run: FleetRun = { passed: [], refused: [], wakes: paces.map(() => []), doneAt: [] };
	const passedOf = paces.map(() => 0);
	const refusedLast = paces.map(() => false);
	let flights: Flight[] = [];
	const tick = 5;
	for (let now = 0; now <= maxMs && passedOf.some((p) => p < demand); now += tick) {
		for (const f of flights.filter((f) => f.status === undefined && f.arrives <= now)) {
			const a = answer(f.arrives);
			f.status = a.status;
			f.retryAfterMs = a.retryAfterMs;
			run.passed[a.window] ??= paces.map(() => 0);
			run.refused[a.window] ??= 0;
			if (a.status === 429) run.refused[a.window]++;
			else run.passed[a.window][f.pace]++;
		}
		for (const f of flights.filter((f) => f.answers <= now)) {
			// The answer's Date: the service's clock (the simulated one) in whole seconds.
			paces[f.pace].clock.heard(now, Math.floor(f.arrives / 1000) * 1000);
			paces[f.pace].finish(now, f.startedAt, f.status, f.retryAfterMs);
			if (f.status === 429) refusedLast[f.pace] = true;
			else if (++passedOf[f.pace] === demand) run.doneAt[f.pace] = now;
		}
		flights = flights.filter((f) => f.answers > now);
		paces.forEach((pace, i) => {
			let inFlight = flights.filter((f) => f.pace === i).length;
			while (passedOf[i] + inFlight < demand && pace.readyIn(now) === 0) {
				pace.start(now);
				if (refusedLast[i]) run.wakes[i].push(now);
				refusedLast[i] = false;
				flights.push({
					pace: i,
					startedAt: now,
					arrives: now + latencyMs / 2,
					answers: now + latencyMs,
				});
				inFlight++;
			}
		});
	}
	for (let w = 0; w < run.passed.length; w++) {
		run.passed[w] ??= paces.map(() => 0);
		run.refused[w] ??= 0;
	}
	return run;
}
