/**
 * The pace of one execution's requests to one host: when the next request may start. Pure
 * (the caller passes the time in), so unit tests drive it with a fixed clock.
 *
 * It assumes nothing of the limit's shape (a window per minute or per 10 s, a sliding window,
 * a token bucket): it learns what the service lets through.
 *
 * - **Holds.** A 429 holds every request of the execution, not just the one refused: until
 *   its `Retry-After`, or, without one, for a backoff shared by all (`backoff.ts`) that grows
 *   while 429s go on and starts over once a request passes.
 * - **Probing.** After a hold, one request goes alone; the others follow once it passes.
 * - **A learned limit** (`learnedLimit.ts`). What passed between two refusals, over the time
 *   to the next reopening, is what the limit allows this pace: it keeps to it from then on,
 *   so the requests go out at the limit's own pace (a burst where a window reopens, an even
 *   trickle where tokens refill) instead of being refused at every reopening.
 * - **Concurrency** (requests in flight) halves at each 429 episode and climbs back by one
 *   per window's worth of answers that pass (additive increase, multiplicative decrease).
 * - **Known budget.** When answers announce the limit (`X-RateLimit-*`, or the IETF
 *   `RateLimit` fields, see `parseLimitHeaders`), requests stop when the budget is spent and
 *   wait for its reset, so the limit is rarely hit at all.
 * - **A fleet.** One account is often shared by several processes (queue-mode workers, several
 *   instances) or executions, each with a pace of its own that sees only its own answers. With
 *   `WAKE_SPREAD`, the end of a hold the service named (`Retry-After`, a budget's reset) is
 *   spread by a random part of the wait, so the paces that were refused together do not all
 *   wake at the same instant; each learns its own share of the limit.
 *
 * Time spent held is counted (`heldMs`): a generation's Wait Timeout does not run while the
 * limit holds the requests that would watch it.
 */
import { LimitBackoff } from './backoff';
import type { WakeSpread } from './fleet';
import { ServiceClock, spreadOf } from './fleet';
import { HeldTime } from './heldTime';
import { LearnedLimit } from './learnedLimit';
import type { LimitReading } from './limitHeaders';

export { LIMIT_BACKOFF } from './backoff';

/**
 * Requests in flight at first, and the passes that add one more until the maximum: a limit met
 * early (a small bucket, a window shared by several processes) is met by few requests at once.
 */
const START_WINDOW = 2;
const START_STEP = 8;

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

	/** What the limit has let this pace through. */
	readonly learned: LearnedLimit;

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
		this.window = Math.min(this.max, START_WINDOW);
		this.backoff = new LimitBackoff(random);
		this.learned = new LearnedLimit(random);
	}

	/**
	 * How long until the next request may start: 0 now, a number of ms, or Infinity when only
	 * an answer to a request in flight can free a place.
	 */
	readyIn(now: number): number {
		if (this.budget && now >= this.budget.resetAt) this.budget = undefined;
		if (this.budget && this.budget.remaining <= 0) this.hold(now, this.budget.resetAt, true);
		if (now < this.holdUntil) return this.holdUntil - now;
		if (this.inFlight >= this.slots()) return Infinity;
		const kept = this.learned.readyIn(now);
		if (kept > 0) this.held.extend(now, now + kept);
		return kept;
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
		this.learned.started(now);
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
			this.limited(now, startedAt, retryAfterMs);
			return;
		}
		if (status === undefined) return;
		// Any other answer passed the limit.
		this.learned.passed(startedAt);
		// Only a request sent after the last 429 tells that the limit reopened.
		if (this.probing && startedAt >= this.lastLimitAt) {
			this.probing = false;
			this.backoff.passed();
			this.learned.reopened(startedAt);
		} else if (!this.probing && this.window < this.max) {
			const step = this.stats.episodes === 0 ? 1 / START_STEP : 1 / this.window;
			this.window = Math.min(this.max, this.window + step);
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
		return Math.max(1, Math.floor(this.window));
	}

	/**
	 * A 429 to the request started at `startedAt`. Fresh when that request was sent after the
	 * last 429 was seen: news (a new episode); otherwise it was already on its way and only its
	 * Retry-After counts.
	 */
	private limited(now: number, startedAt: number, retryAfterMs: number | undefined): void {
		const fresh = startedAt >= this.lastLimitAt;
		this.stats.limited++;
		this.lastLimitAt = now;
		if (fresh) {
			this.stats.episodes++;
			// Refused where a reopening was expected: one the service named, or the learned span's.
			const expected = this.holdAsked !== undefined || !this.backoff.searching;
			const reopensAt = retryAfterMs === undefined ? undefined : now + retryAfterMs;
			this.learned.refused(now, startedAt, true, reopensAt, expected);
			this.window = Math.max(1, Math.floor(this.window / 2));
			this.probing = true;
		} else this.learned.refused(now, startedAt, false);
		if (retryAfterMs !== undefined) {
			this.stats.longestAskedMs = Math.max(this.stats.longestAskedMs, retryAfterMs);
			this.hold(now, now + retryAfterMs, true);
		} else if (fresh) {
			this.hold(now, now + this.backoff.next(now, this.clock), false);
		}
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
