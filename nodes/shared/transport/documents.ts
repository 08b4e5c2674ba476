/** The service's document, template, workspace and account calls, on top of `apiRequest`. */
import type { IDataObject } from 'n8n-workflow';

import type { Query, TransportContext } from './index';
import { apiRequest, apiRequestWithHeaders, headerValue } from './index';
import {
	accountEnvelope,
	documentCardEnvelope,
	documentCardListEnvelope,
	documentEnvelope,
	templateCardListEnvelope,
	workspaceCardListEnvelope,
} from './schemas';

export const PAGE_SIZE = 24;

export interface ListFilters {
	templateIds?: string[];
	status?: string;
	workspaceId?: string;
	/** Unix seconds. */
	updatedSince?: number;
	search?: string;
}

export interface CallOptions {
	itemIndex?: number;
	timeoutMs?: number;
}

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

const IMF_FIXDATE =
	/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * An HTTP `Date` header (RFC 7231 IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`) in ms;
 * undefined when absent, repeated, or anything else (other date formats, an impossible date,
 * a weekday that does not match).
 */
export function parseHttpDate(value: unknown): number | undefined {
	const text = Array.isArray(value)
		? value.length === 1
			? (value[0] as unknown)
			: undefined
		: value;
	if (typeof text !== 'string') return undefined;
	const match = IMF_FIXDATE.exec(text.trim());
	if (!match) return undefined;
	const [, weekday, day, month, year, hour, minute, second] = match;
	const ms = Date.UTC(
		Number(year),
		MONTHS.indexOf(month),
		Number(day),
		Number(hour),
		Number(minute),
		Number(second),
	);
	const date = new Date(ms);
	// Date.UTC rolls over out-of-range fields (31 Feb, 24:00) and maps years 0-99 to 19xx:
	// such a header is junk.
	if (
		!Number.isFinite(ms) ||
		date.getUTCFullYear() !== Number(year) ||
		date.getUTCDate() !== Number(day) ||
		date.getUTCHours() !== Number(hour) ||
		date.getUTCMinutes() !== Number(minute) ||
		date.getUTCSeconds() !== Number(second) ||
		WEEKDAYS[date.getUTCDay()] !== weekday
	) {
		return undefined;
	}
	return ms;
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

export async function getDocumentCard(
	ctx: TransportContext,
	id: string,
	options: CallOptions = {},
): Promise<IDataObject> {
	const answer = await apiRequest(
		ctx,
		{ method: 'GET', path: `/api/v1/document_cards/${id}`, what: `get document ${id}`, ...options },
		documentCardEnvelope,
	);
	return answer.document_card as IDataObject;
}

export async function getDocument(
	ctx: TransportContext,
	id: string,
	options: CallOptions = {},
): Promise<IDataObject> {
	const answer = await apiRequest(
		ctx,
		{ method: 'GET', path: `/api/v1/documents/${id}`, what: `get document ${id}`, ...options },
		documentEnvelope,
	);
	return answer.document as IDataObject;
}

export async function createDocument(
	ctx: TransportContext,
	fields: IDataObject,
	options: CallOptions = {},
): Promise<IDataObject> {
	const answer = await apiRequest(
		ctx,
		{
			method: 'POST',
			path: '/api/v1/documents',
			body: { document: fields },
			what: 'create a document',
			...options,
		},
		documentEnvelope,
	);
	return answer.document as IDataObject;
}

export async function updateDocument(
	ctx: TransportContext,
	id: string,
	fields: IDataObject,
	options: CallOptions = {},
): Promise<IDataObject> {
	const answer = await apiRequest(
		ctx,
		{
			method: 'PUT',
			path: `/api/v1/documents/${id}`,
			body: { document: fields },
			what: `update document ${id}`,
			...options,
		},
		documentEnvelope,
	);
	return answer.document as IDataObject;
}

export async function deleteDocument(
	ctx: TransportContext,
	id: string,
	options: CallOptions = {},
): Promise<void> {
	await apiRequest(ctx, {
		method: 'DELETE',
		path: `/api/v1/documents/${id}`,
		what: `delete document ${id}`,
		...options,
	});
}

export async function getAccount(
	ctx: TransportContext,
	options: CallOptions = {},
): Promise<IDataObject> {
	const answer = await apiRequest(
		ctx,
		{ method: 'GET', path: '/api/v1/current_user', what: 'read the account', ...options },
		accountEnvelope,
	);
	return answer.current_user as IDataObject;
}

export async function listTemplateCards(
	ctx: TransportContext,
	workspaceId?: string,
): Promise<IDataObject[]> {
	const query: Query = [['page', 'all']];
	if (workspaceId) query.push(['q[workspace_id]', workspaceId]);
	const answer = await apiRequest(
		ctx,
		{ method: 'GET', path: '/api/v1/document_template_cards', query, what: 'list templates' },
		templateCardListEnvelope,
	);
	return answer.document_template_cards as IDataObject[];
}

export async function listWorkspaceCards(ctx: TransportContext): Promise<IDataObject[]> {
	const all: IDataObject[] = [];
	for (let page = 1; page <= 50; page++) {
		const answer = await apiRequest(
			ctx,
			{
				method: 'GET',
				path: '/api/v1/workspace_cards',
				query: [['page[number]', page]],
				what: 'list workspaces',
			},
			workspaceCardListEnvelope,
		);
		all.push(...(answer.workspace_cards as IDataObject[]));
		const next = answer.meta?.next_page;
		if (typeof next !== 'number' || next <= page || answer.workspace_cards.length === 0) break;
	}
	return all;
}
