/**
 * The request limit as one pace has met it: "at most `count` of my requests in any `spanMs`",
 * learned from what passed and what was refused, whatever shape the service's limit has (a
 * fixed or sliding window of any length, a token bucket). Pure (the caller passes the time and
 * a random source in).
 *
 * - **An episode** runs from a reopening (the first request that passed after a refusal) to
 *   the next refusal. What passed in it (`count`), over the time from its first pass to the
 *   next reopening (`spanMs`), is what the limit allowed this pace: from then on the pace keeps
 *   to it as a sliding window of its own requests. The reopening is the one the service named
 *   (`Retry-After`, a reset), or the first probe that passed. A window that reopens whole is
 *   met by a burst of its count when it reopens; a bucket that refills token by token, by an
 *   even trickle (its requests leave the span as they came).
 * - **A share.** Paces that share the account (other processes, other executions) each learn
 *   what passed for them. One refused where it expected the limit to reopen, with nothing
 *   passed since (the others took it), halves its rate.
 * - **Probing back up.** A span kept to while requests waited for it adds one request to the
 *   count (additive increase, at most one per `GROWTH_MS`). Beyond its count a pace may also
 *   send one request at a time, as long as they pass (a share others left is taken at once);
 *   after one is refused, none for a random 1 to 2 times `GROWTH_MS` (or the span, if longer),
 *   so paces that share a full limit do not all try again together.
 */

/** What a pace keeps to: at most `count` requests started in any `spanMs`. */
export interface SpanLimit {
	count: number;
	spanMs: number;
}

/** Longest span learned, and how far back start times are kept. */
const MAX_SPAN_MS = 3_600_000;

/** Start times kept, at least (the newest `count` are the ones that matter, and always kept). */
const MAX_COUNTED = 10_000;

/** The least time between two rises of the count, and between tries beyond it after a refusal. */
export const GROWTH_MS = 10_000;

/** An episode that ended: what passed in it, and when the first of them started. */
interface Episode {
	count: number;
	firstPass: number;
}

export class LearnedLimit {
	/** What the pace keeps to; none until the limit was met. */
	private limit: SpanLimit | undefined;

	/** Start times of the requests that count against it (passed or in flight), oldest first. */
	private counted: number[] = [];

	/** When the last episode ended: requests sent before it belong to that one. */
	private endedAt = -Infinity;

	/** The episode under way: its passes, and when the first of them started. */
	private passes = 0;

	private firstPass: number | undefined;

	/** An episode that ended without a named reopening, until a probe passes. */
	private pending: Episode | undefined;

	/** Since when the limit was kept without a refusal, and whether it held requests back. */
	private keptSince: number | undefined;

	private heldBack = false;

	/** The start of the one request in flight beyond the count, if any. */
	private beyond: number | undefined;

	/** No request beyond the count before this instant (after one was refused). */
	private beyondFrom = 0;

	constructor(private readonly random: () => number = Math.random) {}

	/** What the pace keeps to now, if it met the limit. */
	get current(): SpanLimit | undefined {
		return this.limit && { ...this.limit };
	}

	/** How long until the learned limit lets one more request start (0 now). */
	readyIn(now: number): number {
		if (!this.limit) return 0;
		this.grow(now);
		const slides = this.leavesSpanAt(now) - now;
		if (slides <= 0) return 0;
		this.heldBack = true;
		if (this.beyond !== undefined) return slides;
		return Math.max(0, Math.min(slides, this.beyondFrom - now));
	}

	/** A request starts now. */
	started(now: number): void {
		if (this.limit && this.leavesSpanAt(now) > now) this.beyond = now;
		this.counted.push(now);
		// Trimmed in one go once twice the bound: a constant cost per request. The newest
		// `count` are kept, however large the count learned.
		const kept = Math.max(MAX_COUNTED, this.limit?.count ?? 0);
		if (this.counted.length > 2 * kept) this.counted.splice(0, this.counted.length - kept);
	}

	/** The request started at `startedAt` passed (answered other than 429). */
	passed(startedAt: number): void {
		if (this.beyond === startedAt) this.beyond = undefined;
		if (startedAt < this.endedAt) return;
		this.passes++;
		this.firstPass ??= startedAt;
	}

	/**
	 * The request started at `startedAt` was refused at `now` (it does not count). `episode`:
	 * it ended the episode under way (it was sent after the last refusal was known);
	 * `reopensAt`: when the service said the limit reopens, if it did; `expected`: the pace
	 * had waited for a reopening it knew of (one the service named, or its learned span).
	 */
	refused(now: number, startedAt: number, episode: boolean, reopensAt?: number, expected = false) {
		this.uncount(startedAt);
		if (this.beyond === startedAt) this.refusedBeyond(startedAt);
		if (!episode) return;
		if (this.passes > 0 && this.firstPass !== undefined) {
			const ended = { count: this.passes, firstPass: this.firstPass };
			if (reopensAt !== undefined) this.learn(ended, reopensAt);
			else this.pending = ended;
		} else if (expected) this.halve();
		this.passes = 0;
		this.firstPass = undefined;
		this.endedAt = now;
		this.keptSince = undefined;
		this.heldBack = false;
	}

	/** A probe that started at `startedAt` passed after a hold: the limit reopened. */
	reopened(startedAt: number): void {
		if (this.pending) this.learn(this.pending, startedAt);
		this.pending = undefined;
	}

	private learn(ended: Episode, reopensAt: number): void {
		const spanMs = Math.min(MAX_SPAN_MS, Math.max(1, reopensAt - ended.firstPass));
		this.limit = { count: ended.count, spanMs };
	}

	/** Half the rate: half the count, or twice the span once the count is one. */
	private halve(): void {
		if (!this.limit) return;
		if (this.limit.count >= 2) this.limit.count = Math.floor(this.limit.count / 2);
		else this.limit.spanMs = Math.min(MAX_SPAN_MS, this.limit.spanMs * 2);
	}

	/** A request beyond the count was refused: the next waits a random 1 to 2 periods. */
	private refusedBeyond(startedAt: number): void {
		this.beyond = undefined;
		const period = Math.max(this.limit?.spanMs ?? 0, GROWTH_MS);
		this.beyondFrom = startedAt + period * (1 + this.random());
	}

	/** A whole period kept to without a refusal, with requests held back by it: one more. */
	private grow(now: number): void {
		if (!this.limit) return;
		this.keptSince ??= now;
		if (now - this.keptSince < Math.max(this.limit.spanMs, GROWTH_MS)) return;
		if (this.heldBack) this.limit.count++;
		this.keptSince = now;
		this.heldBack = false;
	}

	/**
	 * When the oldest of the newest `count` start times leaves the span: the instant one more
	 * request fits (at or before `now` when one fits already).
	 */
	private leavesSpanAt(now: number): number {
		const { count, spanMs } = this.limit!;
		if (this.counted.length < count) return now;
		return this.counted[this.counted.length - count] + spanMs;
	}

	/** A refused request does not count against the limit. */
	private uncount(startedAt: number): void {
		const at = this.counted.lastIndexOf(startedAt);
		if (at >= 0) this.counted.splice(at, 1);
	}
}
