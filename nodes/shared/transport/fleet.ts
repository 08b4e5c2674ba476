/**
 * What lets paces that share an account without speaking to each other (other processes, other
 * executions) keep out of each other's way, using only the service's answers. Pure.
 */

/** How far past a wait the service named its hold ends: a random part, ≤ `share` of it, ≤ `maxMs`. */
export interface WakeSpread {
	share: number;
	maxMs: number;
}

/** The spread of the gates: up to a quarter of the wait, at most half a second. */
export const WAKE_SPREAD: WakeSpread = { share: 0.25, maxMs: 500 };

/** The spread of a wait of `waitMs` (a draw of `random`): 0 without a spread. */
export function spreadOf(waitMs: number, random: () => number, spread?: WakeSpread): number {
	if (!spread) return 0;
	return Math.round(random() * Math.min(spread.maxMs, Math.max(0, waitMs) * spread.share));
}

/** The service's clock, from the answers' `Date`. */
export class ServiceClock {
	/** The service's clock less ours (ms), once a `Date` was seen. */
	private offset: number | undefined;

	/**
	 * An answer's `Date` (`serverNow`) read at `now`. A whole-second `Date` stamped before the
	 * answer left is never ahead of the service's clock, so the largest offset seen is kept.
	 */
	heard(now: number, serverNow: number): void {
		this.offset = Math.max(this.offset ?? -Infinity, serverNow - now);
	}

	/** Time to the next multiple of `stepMs` on the service's clock; Infinity while unknown. */
	toNext(now: number, stepMs: number): number {
		if (this.offset === undefined) return Infinity;
		const into = (((now + this.offset) % stepMs) + stepMs) % stepMs;
		return stepMs - into;
	}
}
