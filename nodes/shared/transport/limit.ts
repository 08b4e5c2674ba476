/**
 * The request limit's pacing: one gate per execution (n8n context) and host, shared by all its
 * requests, which start in the order they asked (a retry of a refused one first). The rate is
 * the AWS SDKs' adaptive retry mode: a client-side token bucket whose rate follows CUBIC (on
 * from the first 429). Paces that share an account see only their own answers and converge on
 * fair shares, as TCP flows do. A wait the service names (`Retry-After`, a spent budget in limit
 * headers) holds every request, its end spread at random; a wait longer than the execution
 * allows refuses every waiting request at once (`LimitWaitTooLong`).
 */
import { sleep } from 'n8n-workflow';

import type { LimitReading } from './limitHeaders';

/** How long one wait the service asks for may be, unless the node says otherwise. */
export const DEFAULT_MAX_LIMIT_WAIT_MS = 120_000;

/** What the caller may wait for the limit, and what to say when the service asks more. */
export interface LimitSettings {
	maxWaitMs: number;
	/** Where the user changes it, e.g. "Options → Max Wait for Rate Limit". */
	option?: string;
	/** What to do instead, where there is no option (a trigger). */
	advice?: string;
}

/** The service asked for a wait longer than `LimitSettings.maxWaitMs`. */
export class LimitWaitTooLong extends Error {
	constructor(readonly askedMs: number) {
		super(`The service asked to wait ${askedMs} ms`);
	}
}

/** What an answer says of the limit: its Retry-After (ms) and limit headers. */
export interface LimitAnswer {
	retryAfterMs?: number;
	reading?: LimitReading;
}

/** A wait that ended because the execution was cancelled. */
export class GateCancelled extends Error {}

export interface PaceStats {
	/** 429 answers seen. */
	limited: number;
	/** Episodes: 429s to requests sent after the last 429 was seen. */
	episodes: number;
	/** Time requests were held by the limit (ms). */
	heldMs: number;
	/** The longest single wait the service asked for (ms). */
	longestAskedMs: number;
	/** Requests that went out. */
	started: number;
}

/** CUBIC's cut on a 429 (the rate becomes BETA of the rate sent at) and its scale constant. */
const BETA = 0.7;
const SCALE = 0.4;

/** The send rate is measured per half second, each half second weighing SMOOTHING. */
const RATE_BUCKET_S = 0.5;
const SMOOTHING = 0.8;

/** The least rate (requests per second), and the most as a multiple of the measured rate. */
const MIN_RATE = 0.5;
const MAX_RATE_SCALE = 2;

/** A known budget is treated as spent this long before its reset is over (clock skew). */
const RESET_MARGIN_MS = 250;

/** How far past a wait the service named its hold ends: a random part, ≤ `share` of it, ≤ `maxMs`. */
export const WAKE_SPREAD = { share: 0.25, maxMs: 500 };

/**
 * The adaptive rate: a token bucket (at most one second of tokens, at least one) whose fill
 * rate CUBIC sets from the measured send rate. Times in seconds; pure.
 */
export class AdaptiveRate {
	/** Whether the bucket paces requests: from the first 429 on. */
	enabled = false;

	/** Requests per second the bucket fills at. */
	fillRate = MIN_RATE;

	private capacity = 1;
	private tokens = 0;
	private filledAt: number | undefined;

	/** CUBIC: the rate at the last 429, the time the curve takes back to it, and when it came. */
	private lastMaxRate = 0;
	private backToMaxS = 0;
	private lastThrottleAt: number;

	/** The measured send rate, its current half second, and the answers counted in it. */
	measured = 0;
	private measuredBucket: number;
	private counted = 0;

	constructor(now: number) {
		this.lastThrottleAt = now;
		this.measuredBucket = Math.floor(now);
	}

	/** Seconds until a token is there (0 when the bucket is off or has one). */
	waitS(now: number): number {
		if (!this.enabled) return 0;
		this.refill(now);
		return this.tokens >= 1 ? 0 : (1 - this.tokens) / this.fillRate;
	}

	/** A request starts now: it takes a token when the bucket paces. */
	take(now: number): void {
		if (!this.enabled) return;
		this.refill(now);
		this.tokens -= 1;
	}

	/** An answer came at `now`: a 429 (`throttled`) cuts the rate, any other regrows it. */
	answered(now: number, throttled: boolean): void {
		const measured = this.measure(now);
		let rate: number;
		if (throttled) {
			const sentAt = this.enabled ? Math.min(measured, this.fillRate) : measured;
			this.lastMaxRate = sentAt;
			this.backToMaxS = Math.cbrt((sentAt * (1 - BETA)) / SCALE);
			this.lastThrottleAt = now;
			rate = sentAt * BETA;
			this.enabled = true;
		} else {
			rate = SCALE * (now - this.lastThrottleAt - this.backToMaxS) ** 3 + this.lastMaxRate;
		}
		this.refill(now);
		this.setRate(Math.min(rate, MAX_RATE_SCALE * measured));
	}

	private setRate(rate: number): void {
		this.fillRate = Math.max(rate, MIN_RATE);
		this.capacity = Math.max(rate, 1);
		this.tokens = Math.min(this.tokens, this.capacity);
	}

	private refill(now: number): void {
		if (this.filledAt !== undefined)
			this.tokens = Math.min(this.capacity, this.tokens + (now - this.filledAt) * this.fillRate);
		this.filledAt = Math.max(now, this.filledAt ?? now);
	}

	/** Counts one answer; the smoothed rate of the half seconds closed so far. */
	private measure(now: number): number {
		const bucket = Math.floor(now / RATE_BUCKET_S) * RATE_BUCKET_S;
		this.counted++;
		if (bucket > this.measuredBucket) {
			const current = this.counted / (bucket - this.measuredBucket);
			this.measured = current * SMOOTHING + this.measured * (1 - SMOOTHING);
			this.counted = 0;
			this.measuredBucket = bucket;
		}
		return this.measured;
	}
}

/** The time a pace held its requests: holds that overlap or follow at once count once. */
class HeldTime {
	private closed = 0;
	private from: number | undefined;
	private to = 0;

	/** A hold from `now` until `until` (a later end of the hold under way extends it). */
	extend(now: number, until: number): void {
		if (this.from !== undefined && now <= this.to) {
			this.to = Math.max(this.to, until);
			return;
		}
		if (this.from !== undefined) this.closed += this.to - this.from;
		this.from = now;
		this.to = until;
	}

	/** Time held up to `now`. */
	at(now: number): number {
		if (this.from === undefined) return this.closed;
		return this.closed + Math.max(0, Math.min(now, this.to) - this.from);
	}
}

/**
 * The pace of one execution's requests to one host: when the next may start. Pure (times in
 * ms are passed in, and the random source of the spread), so tests drive it on a fixed clock.
 */
export class Pace {
	readonly rate: AdaptiveRate;

	/** No request starts before this instant. */
	private holdUntil = 0;

	/** The wait the service asked for that set the current hold, and when that wait ends. */
	private holdAsked: number | undefined;
	private askedUntil = 0;
	private holdSpread = 0;
	private inFlight = 0;

	/** When the last 429 was seen: a 429 to a request sent before it is of the same episode. */
	private lastLimitAt = -Infinity;

	private budget: { remaining: number; resetAt: number } | undefined;

	private readonly held = new HeldTime();

	private readonly stats = { limited: 0, episodes: 0, longestAskedMs: 0, started: 0 };

	constructor(
		now: number,
		private readonly random: () => number = Math.random,
	) {
		this.rate = new AdaptiveRate(now / 1000);
	}

	/** How long until the next request may start (0: now); the wait is counted as held. */
	readyIn(now: number): number {
		if (this.budget && now >= this.budget.resetAt) this.budget = undefined;
		if (this.budget && this.budget.remaining <= 0) this.hold(now, this.budget.resetAt);
		if (now < this.holdUntil) return this.holdUntil - now;
		// Stryker disable next-line ArithmeticOperator: a float's last digit, not a millisecond
		const wait = Math.ceil(this.rate.waitS(now / 1000) * 1000 - 1e-6);
		if (wait <= 0) return 0;
		this.held.extend(now, now + wait);
		return wait;
	}

	/** While a wait the service asked for holds: what it asked and what is left (not the spread). */
	askedWait(now: number): { asked: number; left: number } | undefined {
		if (now >= this.holdUntil || this.holdAsked === undefined) return undefined;
		return { asked: this.holdAsked, left: Math.max(0, this.askedUntil - now) };
	}

	/** A request starts now. */
	start(now: number): void {
		this.inFlight++;
		this.stats.started++;
		this.rate.take(now / 1000);
		if (this.budget) this.budget.remaining--;
	}

	/**
	 * The request started at `startedAt` ended: answered (its status, the `Retry-After` it
	 * carried in ms, what its headers say of the limit), or without an answer (no status).
	 */
	finish(
		now: number,
		startedAt: number,
		status?: number,
		retryAfterMs?: number,
		reading?: LimitReading,
	): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		if (reading) this.read(now, reading);
		if (status === undefined) return;
		this.rate.answered(now / 1000, status === 429);
		if (status !== 429) return;
		this.stats.limited++;
		if (startedAt >= this.lastLimitAt) this.stats.episodes++;
		this.lastLimitAt = now;
		if (retryAfterMs === undefined) return;
		this.stats.longestAskedMs = Math.max(this.stats.longestAskedMs, retryAfterMs);
		this.hold(now, now + retryAfterMs);
	}

	/** Time held by the limit up to `now` (ms). */
	heldMs(now: number): number {
		return this.held.at(now);
	}

	report(now: number): PaceStats {
		return { ...this.stats, heldMs: this.heldMs(now) };
	}

	/** Holds every request until `until`, the service's word, and a spread drawn once per hold. */
	private hold(now: number, until: number): void {
		const spread = Math.min(WAKE_SPREAD.maxMs, (until - now) * WAKE_SPREAD.share);
		if (now >= this.holdUntil) this.holdSpread = Math.round(this.random() * spread);
		const wake = until + this.holdSpread;
		if (wake <= this.holdUntil) return;
		this.holdUntil = wake;
		this.holdAsked = until - now;
		this.askedUntil = until;
		this.held.extend(now, wake);
	}

	private read(now: number, reading: LimitReading): void {
		if (reading.remaining === undefined || reading.resetMs === undefined) return;
		// Requests still in flight may take from what is left.
		this.budget = {
			remaining: reading.remaining - this.inFlight,
			resetAt: now + reading.resetMs + RESET_MARGIN_MS,
		};
	}
}

interface Waiter {
	resolve: (startedAt: number) => void;
	reject: (error: Error) => void;
}

export class Gate {
	readonly pace = new Pace(Date.now());
	private readonly queue: Waiter[] = [];
	private sleeping = false;

	constructor(readonly settings: LimitSettings) {}

	/** Waits for this request's turn (`first`: a retry of a refused one); answers when it started. */
	async take(signal?: AbortSignal, first = false): Promise<number> {
		if (signal?.aborted) throw new GateCancelled();
		return await new Promise<number>((resolve, reject) => {
			const onAbort = () => {
				const at = this.queue.indexOf(waiter);
				if (at >= 0) this.queue.splice(at, 1);
				reject(new GateCancelled());
			};
			const waiter: Waiter = {
				resolve: (startedAt) => {
					signal?.removeEventListener('abort', onAbort);
					resolve(startedAt);
				},
				reject: (error) => {
					signal?.removeEventListener('abort', onAbort);
					reject(error);
				},
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			if (first) this.queue.unshift(waiter);
			else this.queue.push(waiter);
			this.pump();
		});
	}

	/** The request that started at `startedAt` ended; `answer`: what its answer said of the limit. */
	done(startedAt: number, status?: number, answer: LimitAnswer = {}): void {
		this.pace.finish(Date.now(), startedAt, status, answer.retryAfterMs, answer.reading);
		this.pump();
	}

	report(): PaceStats {
		return this.pace.report(Date.now());
	}

	private pump(): void {
		while (this.queue.length) {
			const now = Date.now();
			const asked = this.pace.askedWait(now);
			if (asked && asked.left > this.settings.maxWaitMs) {
				for (const waiter of this.queue.splice(0)) waiter.reject(new LimitWaitTooLong(asked.asked));
				return;
			}
			const wait = this.pace.readyIn(now);
			if (wait > 0) {
				if (this.sleeping) return;
				this.sleeping = true;
				// In slices, so a later answer or a cancellation is seen soon.
				void sleep(Math.min(wait, 1000)).then(() => {
					this.sleeping = false;
					this.pump();
				});
				return;
			}
			this.pace.start(now);
			this.queue.shift()!.resolve(now);
		}
	}
}

const gates = new WeakMap<object, Map<string, Gate>>();
const settingsOf = new WeakMap<object, LimitSettings>();

/** The gate of this execution for `host` ('api', or a file host's origin). */
export function gateFor(ctx: object, host: string): Gate {
	let byHost = gates.get(ctx);
	if (!byHost) gates.set(ctx, (byHost = new Map()));
	let gate = byHost.get(host);
	if (!gate) {
		gate = new Gate({ ...(settingsOf.get(ctx) ?? { maxWaitMs: DEFAULT_MAX_LIMIT_WAIT_MS }) });
		byHost.set(host, gate);
	}
	return gate;
}

/** Sets how long this execution's requests may wait for the limit (before its first request). */
export function limitRequestsTo(ctx: object, settings: LimitSettings): void {
	settingsOf.set(ctx, settings);
	for (const gate of gates.get(ctx)?.values() ?? []) Object.assign(gate.settings, settings);
}

/** Time this execution's API requests were held by the limit so far (ms). */
export function heldByLimit(ctx: object): number {
	return gateFor(ctx, 'api').pace.heldMs(Date.now());
}

/** What the limit did to this execution's API requests. */
export function limitReport(ctx: object): PaceStats {
	return gateFor(ctx, 'api').report();
}
