/**
 * Pure pieces of the engine's timing: the polling schedule, the list window, stale views, and
 * how far the host's clock may be from the service's.
 */
import { timeOf } from '../../shared/helpers/dates';

/**
 * How far the host's clock may be from the service's, wherever the service's is not known
 * (looking for a document a create may have made, or for cards changed during a pass).
 */
export const CLOCK_SKEW_MS = 120_000;

/** Most templates named in one list request: more would make the URL long. */
const MAX_TEMPLATE_FILTER = 20;

/** Quick looks (`pollDelay`) after the first, while typical generations end. */
const QUICK_LOOKS = 4;

/**
 * Delay before poll number `round` (0-based): a first look after about a second (typical
 * generations take one to a few seconds), then growing by half each time up to 10 s:
 * 1 s, 1 s, 1.5 s, 2.25 s, 3.4 s, … (looks at about 1, 2, 3.5, 5.75, 9.1 s). `quick` (the
 * service has not limited this execution's requests) adds four looks a quarter second apart
 * after the first, where most generations end (looks at 1, 1.25, 1.5, 1.75, 2 s, then 3, 4.5,
 * 6.75 s, …): each look is one list request for up to 100 documents (24 where the service
 * ignores the size asked for), cheap when requests are.
 */
export function pollDelay(round: number, quick = false): number {
	if (quick && round > 0 && round <= QUICK_LOOKS) return 250;
	const slow = quick ? Math.max(0, round - QUICK_LOOKS) : round;
	return Math.min(10_000, Math.round(1000 * 1.5 ** Math.max(0, slow - 1)));
}

/**
 * The `q[updated_since]` bound (unix seconds) that covers documents last written at the
 * given service timestamps: the earliest of them, one second early, because the bound is
 * whole seconds and may be exclusive. Based on the service's own clock, never the host's.
 */
export function updatedSinceFor(timestamps: Array<unknown>, fallbackMs: number): number {
	let earliest = Infinity;
	for (const value of timestamps) {
		const ms = timeOf(value);
		if (ms !== undefined && ms < earliest) earliest = ms;
	}
	if (!Number.isFinite(earliest)) earliest = fallbackMs;
	return Math.floor(earliest / 1000) - 1;
}

/**
 * Whether a finished view of a document may be trusted as the outcome of a write made at
 * `writtenAt`: a view older than the write (a lagging list still showing the previous
 * generation) is not. Unknown times are trusted.
 */
export function isAfterWrite(viewUpdatedAt: unknown, writtenAt: number): boolean {
	const seen = timeOf(viewUpdatedAt);
	if (seen === undefined || !Number.isFinite(writtenAt)) return true;
	return seen >= writtenAt;
}

/**
 * The templates to narrow a list request to: the distinct ones given, or none (the whole
 * list) when there are so many that the URL would grow long.
 */
export function templateFilter(templateIds: Array<string | undefined>): string[] {
	const involved = [...new Set(templateIds.filter((t): t is string => !!t))];
	return involved.length <= MAX_TEMPLATE_FILTER ? involved : [];
}
