/** Pure pieces of waiting for generation: the polling schedule and the list window. */

/**
 * Delay before poll number `round` (0-based): a first look after about a second (typical
 * generations take one to a few seconds), then growing by half each time up to 10 s.
 */
export function pollDelay(round: number): number {
	return Math.min(10_000, Math.round(1000 * 1.5 ** Math.max(0, round - 1)));
}

/**
 * The `q[updated_since]` bound (unix seconds) that covers documents last written at the
 * given service timestamps: the earliest of them, one second early, because the bound is
 * whole seconds and may be exclusive. Based on the service's own clock, never the host's.
 */
export function updatedSinceFor(timestamps: Array<unknown>, fallbackMs: number): number {
	let earliest = Infinity;
	for (const value of timestamps) {
		const ms = typeof value === 'string' ? Date.parse(value) : NaN;
		if (Number.isFinite(ms) && ms < earliest) earliest = ms;
	}
	if (!Number.isFinite(earliest)) earliest = fallbackMs;
	return Math.floor(earliest / 1000) - 1;
}
