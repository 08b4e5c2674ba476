/**
 * The polling trigger's model of the list: events as keys, time bounds, and the service's
 * clock. Pure: no n8n, no HTTP, no host clock. The reasoning is in docs/ARCHITECTURE.md
 * ("One poll"); each constant below says what it covers.
 */
import { timeOf } from '../../shared/helpers/dates';
import { signedAt } from '../../shared/helpers/linkExpiry';
import type { TriggerEvent } from '../../shared/helpers/triggerOptions';

export type { TriggerEvent } from '../../shared/helpers/triggerOptions';
export { TRIGGER_EVENTS } from '../../shared/helpers/triggerOptions';

export type Card = Record<string, unknown>;

/** Longest delay between a document's `updated_at` and its appearance in the list. */
export const VISIBILITY_LAG_SECONDS = 5;
/** The lag, plus 1 s for an exclusive bound, plus 1 s of margin. */
export const OVERLAP_SECONDS = VISIBILITY_LAG_SECONDS + 2;
/** Allowance for the URL signer's clock running ahead of the clock that stamps `updated_at`. */
export const CLOCK_MARGIN_SECONDS = 2;
/**
 * Further allowance for an HTTP `Date`: set by the server that answers (maybe a proxy in
 * front of the service, on a clock of its own), which may also round the second, not floor it.
 */
export const DATE_MARGIN_SECONDS = 1;
/** Walks of the whole list in one poll, at most (a list that reshuffles on every request). */
export const MAX_PASSES = 24;
/** Walk durations beyond this are treated as this (a host clock that jumped). */
const MAX_DURATION_MS = 3_600_000;
export const STATE_VERSION = 1;

/** One card of a walk, keyed. `ms` is its `updated_at` (undefined when unreadable). */
export interface Entry {
	key: string;
	ms: number | undefined;
	card: Card;
}

/** What the trigger remembers per event between polls. */
export interface EventCursor {
	/** Newest `updated_at` seen (ms, service clock); null before any document was seen. */
	cursor: number | null;
	/** `q[updated_since]` of the next poll (unix seconds); null: no bound (nothing seen yet). */
	since: number | null;
	/** Keys already handled, each with its `updated_at` in ms (for pruning). */
	seen: Record<string, number>;
}

export type TriggerState = Partial<Record<TriggerEvent, EventCursor>>;

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
	for (const entry of entries) {
		if (entry.ms === undefined) continue;
		if (!best || oldestFirst(best, entry) < 0) best = entry;
	}
	return best;
}

/** The next `q[updated_since]` for a cursor reached by a walk that took `durationMs`. */
export function boundFor(cursorMs: number, durationMs: number): number {
	const duration = Number.isFinite(durationMs)
		? Math.min(Math.max(durationMs, 0), MAX_DURATION_MS)
		: MAX_DURATION_MS;
	return Math.floor(cursorMs / 1000) - OVERLAP_SECONDS - Math.ceil(duration / 1000);
}

/**
 * The bound below which nothing can be unseen, given a lower bound of the service's time when
 * a settled walk began: cards stamped the lag (and margins) before it were listed throughout.
 */
export function frontierBound(serviceStartMs: number): number {
	return Math.floor(serviceStartMs / 1000) - VISIBILITY_LAG_SECONDS - CLOCK_MARGIN_SECONDS - 1;
}

/** The service's clock from a presigned download URL (`X-Amz-Date`, whole seconds), in ms. */
export function signedAtOf(card: Card): number | undefined {
	return typeof card.download_url === 'string' ? signedAt(card.download_url) : undefined;
}

/**
 * Readings of the service's clock taken during a poll, each with the host time its answer
 * arrived. Only durations of the host clock are used (its offset from the service's does not
 * matter): the service's time at host instant h is at least `reading - (arrival - h)`.
 */
export class ServiceClock {
	private readonly samples: Array<{ ms: number; hostAt: number }> = [];

	/**
	 * Records what one answer, arrived at host time `hostAt`, tells of the service's clock: the
	 * newest signing time among its cards, and its HTTP `Date` (ms) when it had a readable one.
	 */
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

/** The later of two bounds, null meaning "no bound". */
export function laterBound(a: number | null, b: number | null): number | null {
	if (a === null) return b;
	if (b === null) return a;
	return Math.max(a, b);
}

/** What a poll learnt about one event's list, besides the cards. */
export interface WalkFacts {
	/** Host-clock duration of the walk(s), ms. */
	durationMs: number;
	/** A lower bound of the service's time when the walk began (ms), when known. */
	serviceStartMs?: number;
}

/** The next bound after a settled walk that reached `cursor`. */
export function settledBound(cursor: number | null, facts: WalkFacts): number | null {
	let since: number | null = cursor === null ? null : boundFor(cursor, facts.durationMs);
	if (facts.serviceStartMs !== undefined && Number.isFinite(facts.serviceStartMs)) {
		since = laterBound(since, frontierBound(facts.serviceStartMs));
	}
	return since;
}
