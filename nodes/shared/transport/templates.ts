/** The service's template and workspace calls, on top of `apiRequest`. */
import type { IDataObject } from 'n8n-workflow';

import type { CallOptions, TransportContext } from '../types';
import type { Query } from './exchange';
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

export async function getTemplate(
	ctx: TransportContext,
	id: string,
	options: CallOptions = {},
): Promise<IDataObject> {
	const answer = await apiRequest(
		ctx,
		{
			method: 'GET',
			path: `/api/v1/document_templates/${id}`,
			what: `get template ${id}`,
			...options,
		},
		templateEnvelope,
	);
	return answer.document_template as IDataObject;
}

export async function createTemplate(
	ctx: TransportContext,
	fields: IDataObject,
	options: CallOptions = {},
): Promise<IDataObject> {
	const answer = await apiRequest(
		ctx,
		{
			method: 'POST',
			path: '/api/v1/document_templates',
			body: { document_template: fields },
			what: 'create a template',
			...options,
		},
		templateEnvelope,
	);
	return answer.document_template as IDataObject;
}

export async function updateTemplate(
	ctx: TransportContext,
	id: string,
	fields: IDataObject,
	options: CallOptions = {},
): Promise<IDataObject> {
	const answer = await apiRequest(
		ctx,
		{
			method: 'PUT',
			path: `/api/v1/document_templates/${id}`,
			body: { document_template: fields },
			what: `update template ${id}`,
			...options,
		},
		templateEnvelope,
	);
	return answer.document_template as IDataObject;
}

export async function deleteTemplate(
	ctx: TransportContext,
	id: string,
	options: CallOptions = {},
): Promise<void> {
	await apiRequest(ctx, {
		method: 'DELETE',
		path: `/api/v1/document_templates/${id}`,
		what: `delete template ${id}`,
		...options,
	});
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
