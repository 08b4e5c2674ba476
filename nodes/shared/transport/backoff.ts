/**
 * The backoff of a pace after a 429 without `Retry-After`, shared by every request of the
 * pace. Pure (the random source and the service's clock come in).
 *
 * Exponential with jitter (between half and all of 1, 2, 4, … up to 32 s), starting over once
 * a request passes, and never past the next whole minute of the service's clock (and a spread
 * after it, since every process aims there): counting windows most likely reopen there. When
 * a probe sent at that minute passed after a hold of half a minute or more (a window shorter
 * than a minute reopens sooner, and its minutes are no news), the minute is where this limit
 * reopens: the next 429 without `Retry-After` holds straight to the next one, with no probe
 * before it, until a probe at the minute is refused.
 */
import type { ServiceClock, WakeSpread } from './fleet';
import { spreadOf } from './fleet';

/** The shared backoff of 429s without `Retry-After`. */
export const LIMIT_BACKOFF = { baseMs: 1000, maxMs: 32_000 };

/** A hold this long that ended at the minute says the window is counted by the minute. */
const MINUTE_WINDOW_MS = 30_000;

export class LimitBackoff {
	private level = 0;

	/** When the first 429 of the hold under way came. */
	private since = 0;

	/** The hold under way ends at the minute. */
	private aimedAtMinute = false;

	/** A probe at the minute passed: the limit reopens there. */
	private minuteReopens = false;

	constructor(
		private readonly random: () => number,
		private readonly spread?: WakeSpread,
	) {}

	/** The hold after a 429 without `Retry-After` at `now` (ms). */
	next(now: number, clock: ServiceClock): number {
		if (this.aimedAtMinute) this.minuteReopens = false;
		if (this.level === 0) this.since = now;
		const ceiling = Math.min(LIMIT_BACKOFF.maxMs, LIMIT_BACKOFF.baseMs * 2 ** this.level);
		this.level++;
		const toMinute = clock.toMinute(now);
		const backoff =
			this.minuteReopens && toMinute < Infinity
				? Infinity
				: Math.round(ceiling / 2 + (ceiling / 2) * this.random());
		const atMinute = toMinute + spreadOf(Infinity, this.random, this.spread);
		this.aimedAtMinute = atMinute <= backoff;
		return Math.min(backoff, atMinute);
	}

	/** A probe passed at `now`: the backoff starts over; one at the minute may say where it reopens. */
	passed(now: number): void {
		this.minuteReopens =
			this.aimedAtMinute && this.level > 0 && now - this.since >= MINUTE_WINDOW_MS;
		this.level = 0;
		this.aimedAtMinute = false;
	}
}
