/**
 * The backoff of a pace after a 429 without `Retry-After`, shared by every request of the
 * pace: how long until a probe looks whether the limit reopened. Pure (the random source and
 * the service's clock come in). Exponential with jitter (between half and all of 1, 2, 4, …
 * up to 32 s), starting over once a probe passes. It assumes no window length; where the
 * limit reopens is learned from the probe that passed (`learnedLimit.ts`). One preference
 * costs nothing: within the hold it drew (from a quarter of its step on), a probe goes at the
 * roundest instant of the service's clock (a whole minute, 30, 15, 10, 5 s, a second), where a
 * window that counts by the clock would reopen; a limit of another shape only sees its probes
 * a little earlier within the same backoff.
 */
import type { ServiceClock } from './fleet';

/** The shared backoff of 429s without `Retry-After`. */
export const LIMIT_BACKOFF = { baseMs: 1000, maxMs: 32_000 };

/** Round instants of a clock (ms), roundest first. */
const ROUND_STEPS_MS = [60_000, 30_000, 15_000, 10_000, 5000, 1000];

export class LimitBackoff {
	private level = 0;

	constructor(private readonly random: () => number) {}

	/** Whether probes are being refused (a hold of this backoff is under way or just ended). */
	get searching(): boolean {
		return this.level > 0;
	}

	/** The hold after a 429 without `Retry-After` at `now`. */
	next(now: number, clock: ServiceClock): number {
		const ceiling = Math.min(LIMIT_BACKOFF.maxMs, LIMIT_BACKOFF.baseMs * 2 ** this.level);
		this.level++;
		const drawn = Math.round(ceiling / 2 + (ceiling / 2) * this.random());
		return roundWithin(now, clock, { from: ceiling / 4, to: drawn }) ?? drawn;
	}

	/** A probe passed: the backoff starts over. */
	passed(): void {
		this.level = 0;
	}
}

/**
 * The wait to the roundest instant of the service's clock between `from` and `to` ms from now
 * (a whole minute before a whole 30 s, …, before a whole second); none while the clock is unknown.
 */
function roundWithin(
	now: number,
	clock: ServiceClock,
	{ from, to }: { from: number; to: number },
): number | undefined {
	for (const step of ROUND_STEPS_MS) {
		let wait = clock.toNext(now, step);
		while (wait < from) wait += step;
		if (wait <= to) return wait;
	}
	return undefined;
}
