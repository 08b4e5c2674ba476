/**
 * The one strategy for reading known documents' cards, shared by the wait's rounds and the
 * look-up: read the document list while it costs fewer requests than one GET per document
 * (pages and GETs are both requests: whatever the page size, no more pages than GETs), stop
 * as soon as every wanted card was seen, and fetch each of the others by id.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { CONCURRENCY, asNodeError, mapConcurrent } from '../../shared/helpers/items';
import {
	MAX_LIST_PAGES,
	getDocumentCard,
	isNotFound,
	scanDocumentCards,
} from '../../shared/transport';

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

/**
 * Reads the list within `listBudget` until every id in `ids` has been seen; `onCard` gets each
 * of their cards. `complete`: the list ended, or every id was seen.
 */
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
	/** The item a request for the id is made for. */
	itemIndexOf: (id: string) => number | undefined;
	stop?: AbortSignal;
}

/**
 * Fetches each card by id, a few at a time. Any error but a 404 stops the fetches not started
 * yet and is thrown once the others have ended.
 */
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
