/** The service's document and account calls, on top of `apiRequest`. */
import type { IDataObject } from 'n8n-workflow';

import { parseHttpDate } from '../helpers/dates';
import type { CallOptions, ListFilters, TransportContext } from '../types';
import type { Query } from './calls';
import { headerValue } from './wire';
import type { ListReader } from './paging';
import { MAX_LIST_PAGES, REQUESTED_PAGE_SIZE, nextPageAfter, unendingListError } from './paging';
import { recordRequest, restResource } from './records';
import { apiRequest, apiRequestWithHeaders } from './request';
import {
	accountEnvelope,
	documentCardEnvelope,
	documentCardListEnvelope,
	documentEnvelope,
	syncEnvelope,
} from './schemas';

/**
 * The list's filters in the service's own form: one template as `q[document_template_id]=ID`,
 * several comma-joined (never the `[]` form, which no official client sends); one status as
 * `q[status]=x`, several as `q[status][]=x` each.
 */
export function filterQuery(filters: ListFilters): Query {
	const query: Query = [];
	const templateIds = [...new Set(filters.templateIds ?? [])];
	if (templateIds.length) query.push(['q[document_template_id]', templateIds.join(',')]);
	const statuses = [
		...new Set([...(filters.status ? [filters.status] : []), ...(filters.statuses ?? [])]),
	];
	if (statuses.length === 1) query.push(['q[status]', statuses[0]]);
	else for (const status of statuses) query.push(['q[status][]', status]);
	if (filters.workspaceId) query.push(['q[workspace_id]', filters.workspaceId]);
	if (filters.updatedSince !== undefined) query.push(['q[updated_since]', filters.updatedSince]);
	if (filters.search) query.push(['q[search]', filters.search]);
	return query;
}

export interface CardPage {
	cards: IDataObject[];
	nextPage: number | null;
	/** The service's clock when it produced the answer (ms, whole seconds), from `Date`. */
	serverTime?: number;
}

export interface ListOptions extends CallOptions {
	/** Where the list is read (names how to narrow it in the error of a list that loops). */
	reader?: ListReader;
}

/**
 * One page of the document list, asking for 100 cards (`page[size]`); the service may serve
 * fewer (24), so callers follow `nextPage` and never count on the size. A page that names a
 * next page not after itself fails (`unendingListError`).
 */
export async function listDocumentCards(
	ctx: TransportContext,
	filters: ListFilters,
	page: number,
	options: ListOptions = {},
): Promise<CardPage> {
	const { reader = 'getAll', ...call } = options;
	const { body: answer, headers } = await apiRequestWithHeaders(
		ctx,
		{
			method: 'GET',
			path: '/api/v1/document_cards',
			query: [['page[number]', page], ['page[size]', REQUESTED_PAGE_SIZE], ...filterQuery(filters)],
			what: `list documents (page ${page})`,
			...call,
		},
		documentCardListEnvelope,
	);
	const cards = answer.document_cards as IDataObject[];
	const next = nextPageAfter(page, answer.meta?.next_page, cards.length);
	if (next !== null && typeof next === 'object') {
		throw unendingListError(ctx.getNode(), {
			reader,
			pages: page,
			backwards: { page, next: next.backwards },
			itemIndex: call.itemIndex,
		});
	}
	const result: CardPage = { cards, nextPage: next };
	const serverTime = parseHttpDate(headerValue(headers, 'date'));
	if (serverTime !== undefined) result.serverTime = serverTime;
	return result;
}

/**
 * Fails when `pagesRead` pages have been read and the list names yet another: every loop over
 * pages stops at the one shared bound.
 */
export function checkPageBound(
	ctx: TransportContext,
	pagesRead: number,
	options: ListOptions = {},
): void {
	if (pagesRead < MAX_LIST_PAGES) return;
	throw unendingListError(ctx.getNode(), {
		reader: options.reader ?? 'getAll',
		pages: pagesRead,
		itemIndex: options.itemIndex,
	});
}

export interface ScanOptions extends ListOptions {
	/** Pages read at the most (default: all, up to the shared bound). */
	maxPages?: number;
	stop?: AbortSignal;
}

export interface ScanResult {
	pages: number;
	/** Whether the scan ended because the list did, or `visit` had seen all it wanted. */
	complete: boolean;
	/** The service's clock when it answered the first page (ms), from its `Date` header. */
	serverTime?: number;
}

/**
 * One pass over the document list from page 1: every card is handed to `visit` with the host
 * time its page was fetched. It ends when `visit` answers true (it has seen all it wanted),
 * at the list's last page, after `maxPages`, or when `stop` aborts. A list longer than the
 * shared bound fails (`checkPageBound`).
 */
export async function scanDocumentCards(
	ctx: TransportContext,
	filters: ListFilters,
	visit: (card: IDataObject, fetchedAt: number) => boolean | void,
	options: ScanOptions = {},
): Promise<ScanResult> {
	const { maxPages = Infinity, stop, ...call } = options;
	const result: ScanResult = { pages: 0, complete: false };
	for (let page: number | null = 1; page !== null; ) {
		if (result.pages >= maxPages || stop?.aborted) return result;
		checkPageBound(ctx, result.pages, call);
		const fetchedAt = Date.now();
		const answer = await listDocumentCards(ctx, filters, page, call);
		result.pages++;
		result.serverTime ??= answer.serverTime;
		let done = false;
		for (const card of answer.cards) if (visit(card, fetchedAt)) done = true;
		page = done ? null : answer.nextPage;
	}
	result.complete = true;
	return result;
}

export async function getDocumentCard(
	ctx: TransportContext,
	id: string,
	options: CallOptions = {},
): Promise<IDataObject> {
	const what = `get document ${id}`;
	return await recordRequest(
		ctx,
		'document_card',
		{ method: 'GET', path: `/api/v1/document_cards/${id}`, what, ...options },
		documentCardEnvelope,
	);
}

const documents = restResource('document', '/api/v1/documents', 'document', documentEnvelope);
export const getDocument = documents.get;
export const createDocument = documents.create;
export const updateDocument = documents.update;
export const deleteDocument = documents.remove;

/**
 * Creates a document and lets the service hold the answer until it is generated
 * (`POST /documents/sync`). The answer is a card (`document_card`; `document` is accepted too)
 * that may still be generating when the service stops holding.
 */
export async function createDocumentSync(
	ctx: TransportContext,
	fields: IDataObject,
	options: CallOptions = {},
): Promise<IDataObject> {
	const answer = await apiRequest(
		ctx,
		{
			method: 'POST',
			path: '/api/v1/documents/sync',
			body: { document: fields },
			what: 'create a document',
			...options,
		},
		syncEnvelope,
	);
	return (answer.document_card ?? answer.document) as IDataObject;
}

export async function getAccount(
	ctx: TransportContext,
	options: CallOptions = {},
): Promise<IDataObject> {
	const what = 'read the account';
	return await recordRequest(
		ctx,
		'current_user',
		{ method: 'GET', path: '/api/v1/current_user', what, ...options },
		accountEnvelope,
	);
}
