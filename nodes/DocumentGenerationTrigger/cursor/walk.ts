/** The cards of one poll's walks over one event's list, and pruning of remembered keys. Pure. */
import type { Card, Entry, WalkFacts } from './model';
import { entryOf, laterBound, settledBound } from './model';

/** Drops keys older than the bound: no list with that bound can return them. */
export function prune(seen: Record<string, number>, since: number | null): Record<string, number> {
	if (since === null) return seen;
	const floor = since * 1000;
	const kept: Record<string, number> = {};
	for (const [key, ms] of Object.entries(seen)) if (ms >= floor) kept[key] = ms;
	return kept;
}

/**
 * The cards of one poll's walks over the list of one event, merged by key. Decides whether
 * another walk is needed:
 * - a walk of one page is a single answer: complete;
 * - a walk of several pages may have missed cards that moved between pages (a card that
 *   left the list shifts the rest up by one; a list may even reshuffle on every request), so
 *   it is checked by further walks, until the last one found no card it had not seen before
 *   (or only recent ones: arrivals, which the next poll lists again anyway), and the cards
 *   seen account for all the last walk served.
 * Cards seen in the first walk, and in any walk before one that served fewer cards (some
 * left the list), do not count: a card that left the list cannot stand in for one not seen.
 * A list that reshuffles on every request is thus walked until every card showed up.
 */
export class Walk {
	readonly entries = new Map<string, Entry>();
	maxMs: number | undefined;
	private readonly walks: Entry[][] = [];

	constructor(
		private readonly prev: { cursor: number | null; since: number | null } = {
			cursor: null,
			since: null,
		},
	) {}

	get passes(): number {
		return this.walks.length;
	}

	/**
	 * Adds one walk (`pages` requests; `facts` as known at its end); returns true when no
	 * further walk is needed.
	 */
	addPass(cards: Card[], pages: number, facts: WalkFacts = { durationMs: 0 }): boolean {
		const walk: Entry[] = [];
		const before = new Set(this.entries.keys());
		for (const card of cards) {
			const entry = entryOf(card);
			if (!entry) continue;
			walk.push(entry);
			// The latest copy wins: its download link is the freshest.
			this.entries.set(entry.key, entry);
			if (entry.ms !== undefined && (this.maxMs === undefined || entry.ms > this.maxMs))
				this.maxMs = entry.ms;
		}
		this.walks.push(walk);
		if (pages <= 1) return true;
		if (this.walks.length === 1) return false;

		// A card found only now that the next poll would not list again (below its bound)
		// was missed before: walk again.
		const cursor =
			this.maxMs === undefined
				? this.prev.cursor
				: Math.max(this.maxMs, this.prev.cursor ?? -Infinity);
		const since = laterBound(this.prev.since, settledBound(cursor, facts));
		const oldBelow = since === null ? Infinity : (since + 1) * 1000;
		if (
			walk.some(
				(entry) => !before.has(entry.key) && (entry.ms === undefined || entry.ms < oldBelow),
			)
		)
			return false;

		const last = this.walks.length - 1;
		let countFrom = 1;
		for (let i = 1; i <= last; i++)
			if (this.walks[i].length < this.walks[i - 1].length) countFrom = i + 1;
		if (countFrom > last) return false;
		const seen = new Set<string>();
		for (let i = countFrom; i <= last; i++) for (const entry of this.walks[i]) seen.add(entry.key);
		return seen.size >= walk.length;
	}
}
