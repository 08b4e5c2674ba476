/**
 * The service's snippets: the reusable Liquid pieces a template includes
 * (`{% include 'name' %}`), kept per workspace (`workspace_id`).
 */
import { snippetEnvelope, snippetListEnvelope } from './schemas';
import { workspaceResource } from './workspaceList';

const snippets = workspaceResource({
	key: 'snippet',
	path: '/api/v1/snippets',
	noun: 'snippet',
	schema: snippetEnvelope,
	list: {
		key: 'snippets',
		workspaceKey: 'workspace_id',
		what: 'list snippets',
		name: 'snippet list',
		schema: snippetListEnvelope,
	},
});
export const getSnippet = snippets.get;
export const createSnippet = snippets.create;
export const updateSnippet = snippets.update;
export const deleteSnippet = snippets.remove;
/** Every snippet of a workspace (the service lists none without one). */
export const listSnippets = snippets.list;
