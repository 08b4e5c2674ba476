// Stage 2, what exists: an earlier try's documents (`memoryOf`) and a Unique Key's (one list pass);
// `listForIds` and `fetchEachCard`, shared with the wait, read known cards by list or by id.
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { timeOf } from '../../shared/helpers/dates';
import { CONCURRENCY, asNodeError, mapConcurrent } from '../../shared/helpers/items';
import {
	MAX_LIST_PAGES,
	getDocumentCard,
	isNotFound,
	scanDocumentCards,
} from '../../shared/transport';
import type { Found, ReuseRequest } from './plan';
import { CLOCK_SKEW_MS, templateFilter, updatedSinceFor } from './pollTiming';
import type { RunMemory } from './writes';
import { keyOf, markedDigest, markedKey } from './writes';

export type OnCard = (card: IDataObject, fetchedAt: number) => void;

/** The most list pages worth reading to see `count` known documents (0: fetch each). */
export function listBudget(count: number): number {
	return count >= 2 ? count - 1 : 0;
}

export interface ListForIds {
	updatedSince: number;
	templateIds: string[];
	reader: 'lookUp' | 'wait';
	itemIndex?: number;
	stop?: AbortSignal;
}

/** Reads the list within `listBudget` until every id was seen (`complete`: or the list ended). */
export async function listForIds(
	ctx: IExecuteFunctions,
	ids: Set<string>,
	onCard: OnCard,
	options: ListForIds,
): Promise<{ seen: Set<string>; pages: number; complete: boolean }> {
	const { updatedSince, templateIds, ...call } = options;
	const seen = new Set<string>();
	const { pages, complete } = await scanDocumentCards(
		ctx,
		{ updatedSince, templateIds },
		(card, fetchedAt) => {
			const id = String(card.id);
			if (!ids.has(id)) return false;
			seen.add(id);
			onCard(card, fetchedAt);
			return seen.size === ids.size;
		},
		// Within the shared bound: past it, fetching each by id is the way (not a list error).
		{ ...call, maxPages: Math.min(listBudget(ids.size), MAX_LIST_PAGES - 1) },
	);
	return { seen, pages, complete };
}

export interface FetchEach {
	onCard: OnCard;
	/** A 404: that document is gone (the others go on). */
	onNotFound: (id: string, error: unknown) => void;
	itemIndexOf: (id: string) => number | undefined;
	stop?: AbortSignal;
}

/** Fetches each card by id, a few at a time; any error but a 404 stops the rest and is thrown. */
export async function fetchEachCard(
	ctx: IExecuteFunctions,
	ids: string[],
	handlers: FetchEach,
): Promise<void> {
	let failed: { error: unknown; itemIndex?: number } | undefined;
	await mapConcurrent(ids, CONCURRENCY, async (id) => {
		if (failed !== undefined || handlers.stop?.aborted) return;
		const itemIndex = handlers.itemIndexOf(id);
		const fetchedAt = Date.now();
		try {
			handlers.onCard(await getDocumentCard(ctx, id, { itemIndex }), fetchedAt);
		} catch (error) {
			if (isNotFound(error)) handlers.onNotFound(id, error);
			else failed ??= { error, itemIndex };
		}
	});
	if (failed !== undefined) throw asNodeError(ctx, failed.error, failed.itemIndex);
}

interface Seen {
	card: IDataObject;
	fetchedAt: number;
}

/** What the look-up looks for, and what it has seen of it. */
class Search {
	/** Remembered documents (a retry): id → item. */
	readonly remembered = new Map<string, number>();
	/** Items by `keyOf`. */
	readonly keyed = new Map<string, Array<[number, ReuseRequest]>>();
	readonly seenById = new Map<string, Seen>();
	readonly seenByKey = new Map<string, Seen[]>();

	constructor(
		readonly requests: Array<[number, ReuseRequest]>,
		readonly memory: RunMemory | undefined,
	) {
		for (const [i, request] of requests) {
			const made = memory?.get(i);
			if (made && made.templateId === request.templateId) this.remembered.set(made.id, i);
			else if (request.key !== undefined) {
				const key = keyOf(request.templateId, request.key);
				this.keyed.set(key, [...(this.keyed.get(key) ?? []), [i, request]]);
			}
		}
	}

	/** Takes in a card of the list; true once nothing more is wanted of the list. */
	readonly visit = (card: IDataObject, fetchedAt: number): boolean => {
		const id = String(card.id);
		if (this.remembered.has(id)) this.seenById.set(id, { card, fetchedAt });
		const key = markedKey(card);
		if (key !== undefined && this.keyed.has(key))
			this.seenByKey.set(key, [...(this.seenByKey.get(key) ?? []), { card, fetchedAt }]);
		return this.keyed.size === 0 && this.seenById.size === this.remembered.size;
	};

	/** `updated_at` of the remembered documents' writes (service clock). */
	rememberedAt(): unknown[] {
		return [...this.remembered.values()].map((i) => this.memory!.get(i)!.updatedAt);
	}

	keyMissing(): boolean {
		return [...this.keyed.keys()].some((key) => !this.seenByKey.has(key));
	}
}

interface ListScope {
	templateIds: string[];
	itemIndex: number;
}

/** One whole pass over the Reuse Window: every key's documents, the remembered ones too. */
async function passOverWindow(
	ctx: IExecuteFunctions,
	search: Search,
	scope: ListScope,
): Promise<void> {
	const hours = Math.max(...search.requests.map(([, r]) => r.windowHours));
	const startedAt = Date.now();
	const windowStart = new Date(startedAt - hours * 3600_000).toISOString();
	const since = updatedSinceFor([...search.rememberedAt(), windowStart], startedAt);
	const call = { itemIndex: scope.itemIndex, reader: 'lookUp' as const };
	const filters = { templateIds: scope.templateIds };
	const pass = await scanDocumentCards(
		ctx,
		{ ...filters, updatedSince: since },
		search.visit,
		call,
	);
	// A card updated during the pass may have moved past it: a key still missing gets one more look.
	if (search.keyMissing()) {
		const passStart = pass.serverTime ?? startedAt - CLOCK_SKEW_MS;
		const changed = updatedSinceFor([new Date(passStart).toISOString()], startedAt);
		await scanDocumentCards(ctx, { ...filters, updatedSince: changed }, search.visit, call);
	}
}

/** A retry's documents: the list (within `listBudget`), then by id; one deleted is made again. */
async function readRemembered(
	ctx: IExecuteFunctions,
	search: Search,
	scope: ListScope,
): Promise<void> {
	const ids = new Set(search.remembered.keys());
	if (search.keyed.size === 0 && listBudget(ids.size) > 0) {
		await listForIds(ctx, ids, (card, fetchedAt) => search.visit(card, fetchedAt), {
			...scope,
			updatedSince: updatedSinceFor(search.rememberedAt(), Date.now()),
			reader: 'lookUp',
		});
	}
	const missing = [...ids].filter((id) => !search.seenById.has(id));
	await fetchEachCard(ctx, missing, {
		onCard: (card, fetchedAt) => search.seenById.set(String(card.id), { card, fetchedAt }),
		onNotFound: () => {},
		itemIndexOf: (id) => search.remembered.get(id),
	});
}

/** Lower is better: the document to reuse when several carry one key. */
function rank(card: IDataObject, digest: string): number {
	const status = String(card.status);
	const order = ['success', 'generating', 'pending', 'draft', 'failure'];
	const byStatus = order.includes(status) ? order.indexOf(status) : 2;
	return (markedDigest(card) === digest ? 0 : 10) + byStatus;
}

/** The best document of those carrying an item's key: its digest first, then by status, newest. */
function bestOf(cards: Seen[], digest: string): Seen {
	return [...cards].sort(
		(a, b) =>
			rank(a.card, digest) - rank(b.card, digest) ||
			(timeOf(b.card.updated_at) ?? 0) - (timeOf(a.card.updated_at) ?? 0),
	)[0];
}

/** What each item found: its remembered document, or the best one carrying its key. */
function foundOf(search: Search): Map<number, Found> {
	const found = new Map<number, Found>();
	for (const [id, i] of search.remembered) {
		const seen = search.seenById.get(id);
		if (seen) found.set(i, { ...seen, via: 'retry', digest: search.memory!.get(i)!.digest });
	}
	for (const [key, items] of search.keyed) {
		const cards = search.seenByKey.get(key);
		if (!cards) continue;
		for (const [i, request] of items) {
			const best = bestOf(cards, request.digest);
			found.set(i, { ...best, via: 'key', digest: markedDigest(best.card) });
		}
	}
	return found;
}

/** The documents earlier tries made for the items (`memory`), and those marked with their keys. */
export async function lookUp(
	ctx: IExecuteFunctions,
	requests: Array<[number, ReuseRequest]>,
	memory: RunMemory | undefined,
): Promise<Map<number, Found>> {
	const search = new Search(requests, memory);
	if (!search.remembered.size && !search.keyed.size) return new Map();
	const scope = {
		templateIds: templateFilter(requests.map(([, r]) => r.templateId)),
		itemIndex: requests[0][0],
	};
	if (search.keyed.size) await passOverWindow(ctx, search, scope);
	await readRemembered(ctx, search, scope);
	return foundOf(search);
}
