/**
 * The pace of one execution's requests to one host: when the next request may start. Pure
 * (the caller passes the time in), so unit tests drive it with a fixed clock.
 *
 * - **Holds.** A 429 holds every request of the execution, not just the one refused: until
 *   its `Retry-After`, or, without one, for a backoff shared by all (`backoff.ts`:
 *   exponential, with jitter, never past the next whole minute of the service's clock) that
 *   grows while 429s go on and starts over once a request passes.
 * - **Probing.** After a hold, one request goes alone; the others follow once it passes.
 * - **Concurrency** (requests in flight) halves at each 429 episode and climbs back by one
 *   per window's worth of answers that pass (additive increase, multiplicative decrease).
 * - **Known budget.** When answers announce the limit (`X-RateLimit-*`, or the IETF
 *   `RateLimit` fields, see `parseLimitHeaders`), requests stop when the budget is spent and
 *   wait for its reset, so the limit is rarely hit at all.
 * - **Learned budget.** Without such headers, the number of requests that passed between
 *   two 429 episodes is remembered; near that number the next window's requests go one at a
 *   time, so the edge of the window is found by one request, not by a whole wave.
 * - **A fleet.** One account is often shared by several processes (queue-mode workers, several
 *   instances) or executions, each with a pace of its own that sees only its own answers. With
 *   `WAKE_SPREAD`, the end of a hold the service named (`Retry-After`, a budget's reset) is
 *   spread by a random part of the wait, so the paces that were refused together do not all
 *   wake at the same instant. A refusal right after such a hold (nothing passed since: the
 *   others took the window) halves the learned count, so each pace settles on its share.
 *
 * Time spent held is counted (`heldMs`): a generation's Wait Timeout does not run while the
 * limit holds the requests that would watch it.
 */
import { LimitBackoff } from './backoff';
import type { WakeSpread } from './fleet';
import { ServiceClock, spreadOf } from './fleet';
import { HeldTime } from './heldTime';
import type { LimitReading } from './limitHeaders';

export { LIMIT_BACKOFF } from './backoff';

/** A known budget is treated as spent this long before its reset is over (clock skew). */
const RESET_MARGIN_MS = 250;

export interface PaceStats {
	/** 429 answers seen. */
	limited: number;
	/** Episodes: 429s that started a hold (the ones during a hold are one episode). */
	episodes: number;
	/** Time requests were held by the limit (ms). */
	heldMs: number;
	/** The longest single wait the service asked for (ms). */
	longestAskedMs: number;
	/** Requests that went out. */
	started: number;
}

export class Pace {
	private readonly max: number;

	/** No request starts before this instant. */
	private holdUntil = 0;

	/** The wait the service asked for that set the current hold (Retry-After, a spent budget). */
	private holdAsked: number | undefined;

	/** When that wait ends; the hold ends later by `holdSpread`. */
	private askedUntil = 0;

	/** The spread of the current hold, drawn once per hold. */
	private holdSpread: number | undefined;

	private window: number;

	private inFlight = 0;

	private probing = false;

	private readonly backoff: LimitBackoff;

	/** When the last 429 was seen: a 429 to a request sent before it tells nothing new. */
	private lastLimitAt = -Infinity;

	private budget: { remaining: number; resetAt: number } | undefined;

	/** The service's clock, from the answers' `Date`. */
	readonly clock = new ServiceClock();

	/** Requests that passed since the last 429 episode, and the count learned between two. */
	private passedSinceHold = 0;

	private learned: number | undefined;

	private readonly held = new HeldTime();

	private readonly stats: Omit<PaceStats, 'heldMs'> = {
		limited: 0,
		episodes: 0,
		longestAskedMs: 0,
		started: 0,
	};

	/** `spread`: how the end of a hold the service named is spread (none unless given). */
	constructor(
		maxConcurrency: number,
		private readonly random: () => number = Math.random,
		private readonly spread?: WakeSpread,
	) {
		this.max = Math.max(1, Math.floor(maxConcurrency));
		this.window = this.max;
		this.backoff = new LimitBackoff(random, spread);
	}

	/**
	 * How long until the next request may start: 0 now, a number of ms, or Infinity when only
	 * an answer to a request in flight can free a place.
	 */
	readyIn(now: number): number {
		if (this.budget && now >= this.budget.resetAt) this.budget = undefined;
		if (this.budget && this.budget.remaining <= 0) this.hold(now, this.budget.resetAt, true);
		if (now < this.holdUntil) return this.holdUntil - now;
		return this.inFlight < this.slots() ? 0 : Infinity;
	}

	/**
	 * When the current hold is a wait the service itself asked for: what it asked (ms) and what
	 * is left of it (the spread after it not counted).
	 */
	askedWait(now: number): { asked: number; left: number } | undefined {
		if (now >= this.holdUntil || this.holdAsked === undefined) return undefined;
		return { asked: this.holdAsked, left: Math.max(0, this.askedUntil - now) };
	}

	/** A request starts now. */
	start(now: number): void {
		this.inFlight++;
		this.stats.started++;
		if (this.budget && now < this.budget.resetAt) this.budget.remaining--;
	}

	/**
	 * A request that started at `startedAt` ended: answered (its status, the `Retry-After` it
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
		if (status === 429) {
			this.limited(now, startedAt >= this.lastLimitAt, retryAfterMs);
			return;
		}
		if (status === undefined) return;
		// Any other answer passed the limit.
		this.passedSinceHold++;
		if (this.learned !== undefined && this.passedSinceHold > 2 * this.learned)
			this.learned = undefined;
		if (this.probing) {
			this.probing = false;
			this.backoff.passed(now);
		} else if (this.window < this.max) {
			this.window = Math.min(this.max, this.window + 1 / this.window);
		}
	}

	/** Time held by the limit up to `now` (ms). */
	heldMs(now: number): number {
		return this.held.at(now);
	}

	report(now: number): PaceStats {
		return { ...this.stats, heldMs: this.heldMs(now) };
	}

	/** Places for requests in flight now. */
	private slots(): number {
		if (this.probing) return 1;
		// Near the count that passed last time, go one at a time to find the edge.
		if (this.learned !== undefined && this.passedSinceHold + this.window >= this.learned) return 1;
		return Math.max(1, Math.floor(this.window));
	}

	/**
	 * A 429. `fresh`: the request was sent after the last 429 was seen, so this is news (a new
	 * episode); otherwise it was already on its way and only its Retry-After counts.
	 */
	private limited(now: number, fresh: boolean, retryAfterMs: number | undefined): void {
		this.stats.limited++;
		this.lastLimitAt = now;
		if (fresh) {
			this.stats.episodes++;
			this.learn();
			this.passedSinceHold = 0;
			this.window = Math.max(1, Math.floor(this.window / 2));
			this.probing = true;
		}
		if (retryAfterMs !== undefined) {
			this.stats.longestAskedMs = Math.max(this.stats.longestAskedMs, retryAfterMs);
			this.hold(now, now + retryAfterMs, true);
		} else if (fresh) {
			this.hold(now, now + this.backoff.next(now, this.clock), false);
		}
	}

	/**
	 * The count that passed since the last episode is what the limit left this pace. Refused
	 * right after a wait the service named, with nothing passed since (others took the window,
	 * or woke with us): half the count learned before (multiplicative decrease; what passes
	 * later raises it again).
	 */
	private learn(): void {
		if (this.passedSinceHold > 0) this.learned = this.passedSinceHold;
		else if (this.learned !== undefined && this.holdAsked !== undefined)
			this.learned = Math.max(1, Math.floor(this.learned / 2));
	}

	/** Holds every request until `until` (and its spread); `asked`: the service said so. */
	private hold(now: number, until: number, asked: boolean): void {
		const wake = until + (asked ? this.spreadFor(now, until) : 0);
		if (wake <= this.holdUntil) return;
		this.holdUntil = wake;
		this.holdAsked = asked ? until - now : undefined;
		if (asked) this.askedUntil = until;
		else this.holdSpread = undefined;
		this.held.extend(now, wake);
	}

	/** The spread of a hold the service named: drawn when the hold starts, kept while it lasts. */
	private spreadFor(now: number, until: number): number {
		if (now < this.holdUntil && this.holdSpread !== undefined) return this.holdSpread;
		this.holdSpread = spreadOf(until - now, this.random, this.spread);
		return this.holdSpread;
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
