/**
 * The service's snippets: the reusable Liquid pieces a template includes
 * (`{% include 'name' %}`), kept per workspace (`workspace_id`).
 */
import type { IDataObject } from 'n8n-workflow';

import type { CallOptions, TransportContext } from '../types';
import { restResource } from './records';
import { snippetEnvelope, snippetListEnvelope } from './schemas';
import { listInWorkspace } from './workspaceList';

const snippets = restResource('snippet', '/api/v1/snippets', 'snippet', snippetEnvelope);
export const getSnippet = snippets.get;
export const createSnippet = snippets.create;
export const updateSnippet = snippets.update;
export const deleteSnippet = snippets.remove;

/** Every snippet of a workspace (the service lists none without one). */
export async function listSnippets(
	ctx: TransportContext,
	workspaceId: string,
	options: CallOptions = {},
): Promise<IDataObject[]> {
	return await listInWorkspace(
		ctx,
		{
			path: '/api/v1/snippets',
			key: 'snippets',
			workspaceKey: 'workspace_id',
			what: 'list snippets',
			name: 'snippet list',
			schema: snippetListEnvelope,
		},
		workspaceId,
		options,
	);
}
