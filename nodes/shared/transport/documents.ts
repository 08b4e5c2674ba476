/** Document and account calls, and the paging every list shares (`readPages`, one bound). */
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { parseHttpDate } from '../helpers/dates';
import type { CallOptions, ListFilters, TransportContext } from '../types';
import { headerValue } from './exchange';
import {
	apiRequest,
	apiRequestWithHeaders,
	recordRequest,
	restResource,
	type Query,
} from './request';
import {
	accountEnvelope,
	documentCardEnvelope,
	documentCardListEnvelope,
	documentEnvelope,
	syncEnvelope,
} from './schemas';

/** The cards a page is asked to hold (`page[size]`): the most the service serves. */
export const REQUESTED_PAGE_SIZE = 100;
/** The cards a page holds when the service ignores `page[size]` (its default). */
export const DEFAULT_PAGE_SIZE = 24;
/** Pages one read of a list may take (200,000 documents at 100 a page). */
export const MAX_LIST_PAGES = 2000;

const NARROW = {
	getAll:
		'Narrow the request: add a template, status, workspace or Updated Since filter, or turn off Return All and set a Limit.',
	trigger: 'Narrow the trigger with its Filters (templates, workspace).',
	lookUp:
		'Narrow the look-up: a shorter Reuse Window (Options) reads fewer recent documents of the templates involved.',
	wait: 'Fewer documents in one run (or a smaller batch with Loop Over Items) keeps the list short.',
	picker: 'Type part of the document’s file name or its ID to narrow the list.',
	workspaces: 'Enter the workspace by its ID instead of choosing it from the list.',
	library: 'The service answers this list in one page (page=all): enter the record by its ID.',
};
/** Where a list is read, which decides how the request can be narrowed. */
export type ListReader = keyof typeof NARROW;

/** Where a list is read and how it is named, for the error of a list that does not end. */
export interface ListFault {
	reader: ListReader;
	itemIndex?: number;
	/** The list's name when it is not the document or workspace list: "snippet list". */
	list?: string;
}

export interface UnendingList extends ListFault {
	pages: number;
	/** A page that named a next page not after itself: that page and what it named. */
	backwards?: { page: number; next: number };
}

/** The error of a list past `MAX_LIST_PAGES`, or of a page naming a next page not after itself. */
export function unendingListError(node: INode, fault: UnendingList): NodeOperationError {
	const { reader, pages, backwards, itemIndex } = fault;
	const list = fault.list ?? (reader === 'workspaces' ? 'workspace list' : 'document list');
	const message = backwards
		? `The ${list} did not end: page ${backwards.page} named page ${backwards.next} as the next one`
		: `The ${list} did not end after ${MAX_LIST_PAGES} pages`;
	const held =
		reader === 'workspaces' || reader === 'library'
			? `${pages} read`
			: `${pages} read, up to ${MAX_LIST_PAGES * REQUESTED_PAGE_SIZE} documents at ${REQUESTED_PAGE_SIZE} a page`;
	const why = backwards
		? 'A next page must come after the current one; following it would read the same pages for ever.'
		: `The service kept announcing a next page; a list is read for ${MAX_LIST_PAGES} pages at most (${held}).`;
	return new NodeOperationError(node, message, {
		description: `${why} ${NARROW[reader]} Report it to the service if it persists.`,
		...(itemIndex !== undefined ? { itemIndex } : {}),
	});
}

/** The page after `page` from `next_page`: null at the end, `backwards` when not after `page`. */
export function nextPageAfter(
	page: number,
	next: unknown,
	cardsOnPage: number,
): number | null | { backwards: number } {
	if (typeof next !== 'number' || !Number.isFinite(next) || cardsOnPage === 0) return null;
	return next > page ? next : { backwards: next };
}

/** Fails when `pagesRead` pages have been read and the list names yet another. */
export function checkPageBound(
	ctx: TransportContext,
	pagesRead: number,
	fault: Partial<ListFault> = {},
): void {
	if (pagesRead < MAX_LIST_PAGES) return;
	const { reader = 'getAll', list, itemIndex } = fault;
	throw unendingListError(ctx.getNode(), { reader, list, pages: pagesRead, itemIndex });
}

export interface ListPage {
	records: IDataObject[];
	nextPage: number | null;
}

/** A page of a list from its records and `next_page`; one naming a page not after itself fails. */
export function pageOf(
	ctx: TransportContext,
	fault: ListFault,
	page: number,
	records: IDataObject[],
	next: unknown,
): ListPage {
	const nextPage = nextPageAfter(page, next, records.length);
	if (nextPage !== null && typeof nextPage === 'object') {
		const backwards = { page, next: nextPage.backwards };
		throw unendingListError(ctx.getNode(), { ...fault, pages: page, backwards });
	}
	return { records, nextPage };
}

/** How a list is read: where (for its errors), one page's fetch, and what takes each page. */
export interface PageReading extends ListFault {
	/** Page `page`, the `read`-th fetched. */
	fetchPage: (page: number, read: number) => Promise<ListPage>;
	/** Takes a page's records; true when it has seen all it wanted. */
	take: (page: ListPage) => boolean | void;
	/** Asked before each page: true ends the reading, incomplete. */
	halt?: (pagesRead: number) => boolean;
}

/** The one loop over a list's pages, from 1 until `take` is done, the list ends or `halt`. */
export async function readPages(
	ctx: TransportContext,
	reading: PageReading,
): Promise<{ pages: number; complete: boolean }> {
	let pages = 0;
	for (let page: number | null = 1; page !== null; ) {
		if (reading.halt?.(pages)) return { pages, complete: false };
		checkPageBound(ctx, pages, reading);
		const answer = await reading.fetchPage(page, pages + 1);
		pages++;
		page = reading.take(answer) ? null : answer.nextPage;
	}
	return { pages, complete: true };
}

/** Filters in the service's form: templates comma-joined (never `[]`), several statuses `[]`. */
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

/** One page of the document list, asking for 100 cards (the service may serve 24). */
export async function listDocumentCards(
	ctx: TransportContext,
	filters: ListFilters,
	page: number,
	options: ListOptions = {},
): Promise<CardPage> {
	const { reader = 'getAll', ...call } = options;
	const filter = filterQuery(filters);
	const query: Query = [['page[number]', page], ['page[size]', REQUESTED_PAGE_SIZE], ...filter];
	const what = `list documents (page ${page})`;
	const request = { method: 'GET' as const, path: '/api/v1/document_cards', query, what, ...call };
	const { body, headers } = await apiRequestWithHeaders(ctx, request, documentCardListEnvelope);
	const fault = { reader, itemIndex: call.itemIndex };
	const cards = body.document_cards as IDataObject[];
	const { records, nextPage } = pageOf(ctx, fault, page, cards, body.meta?.next_page);
	const result: CardPage = { cards: records, nextPage };
	const serverTime = parseHttpDate(headerValue(headers, 'date'));
	if (serverTime !== undefined) result.serverTime = serverTime;
	return result;
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

/** One pass over the document list, each card to `visit` with its page's fetch time, until done. */
export async function scanDocumentCards(
	ctx: TransportContext,
	filters: ListFilters,
	visit: (card: IDataObject, fetchedAt: number) => boolean | void,
	options: ScanOptions = {},
): Promise<ScanResult> {
	const { maxPages = Infinity, stop, ...call } = options;
	const result: ScanResult = { pages: 0, complete: false };
	let fetchedAt = 0;
	const read = await readPages(ctx, {
		reader: call.reader ?? 'getAll',
		itemIndex: call.itemIndex,
		halt: (pagesRead) => pagesRead >= maxPages || stop?.aborted === true,
		fetchPage: async (page) => {
			fetchedAt = Date.now();
			const answer = await listDocumentCards(ctx, filters, page, call);
			result.serverTime ??= answer.serverTime;
			return { records: answer.cards, nextPage: answer.nextPage };
		},
		// Every card is visited; the reading ends when any of them says so.
		take: (answer) => answer.records.filter((card) => visit(card, fetchedAt)).length > 0,
	});
	return { ...result, ...read };
}

export async function getDocumentCard(
	ctx: TransportContext,
	id: string,
	options: CallOptions = {},
): Promise<IDataObject> {
	const path = `/api/v1/document_cards/${id}`;
	const request = { method: 'GET' as const, path, what: `get document ${id}`, ...options };
	return await recordRequest(ctx, 'document_card', request, documentCardEnvelope);
}

const documents = restResource('document', '/api/v1/documents', 'document', documentEnvelope);
export const getDocument = documents.get;
export const createDocument = documents.create;
export const updateDocument = documents.update;
export const deleteDocument = documents.remove;

/** Creates a document; the service holds the answer until it is generated (`documents/sync`). */
export async function createDocumentSync(
	ctx: TransportContext,
	fields: IDataObject,
	options: CallOptions = {},
): Promise<IDataObject> {
	const path = '/api/v1/documents/sync';
	const body = { document: fields };
	const request = { method: 'POST' as const, path, body, what: 'create a document', ...options };
	const answer = await apiRequest(ctx, request, syncEnvelope);
	return (answer.document_card ?? answer.document) as IDataObject;
}

export async function getAccount(
	ctx: TransportContext,
	options: CallOptions = {},
): Promise<IDataObject> {
	const what = 'read the account';
	const request = { method: 'GET' as const, path: '/api/v1/current_user', what, ...options };
	return await recordRequest(ctx, 'current_user', request, accountEnvelope);
}
