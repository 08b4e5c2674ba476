// The polling trigger's pure model: keys, bounds, clock, walks, cursors (docs/ARCHITECTURE.md).
import { timeOf } from '../shared/helpers/dates';
import { signedAt } from '../shared/helpers/linkExpiry';
import type { TriggerEvent } from '../shared/helpers/triggerOptions';
import { TRIGGER_EVENTS } from '../shared/helpers/triggerOptions';
import type { ListFilters } from '../shared/types';

export type { TriggerEvent } from '../shared/helpers/triggerOptions';
export { TRIGGER_EVENTS } from '../shared/helpers/triggerOptions';

export type Card = Record<string, unknown>;

/** Longest delay between a document's `updated_at` and its appearance in the list. */
export const VISIBILITY_LAG_SECONDS = 5;
/** The lag, plus 1 s for an exclusive bound, plus 1 s of margin. */
export const OVERLAP_SECONDS = VISIBILITY_LAG_SECONDS + 2;
/** Allowance for the URL signer's clock running ahead of the clock that stamps `updated_at`. */
export const CLOCK_MARGIN_SECONDS = 2;
/** More for an HTTP `Date`: maybe a proxy's own clock, which may round the second, not floor it. */
export const DATE_MARGIN_SECONDS = 1;
/** Walks of the whole list in one poll, at most (a list that reshuffles on every request). */
export const MAX_PASSES = 24;
/** Walk durations beyond this are treated as this (a host clock that jumped). */
const MAX_DURATION_MS = 3_600_000;
export const STATE_VERSION = 1;

/** One card of a walk, keyed. `ms` is its `updated_at` (undefined when unreadable). */
export type Entry = { key: string; ms: number | undefined; card: Card };

export interface EventCursor {
	cursor: number | null; // newest `updated_at` seen (ms, service clock); null: none yet
	since: number | null; // the next poll's `q[updated_since]` (unix seconds); null: no bound
	seen: Record<string, number>; // keys already handled, with their `updated_at` ms (for pruning)
}

export type TriggerState = Partial<Record<TriggerEvent, EventCursor>>;
export type EventFilter = Pick<ListFilters, 'templateIds' | 'workspaceId'>;

/** The event key of a card: `<id>@<updated_at ms>`; undefined for a card without id. */
export function entryOf(card: Card): Entry | undefined {
	if (typeof card.id !== 'string' || card.id === '') return undefined;
	const ms = timeOf(card.updated_at);
	const stamp = ms !== undefined ? String(ms) : String(card.updated_at ?? '?');
	return { key: `${card.id}@${stamp}`, ms, card };
}

/** Oldest first by `updated_at`, then by key; unreadable times last. */
export function oldestFirst(a: Entry, b: Entry): number {
	const am = a.ms ?? Infinity;
	const bm = b.ms ?? Infinity;
	if (am !== bm) return am < bm ? -1 : 1;
	return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** The newest entry (by `updated_at`, then key), or undefined. */
export function newest(entries: Iterable<Entry>): Entry | undefined {
	let best: Entry | undefined;
	for (const entry of entries)
		if (entry.ms !== undefined && (!best || oldestFirst(best, entry) < 0)) best = entry;
	return best;
}

/** The next `q[updated_since]` for a cursor reached by a walk that took `durationMs`. */
export function boundFor(cursorMs: number, durationMs: number): number {
	const duration = Number.isFinite(durationMs)
		? Math.min(Math.max(durationMs, 0), MAX_DURATION_MS)
		: MAX_DURATION_MS;
	return Math.floor(cursorMs / 1000) - OVERLAP_SECONDS - Math.ceil(duration / 1000);
}

/** The bound below which nothing is unseen, given the service's time when a settled walk began. */
export function frontierBound(serviceStartMs: number): number {
	return Math.floor(serviceStartMs / 1000) - VISIBILITY_LAG_SECONDS - CLOCK_MARGIN_SECONDS - 1;
}

/** The service's clock from a presigned download URL (`X-Amz-Date`, whole seconds), in ms. */
export function signedAtOf(card: Card): number | undefined {
	return typeof card.download_url === 'string' ? signedAt(card.download_url) : undefined;
}

// Readings of the service's clock, each with the host time its answer arrived. Only host-clock
// durations are used: the service's time at host instant h is at least `reading - (arrival - h)`.
export class ServiceClock {
	private readonly samples: Array<{ ms: number; hostAt: number }> = [];

	/** One answer, arrived at `hostAt`: the later of its newest signing time and its HTTP `Date`. */
	observe(cards: Card[], hostAt: number, dateMs?: number): void {
		let best: number | undefined;
		for (const card of cards) {
			const ms = signedAtOf(card);
			if (ms !== undefined && (best === undefined || ms > best)) best = ms;
		}
		if (dateMs !== undefined && Number.isFinite(dateMs)) {
			// Whole seconds, floored, less the margin: at or before the answer was produced.
			const ms = (Math.floor(dateMs / 1000) - DATE_MARGIN_SECONDS) * 1000;
			if (best === undefined || ms > best) best = ms;
		}
		if (best !== undefined && Number.isFinite(hostAt)) this.samples.push({ ms: best, hostAt });
	}

	/** A lower bound of the service's time at host instant `hostAt`; undefined without readings. */
	lowerBoundAt(hostAt: number): number | undefined {
		let best: number | undefined;
		for (const sample of this.samples) {
			const value = sample.ms - Math.max(0, sample.hostAt - hostAt);
			if (best === undefined || value > best) best = value;
		}
		return best;
	}
}

/** The later of two times or bounds, null meaning "none". */
export function laterBound(a: number | null, b: number | null): number | null {
	if (a === null) return b;
	if (b === null) return a;
	return Math.max(a, b);
}

/** A walk's host-clock duration, and a lower bound of the service's time at its start if known. */
export type WalkFacts = { durationMs: number; serviceStartMs?: number };

/** The next bound after a settled walk that reached `cursor`. */
export function settledBound(cursor: number | null, facts: WalkFacts): number | null {
	let since: number | null = cursor === null ? null : boundFor(cursor, facts.durationMs);
	if (facts.serviceStartMs !== undefined && Number.isFinite(facts.serviceStartMs))
		since = laterBound(since, frontierBound(facts.serviceStartMs));
	return since;
}

/** Drops keys older than the bound: no list with that bound can return them. */
export function prune(seen: Record<string, number>, since: number | null): Record<string, number> {
	if (since === null) return seen;
	const floor = since * 1000;
	const kept: Record<string, number> = {};
	for (const [key, ms] of Object.entries(seen)) if (ms >= floor) kept[key] = ms;
	return kept;
}

type Bounds = Pick<EventCursor, 'cursor' | 'since'>;

// One poll's walks over one event's list, merged by key. A walk of several pages is repeated until
// the last found no new card below the next bound and the cards seen account for all it served;
// cards of the first walk, or of one before a walk that served fewer, do not count.
export class Walk {
	readonly entries = new Map<string, Entry>();
	maxMs: number | undefined;
	private readonly walks: Entry[][] = [];

	constructor(private readonly prev: Bounds = { cursor: null, since: null }) {}

	get passes(): number {
		return this.walks.length;
	}

	matching(event: TriggerEvent, filter: EventFilter): Entry[] {
		return [...this.entries.values()].filter((e) => matches(e.card, event, filter));
	}

	/** Adds one walk (`pages` requests; `facts` as at its end); true when no more is needed. */
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
		// A card new in this walk that the next poll would not list again was missed: walk again.
		const cursor = laterBound(this.maxMs ?? null, this.prev.cursor);
		const since = laterBound(this.prev.since, settledBound(cursor, facts));
		const oldBelow = since === null ? Infinity : (since + 1) * 1000;
		const missed = (e: Entry) => !before.has(e.key) && (e.ms === undefined || e.ms < oldBelow);
		if (walk.some(missed)) return false;
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

function newestTime(list: Entry[], start: number | null): number | null {
	let cursor = start;
	for (const entry of list)
		if (entry.ms !== undefined && (cursor === null || entry.ms > cursor)) cursor = entry.ms;
	return cursor;
}

// The first poll's state: all seen is history, the cursor its newest `updated_at`; the bound never
// drops below `coveredSince` (the first poll's own), so cards it could not see never fire as new.
export function initialCursor(
	entries: Iterable<Entry>,
	facts: WalkFacts & { coveredSince?: number },
): EventCursor {
	const list = [...entries];
	const cursor = newestTime(list, null);
	let since = settledBound(cursor, facts);
	if (facts.coveredSince !== undefined) since = laterBound(since, facts.coveredSince);
	const seen: Record<string, number> = {};
	for (const entry of list) seen[entry.key] = entry.ms ?? cursor ?? 0;
	return { cursor, since, seen: prune(seen, since) };
}

// One poll's outcome for one event: `fresh` entries not handled before (oldest first), `next` the
// state. An unsettled walk keeps the bound, so the next poll sees the window again (keys dedupe).
export function advance(
	prev: EventCursor,
	entries: Iterable<Entry>,
	settled: boolean,
	facts: WalkFacts,
): { next: EventCursor; fresh: Entry[] } {
	const list = [...entries];
	const fresh = list
		.filter((entry) => !Object.prototype.hasOwnProperty.call(prev.seen, entry.key))
		.sort(oldestFirst);
	const cursor = newestTime(list, prev.cursor);
	const since = settled ? laterBound(prev.since, settledBound(cursor, facts)) : prev.since;
	const seen: Record<string, number> = { ...prev.seen };
	for (const entry of fresh) seen[entry.key] = entry.ms ?? cursor ?? 0;
	return { next: { cursor, since, seen: prune(seen, since) }, fresh };
}

// An event added to a polling trigger starts at its earliest bound, nothing seen, so a document
// that reached the state since the last poll still fires. Undefined without a bound (first poll).
export function cursorForNewEvent(state: TriggerState): EventCursor | undefined {
	const cursors = TRIGGER_EVENTS.map((event) => state[event]).filter((c) => c !== undefined);
	const bounds = cursors.map((c) => c.since).filter((b): b is number => b !== null);
	if (!bounds.length) return undefined;
	const times = cursors.map((c) => c.cursor).filter((c): c is number => c !== null);
	return { cursor: times.length ? Math.min(...times) : null, since: Math.min(...bounds), seen: {} };
}

/** Two states of one event combined (overlapping polls): later cursor and bound, union of keys. */
export function mergeCursors(a: EventCursor, b: EventCursor): EventCursor {
	const cursor = laterBound(a.cursor, b.cursor);
	const since = laterBound(a.since, b.since);
	return { cursor, since, seen: prune({ ...a.seen, ...b.seen }, since) };
}

function isTime(value: unknown): value is number {
	return typeof value === 'number' && Number.isFinite(value);
}

/** One event's stored state, checked; undefined when absent or not understood. */
export function readCursor(raw: unknown): EventCursor | undefined {
	if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
	const value = raw as Record<string, unknown>;
	if (value.cursor !== null && !isTime(value.cursor)) return undefined;
	if (value.since !== null && !Number.isInteger(value.since)) return undefined;
	if (!value.seen || typeof value.seen !== 'object' || Array.isArray(value.seen)) return undefined;
	const seen: Record<string, number> = {};
	for (const [key, ms] of Object.entries(value.seen as Record<string, unknown>)) {
		if (!isTime(ms)) return undefined;
		seen[key] = ms;
	}
	return { cursor: value.cursor as number | null, since: value.since as number | null, seen };
}

/** The trigger's stored state (the node's static data), checked per event. */
export function readState(staticData: Record<string, unknown>): TriggerState {
	const state: TriggerState = {};
	if (staticData.version !== STATE_VERSION) return state;
	const events = staticData.events;
	if (!events || typeof events !== 'object') return state;
	for (const event of TRIGGER_EVENTS) {
		const cursor = readCursor((events as Record<string, unknown>)[event]);
		if (cursor) state[event] = cursor;
	}
	return state;
}

type StoredState = { version: number; events: Record<string, EventCursor> };

/** Plain JSON for the static data (n8n stores it as is). */
export function serializeState(state: TriggerState): StoredState {
	const events: Record<string, EventCursor> = {};
	for (const event of TRIGGER_EVENTS) {
		const cursor = state[event];
		if (cursor)
			events[event] = { cursor: cursor.cursor, since: cursor.since, seen: { ...cursor.seen } };
	}
	return { version: STATE_VERSION, events };
}

/** Whether a listed card is this event under these filters (should the service ignore one). */
export function matches(card: Card, event: TriggerEvent, filter: EventFilter): boolean {
	if (card.status !== event) return false;
	const template = card.document_template_id;
	if (filter.templateIds?.length && typeof template === 'string')
		if (!filter.templateIds.includes(template.toLowerCase())) return false;
	if (filter.workspaceId && typeof card.app_id === 'string')
		if (card.app_id.toLowerCase() !== filter.workspaceId.toLowerCase()) return false;
	return true;
}
