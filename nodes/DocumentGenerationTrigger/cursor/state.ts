/**
 * Where the next poll starts, and what it must not fire again: the trigger's cursor per event,
 * kept in the node's static data. Pure.
 */
import type { ListFilters } from '../../shared/types';
import type { Card, Entry, EventCursor, TriggerEvent, TriggerState, WalkFacts } from './model';
import { STATE_VERSION, TRIGGER_EVENTS, laterBound, oldestFirst, settledBound } from './model';
import { prune } from './walk';

function newestTime(list: Entry[], start: number | null): number | null {
	let cursor = start;
	for (const entry of list)
		if (entry.ms !== undefined && (cursor === null || entry.ms > cursor)) cursor = entry.ms;
	return cursor;
}

/**
 * State after the first poll of an activation: everything seen counts as history (not
 * emitted) and the cursor starts at the newest `updated_at` seen. `coveredSince` is the bound
 * the first poll listed with (if it used one): the next bound is never below it, so cards the
 * first poll could not see (older than that) never fire as if new. With nothing seen and no
 * clock reading, the next poll lists without a bound (every document in the state is new).
 */
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

/**
 * One poll's outcome for one event: `fresh` are the entries not handled before (oldest
 * first), `next` the state to keep. When the walk did not settle, the bound does not move, so
 * the next poll looks at the same window again (keys keep it from firing twice).
 */
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

/**
 * Where an event added to a trigger that already polls for another one starts: at the
 * earliest bound the trigger already has, with nothing seen. So a document that reached the
 * new state after the trigger's last poll still fires, instead of the new event starting
 * from "now" and missing it. Undefined when the trigger has no bound yet (nothing listed so
 * far): the new event then starts as on a first poll, firing no history.
 */
export function cursorForNewEvent(state: TriggerState): EventCursor | undefined {
	const cursors = TRIGGER_EVENTS.map((event) => state[event]).filter(
		(c): c is EventCursor => c !== undefined,
	);
	const bounds = cursors.map((c) => c.since).filter((b): b is number => b !== null);
	if (!bounds.length) return undefined;
	const since = Math.min(...bounds);
	const times = cursors.map((c) => c.cursor).filter((c): c is number => c !== null);
	return { cursor: times.length ? Math.min(...times) : null, since, seen: {} };
}

/**
 * Two states of the same event combined (a poll that overlapped another one): the later
 * cursor and bound, the union of keys.
 */
export function mergeCursors(a: EventCursor, b: EventCursor): EventCursor {
	const cursor =
		a.cursor === null ? b.cursor : b.cursor === null ? a.cursor : Math.max(a.cursor, b.cursor);
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
	if (value.since !== null && !(isTime(value.since) && Number.isInteger(value.since)))
		return undefined;
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

/** Plain JSON for the static data (n8n stores it as is). */
export function serializeState(state: TriggerState): {
	version: number;
	events: Record<string, EventCursor>;
} {
	const events: Record<string, EventCursor> = {};
	for (const event of TRIGGER_EVENTS) {
		const cursor = state[event];
		if (cursor)
			events[event] = { cursor: cursor.cursor, since: cursor.since, seen: { ...cursor.seen } };
	}
	return { version: STATE_VERSION, events };
}

/**
 * Whether a listed card is an event of this kind under these filters. The list is asked to
 * filter already; this guards against a service that ignores a filter.
 */
export function matches(
	card: Card,
	event: TriggerEvent,
	filter: Pick<ListFilters, 'templateIds' | 'workspaceId'>,
): boolean {
	if (card.status !== event) return false;
	if (filter.templateIds?.length && typeof card.document_template_id === 'string') {
		if (!filter.templateIds.includes(card.document_template_id.toLowerCase())) return false;
	}
	if (filter.workspaceId && typeof card.app_id === 'string') {
		if (card.app_id.toLowerCase() !== filter.workspaceId.toLowerCase()) return false;
	}
	return true;
}
