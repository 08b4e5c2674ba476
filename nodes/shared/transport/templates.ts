/** The service's template and workspace calls, on top of `apiRequest`. */
import type { IDataObject } from 'n8n-workflow';

import type { TransportContext } from '../types';
import type { Query } from './exchange';
import { apiRequest } from './request';
import { templateCardListEnvelope, workspaceCardListEnvelope } from './schemas';

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
