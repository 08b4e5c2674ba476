/** The service's template and workspace calls, on top of `apiRequest`. */
import type { IDataObject } from 'n8n-workflow';

import type { CallOptions, TransportContext } from '../types';
import type { Query } from './calls';
import { restResource } from './records';
import { apiRequest } from './request';
import { templateCardListEnvelope, templateEnvelope, workspaceCardListEnvelope } from './schemas';

/**
 * Every template card (of one workspace when given), in one request (`page=all`). Cards of
 * another workspace are dropped here, should the service ignore `q[workspace_id]`.
 */
export async function listTemplateCards(
	ctx: TransportContext,
	workspaceId?: string,
	options: CallOptions = {},
): Promise<IDataObject[]> {
	const query: Query = [['page', 'all']];
	if (workspaceId) query.push(['q[workspace_id]', workspaceId]);
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
