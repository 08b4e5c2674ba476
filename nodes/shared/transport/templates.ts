/** The service's template and workspace calls, on top of `apiRequest`. */
import type { IDataObject } from 'n8n-workflow';

import type { CallOptions, TransportContext } from '../types';
import type { Query } from './calls';
import { MAX_LIST_PAGES, nextPageAfter, unendingListError } from './paging';
import { restResource } from './records';
import { apiRequest } from './request';
import {
	templateCardListEnvelope,
	templateDebugEnvelope,
	templateEnvelope,
	workspaceCardListEnvelope,
} from './schemas';

/** How a template list is narrowed and ordered: `q[folders]` (all, none or IDs) and `sort`. */
export interface TemplateListing {
	folders?: string;
	sort?: string;
}

/**
 * Every template card (of one workspace when given), in one request (`page=all`). Cards of
 * another workspace are dropped here, should the service ignore `q[workspace_id]`.
 */
export async function listTemplateCards(
	ctx: TransportContext,
	workspaceId?: string,
	options: CallOptions = {},
	listing: TemplateListing = {},
): Promise<IDataObject[]> {
	const query: Query = [['page', 'all']];
	if (workspaceId) query.push(['q[workspace_id]', workspaceId]);
	if (listing.folders !== undefined) query.push(['q[folders]', listing.folders]);
	if (listing.sort !== undefined) query.push(['sort', listing.sort]);
	const answer = await apiRequest(
		ctx,
		{
			method: 'GET',
			path: '/api/v1/document_template_cards',
			query,
			what: 'list templates',
			...options,
		},
		templateCardListEnvelope,
	);
	const cards = answer.document_template_cards as IDataObject[];
	if (!workspaceId) return cards;
	const wanted = workspaceId.toLowerCase();
	return cards.filter((t) => !t.app_id || String(t.app_id).toLowerCase() === wanted);
}

const templates = restResource(
	'document_template',
	'/api/v1/document_templates',
	'template',
	templateEnvelope,
);
export const getTemplate = templates.get;
export const createTemplate = templates.create;
export const updateTemplate = templates.update;
export const deleteTemplate = templates.remove;

/** The link to a preview of the template's draft rendered with its sample data. */
export async function getTemplateDraftPreview(
	ctx: TransportContext,
	id: string,
	options: CallOptions = {},
): Promise<string> {
	const answer = await apiRequest(
		ctx,
		{
			method: 'GET',
			path: `/api/v1/document_template_debugs/${id}`,
			what: `preview template ${id}`,
			...options,
		},
		templateDebugEnvelope,
	);
	return answer.document_template_debug.url;
}

/**
 * Every workspace card, page after page, within the shared paging bound: a list that never
 * ends, or names a next page not after the current one, fails (`unendingListError`).
 */
export async function listWorkspaceCards(ctx: TransportContext): Promise<IDataObject[]> {
	const all: IDataObject[] = [];
	let page = 1;
	for (let read = 1; read <= MAX_LIST_PAGES; read++) {
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
		const cards = answer.workspace_cards as IDataObject[];
		all.push(...cards);
		const next = nextPageAfter(page, answer.meta?.next_page, cards.length);
		if (next === null) return all;
		if (typeof next === 'object') {
			throw unendingListError(ctx.getNode(), {
				reader: 'workspaces',
				pages: read,
				backwards: { page, next: next.backwards },
			});
		}
		page = next;
	}
	throw unendingListError(ctx.getNode(), { reader: 'workspaces', pages: MAX_LIST_PAGES });
}
