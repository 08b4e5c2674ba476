/**
 * The time a pace held its requests (ms): holds that overlap or follow each other at once are
 * one interval, so the time is counted once. Pure (the caller passes the time in).
 */
export class HeldTime {
	/** Closed intervals, summed. */
	private closed = 0;

	/** The open interval, if any. */
	private from: number | undefined;

	private to = 0;

	/** A hold from `now` until `until` (a later end of the hold under way extends it). */
	extend(now: number, until: number): void {
		const from = this.from;
		const underWay = from !== undefined;
		// Stryker disable next-line EqualityOperator: `<` for `<=` is equivalent: two holds that meet at an instant sum to the same total (it differs only for a reading before the last hold began, and the clock only goes forward)
		if (underWay && now <= this.to) {
			this.to = Math.max(this.to, until);
			return;
		}
		if (underWay) this.closed += this.to - from;
		this.from = now;
		this.to = until;
	}

	/** Time held up to `now`. */
	at(now: number): number {
		if (this.from === undefined) return this.closed;
		return this.closed + Math.max(0, Math.min(now, this.to) - this.from);
	}
}
