/** The engine's timing (pure): the polling schedule, the list window, stale views, clock skew. */
import { timeOf } from '../../shared/helpers/dates';

/** How far the host's clock may be from the service's, where the service's is not known. */
export const CLOCK_SKEW_MS = 120_000;

/** Most templates named in one list request: more would make the URL long. */
const MAX_TEMPLATE_FILTER = 20;

/** Quick looks (`pollDelay`) after the first, while typical generations end. */
const QUICK_LOOKS = 4;

/** Delay before poll `round` (0-based): 1 s, then growing by half up to 10 s; `quick` (no limit
 * met yet) adds four looks a quarter second apart after the first (1, 1.25 … 2 s, then 3 s…). */
export function pollDelay(round: number, quick = false): number {
	if (quick && round > 0 && round <= QUICK_LOOKS) return 250;
	const slow = quick ? Math.max(0, round - QUICK_LOOKS) : round;
	return Math.min(10_000, Math.round(1000 * 1.5 ** Math.max(0, slow - 1)));
}

/** `q[updated_since]` (unix s) covering the given service times: the earliest, 1 s early. */
export function updatedSinceFor(timestamps: Array<unknown>, fallbackMs: number): number {
	let earliest = Infinity;
	for (const value of timestamps) {
		const ms = timeOf(value);
		if (ms !== undefined && ms < earliest) earliest = ms;
	}
	if (!Number.isFinite(earliest)) earliest = fallbackMs;
	return Math.floor(earliest / 1000) - 1;
}

/** Whether a finished view is the outcome of a write at `writtenAt` (not older); unknown: yes. */
export function isAfterWrite(viewUpdatedAt: unknown, writtenAt: number): boolean {
	const seen = timeOf(viewUpdatedAt);
	if (seen === undefined || !Number.isFinite(writtenAt)) return true;
	return seen >= writtenAt;
}

/** The templates to narrow a list to: the distinct ones given, or none (all) when too many. */
export function templateFilter(templateIds: Array<string | undefined>): string[] {
	const involved = [...new Set(templateIds.filter((t): t is string => !!t))];
	return involved.length <= MAX_TEMPLATE_FILTER ? involved : [];
}
