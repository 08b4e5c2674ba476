/** The service's document and account calls, on top of `apiRequest`. */
import type { IDataObject } from 'n8n-workflow';

import { parseHttpDate } from '../helpers/dates';
import type { CallOptions, ListFilters, TransportContext } from '../types';
import type { Query } from './exchange';
import { headerValue } from './exchange';
import { recordRequest, restResource } from './records';
import { apiRequest, apiRequestWithHeaders } from './request';
import {
	accountEnvelope,
	documentCardEnvelope,
	documentCardListEnvelope,
	documentEnvelope,
	syncEnvelope,
} from './schemas';

export const PAGE_SIZE = 24;

export function filterQuery(filters: ListFilters): Query {
	const query: Query = [];
	for (const id of filters.templateIds ?? []) query.push(['q[document_template_id][]', id]);
	if (filters.status) query.push(['q[status]', filters.status]);
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

/** One page (24 cards) of the document list. */
export async function listDocumentCards(
	ctx: TransportContext,
	filters: ListFilters,
	page: number,
	options: CallOptions = {},
): Promise<CardPage> {
	const { body: answer, headers } = await apiRequestWithHeaders(
		ctx,
		{
			method: 'GET',
			path: '/api/v1/document_cards',
			query: [['page[number]', page], ...filterQuery(filters)],
			what: `list documents (page ${page})`,
			...options,
		},
		documentCardListEnvelope,
	);
	const next = answer.meta?.next_page;
	const cards = answer.document_cards as IDataObject[];
	// Defensive: a page that is empty cannot be followed by more.
	const result: CardPage = {
		cards,
		nextPage: typeof next === 'number' && next > page && cards.length > 0 ? next : null,
	};
	const serverTime = parseHttpDate(headerValue(headers, 'date'));
	if (serverTime !== undefined) result.serverTime = serverTime;
	return result;
}

export interface ScanOptions extends CallOptions {
	/** Pages read at the most (default: all). */
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
 * at the list's last page, after `maxPages`, or when `stop` aborts.
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
