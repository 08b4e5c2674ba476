/**
 * A simulated fleet for the pure pace (nodes/shared/transport/limit.ts): several paces, each
 * with its own seeded random source and at most `concurrency` requests in flight (the items'
 * bound), share one request limit (a fixed or sliding window, or a token bucket) on a
 * simulated clock. A request reaches the limit `latencyMs / 2` after it starts and is
 * answered `latencyMs` after it starts. Nothing here reads the real clock.
 */
import { Pace } from '../../nodes/shared/transport/limit';

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
 * A limit shape, as the sandbox plays them: `requests` per `perMs` in a fixed window (aligned on
 * multiples of perMs), a sliding window (the last perMs), or a token bucket (`requests` tokens
 * per perMs, at most `burst` held). `retryAfter`: 429s carry Retry-After, whole seconds to
 * the reset (the window's end, the oldest request leaving the sliding window, the next token).
 */
export interface FleetLimit {
	requests: number;
	perMs: number;
	window?: 'fixed' | 'sliding' | 'bucket';
	burst?: number;
	retryAfter: boolean;
}

export interface FleetRun {
	/** Per window of perMs: the requests each pace got through. */
	passed: number[][];
	/** Per pace: the instants its refused requests were sent again (the first start after a 429). */
	wakes: number[][];
	/** When each pace's last request was answered (ms from the start). */
	doneAt: number[];
	/** Requests sent in all, and refused in all. */
	sent: number;
	limited: number;
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

/** Whether a request arriving at `at` passes, and when the limit lets one through again. */
type Counter = (at: number) => { passes: boolean; resetAt: number };

function fixedWindow({ requests, perMs }: FleetLimit): Counter {
	const used = new Map<number, number>();
	return (at) => {
		const window = Math.floor(at / perMs);
		const count = used.get(window) ?? 0;
		if (count < requests) used.set(window, count + 1);
		return { passes: count < requests, resetAt: (window + 1) * perMs };
	};
}

function slidingWindow({ requests, perMs }: FleetLimit): Counter {
	let recent: number[] = [];
	return (at) => {
		recent = recent.filter((t) => t > at - perMs);
		const passes = recent.length < requests;
		if (passes) recent.push(at);
		return { passes, resetAt: recent[0] + perMs };
	};
}

function tokenBucket({ requests, perMs, burst = requests }: FleetLimit): Counter {
	const perToken = perMs / requests;
	let tokens = burst;
	let filledAt: number | undefined;
	return (at) => {
		tokens = Math.min(burst, tokens + (at - (filledAt ?? at)) / perToken);
		filledAt = at;
		const passes = tokens >= 1;
		if (passes) tokens -= 1;
		return { passes, resetAt: at + Math.max(0, 1 - tokens) * perToken };
	};
}

const COUNTERS = { fixed: fixedWindow, sliding: slidingWindow, bucket: tokenBucket };

/**
 * The limit: the answer to a request arriving at `at`, and its window of perMs (for the tally).
 * The limit's clock reads `startMs` more than the run's (where in a window the run starts).
 */
function limiter(limit: FleetLimit, startMs: number) {
	const counter = COUNTERS[limit.window ?? 'fixed'](limit);
	return (runAt: number): { status: number; retryAfterMs?: number; window: number } => {
		const at = runAt + startMs;
		const window = Math.floor(at / limit.perMs);
		const { passes, resetAt } = counter(at);
		if (passes) return { status: 200, window };
		const retryAfterMs = limit.retryAfter
			? Math.max(1, Math.ceil((resetAt - at) / 1000)) * 1000
			: undefined;
		return { status: 429, retryAfterMs, window };
	};
}

/**
 * The earliest `n` requests can all pass, sent the moment the limit lets them, from `startMs`
 * into a window: a window sends its count at once and again as each next one opens (a fixed
 * one opens perMs - startMs after the start); a bucket its burst, then one per token.
 */
export function earliestMs(limit: FleetLimit, n: number, startMs = 0): number {
	if (limit.window === 'bucket')
		return Math.max(0, n - (limit.burst ?? limit.requests)) * (limit.perMs / limit.requests);
	const windows = Math.ceil(n / limit.requests) - 1;
	const offset = limit.window === 'sliding' || windows === 0 ? 0 : startMs % limit.perMs;
	return windows * limit.perMs - offset;
}

interface Fleet {
	paces: Pace[];
	/** A request's time to its answer (ms). */
	latency: () => number;
	flights: Flight[];
	passedOf: number[];
	refusedLast: boolean[];
	run: FleetRun;
}

/** The answers due by `now`: the limit decides when a request arrives, the pace when it is answered. */
function answerDue(fleet: Fleet, now: number, answer: ReturnType<typeof limiter>, demand: number) {
	const { paces, run } = fleet;
	for (const f of fleet.flights.filter((f) => f.status === undefined && f.arrives <= now)) {
		const a = answer(f.arrives);
		f.status = a.status;
		f.retryAfterMs = a.retryAfterMs;
		run.passed[a.window] ??= paces.map(() => 0);
		if (a.status !== 429) run.passed[a.window][f.pace]++;
	}
	for (const f of fleet.flights.filter((f) => f.answers <= now)) {
		paces[f.pace].finish(now, f.startedAt, f.status, f.retryAfterMs);
		if (f.status === 429) {
			fleet.refusedLast[f.pace] = true;
			run.limited++;
		} else if (++fleet.passedOf[f.pace] === demand) run.doneAt[f.pace] = now;
	}
	fleet.flights = fleet.flights.filter((f) => f.answers > now);
}

/** Each pace starts what it may at `now`, up to its demand and its concurrency. */
function startDue(fleet: Fleet, now: number, options: Required<FleetOptions>) {
	fleet.paces.forEach((pace, i) => {
		let inFlight = fleet.flights.filter((f) => f.pace === i).length;
		while (
			fleet.passedOf[i] + inFlight < options.demand &&
			inFlight < options.concurrency &&
			pace.readyIn(now) === 0
		) {
			pace.start(now);
			fleet.run.sent++;
			if (fleet.refusedLast[i]) fleet.run.wakes[i].push(now);
			fleet.refusedLast[i] = false;
			const latency = fleet.latency();
			fleet.flights.push({
				pace: i,
				startedAt: now,
				arrives: now + latency / 2,
				answers: now + latency,
			});
			inFlight++;
		}
	});
}

export interface FleetOptions {
	paces: number;
	limit: FleetLimit;
	/** Requests each pace gets through. */
	demand: number;
	concurrency?: number;
	latencyMs?: number;
	/** Each request's latency drawn from 0.5 to 2.5 times latencyMs (seeded), not latencyMs. */
	jitter?: boolean;
	/** Where in the limit's window the run starts (ms; a fixed window opens anew sooner). */
	startMs?: number;
	maxMs?: number;
	seed?: number;
}

/**
 * Runs `paces` paces sharing `limit`, from `startMs` into one of its windows (its start by
 * default), until each has had `demand` requests pass (bounded by `maxMs`).
 */
export function runFleet(options: FleetOptions): FleetRun {
	const all: Required<FleetOptions> = {
		concurrency: 8,
		latencyMs: 20,
		maxMs: 30 * options.limit.perMs,
		seed: 1,
		jitter: false,
		startMs: 0,
		...options,
	};
	const draw = seeded(all.seed * 7919 + 17);
	const fleet: Fleet = {
		paces: Array.from({ length: all.paces }, (_, i) => new Pace(0, seeded(all.seed * 1000 + i))),
		latency: () => (all.jitter ? all.latencyMs * (0.5 + 2 * draw()) : all.latencyMs),
		flights: [],
		passedOf: Array.from({ length: all.paces }, () => 0),
		refusedLast: Array.from({ length: all.paces }, () => false),
		run: { passed: [], wakes: [], doneAt: [], sent: 0, limited: 0 },
	};
	fleet.run.wakes = fleet.paces.map(() => []);
	const answer = limiter(all.limit, all.startMs);
	for (let now = 0; now <= all.maxMs && fleet.passedOf.some((p) => p < all.demand); now += 5) {
		answerDue(fleet, now, answer, all.demand);
		startDue(fleet, now, all);
	}
	const { run } = fleet;
	for (let w = 0; w < run.passed.length; w++) run.passed[w] ??= fleet.paces.map(() => 0);
	return run;
}
