/** Templates, workspaces, webhooks, and each workspace's snippets and folders; the PDF engines. */
import type { IDataObject } from 'n8n-workflow';
import type { z } from 'zod';

import type { CallOptions, TransportContext } from '../types';
import { pageOf, readPages } from './documents';
import { apiRequest, recordRequest, restResource, type Envelope, type Query } from './request';
import {
	pdfEngineListEnvelope,
	restHookEnvelope,
	snippetEnvelope,
	snippetListEnvelope,
	templateCardListEnvelope,
	templateDebugEnvelope,
	templateEnvelope,
	templateFolderEnvelope,
	templateFolderListEnvelope,
	workspaceCardListEnvelope,
} from './schemas';

/** How a template list is narrowed and ordered: `q[folders]` (all, none or IDs) and `sort`. */
export interface TemplateListing {
	folders?: string;
	sort?: string;
}

/** Every template card (of one workspace when given, others dropped), in one request. */
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
	const path = '/api/v1/document_template_cards';
	const request = { method: 'GET' as const, path, query, what: 'list templates', ...options };
	const answer = await apiRequest(ctx, request, templateCardListEnvelope);
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
	const path = `/api/v1/document_template_debugs/${id}`;
	const request = { method: 'GET' as const, path, what: `preview template ${id}`, ...options };
	const debug = await recordRequest(ctx, 'document_template_debug', request, templateDebugEnvelope);
	return String(debug.url);
}

/** Every workspace card, page after page, within the shared paging bound. */
export async function listWorkspaceCards(ctx: TransportContext): Promise<IDataObject[]> {
	const all: IDataObject[] = [];
	const fault = { reader: 'workspaces' as const };
	await readPages(ctx, {
		...fault,
		fetchPage: async (page) => {
			const query: Query = [['page[number]', page]];
			const what = 'list workspaces';
			const request = { method: 'GET' as const, path: '/api/v1/workspace_cards', query, what };
			const answer = await apiRequest(ctx, request, workspaceCardListEnvelope);
			const cards = answer.workspace_cards as IDataObject[];
			return pageOf(ctx, fault, page, cards, answer.meta?.next_page);
		},
		take: (answer) => {
			all.push(...answer.records);
		},
	});
	return all;
}

/** Registers one webhook (`rest_hooks`); answers its id. The service keeps no list to read back. */
export async function createRestHook(
	ctx: TransportContext,
	hook: IDataObject,
	options: CallOptions = {},
): Promise<string> {
	const what = `register the webhook for ${String(hook.event)}`;
	const path = '/api/v1/rest_hooks';
	const request = { method: 'POST' as const, path, fields: hook, what, ...options };
	const record = await recordRequest(ctx, 'rest_hook', request, restHookEnvelope);
	return String(record.id);
}

export async function deleteRestHook(
	ctx: TransportContext,
	id: string,
	options: CallOptions = {},
): Promise<void> {
	const what = `remove the webhook ${id}`;
	await apiRequest(ctx, { method: 'DELETE', path: `/api/v1/rest_hooks/${id}`, what, ...options });
}

type ListAnswer<K extends string> = Record<K, unknown[]> & {
	meta?: { next_page?: number | null } | null;
};

export interface WorkspaceList<K extends string> {
	path: string;
	/** The key of the answer that holds the records, e.g. `snippets`. */
	key: K;
	/** The field of a record that names its workspace (`workspace_id`, `app_id`). */
	workspaceKey: string;
	/** The call, for messages: "list snippets". */
	what: string;
	/** The list, for the error of one that does not end: "snippet list". */
	name: string;
	schema: z.ZodType<ListAnswer<K>, z.ZodTypeDef, unknown>;
}

/** Every record of a workspace: `page=all`, `next_page` followed anyway; others dropped. */
export async function listInWorkspace<K extends string>(
	ctx: TransportContext,
	list: WorkspaceList<K>,
	workspaceId: string,
	options: CallOptions = {},
): Promise<IDataObject[]> {
	const records: IDataObject[] = [];
	const fault = { reader: 'library' as const, list: list.name, itemIndex: options.itemIndex };
	await readPages(ctx, {
		...fault,
		fetchPage: async (page, read) => {
			const query: Query = [['q[workspace_id]', workspaceId]];
			query.push(read === 1 ? ['page', 'all'] : ['page[number]', page]);
			const { path, what } = list;
			const request = { method: 'GET' as const, path, query, what, ...options };
			const answer = await apiRequest(ctx, request, list.schema);
			return pageOf(ctx, fault, page, answer[list.key] as IDataObject[], answer.meta?.next_page);
		},
		take: (answer) => {
			records.push(...answer.records);
		},
	});
	const wanted = workspaceId.toLowerCase();
	return records.filter((r) => {
		const owner = r[list.workspaceKey];
		return !owner || String(owner).toLowerCase() === wanted;
	});
}

/** A REST resource kept per workspace: its record under `key`, and its workspace's list. */
export interface WorkspaceResource<K extends string, L extends string> {
	key: K;
	path: string;
	/** For messages: "get snippet …", "create a snippet". */
	noun: string;
	schema: Envelope<K>;
	list: Omit<WorkspaceList<L>, 'path'>;
}

/** get/create/update/remove of one record, and `list` of a workspace's records. */
export function workspaceResource<K extends string, L extends string>(
	resource: WorkspaceResource<K, L>,
) {
	const list = { path: resource.path, ...resource.list };
	return {
		...restResource(resource.key, resource.path, resource.noun, resource.schema),
		list: async (ctx: TransportContext, workspaceId: string, options: CallOptions = {}) =>
			await listInWorkspace(ctx, list, workspaceId, options),
	};
}

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

const folders = workspaceResource({
	key: 'template_folder',
	path: '/api/v1/template_folders',
	noun: 'template folder',
	schema: templateFolderEnvelope,
	list: {
		key: 'template_folders',
		workspaceKey: 'app_id',
		what: 'list template folders',
		name: 'template folder list',
		schema: templateFolderListEnvelope,
	},
});
export const getTemplateFolder = folders.get;
export const createTemplateFolder = folders.create;
export const updateTemplateFolder = folders.update;
export const deleteTemplateFolder = folders.remove;
/** Every template folder of a workspace (the service lists none without one). */
export const listTemplateFolders = folders.list;

/** The PDF engines a template can render with (`GET /api/v1/pdf_engines`, not paged). */
export async function listPdfEngines(
	ctx: TransportContext,
	options: CallOptions = {},
): Promise<IDataObject[]> {
	const what = 'list PDF engines';
	const request = { method: 'GET' as const, path: '/api/v1/pdf_engines', what, ...options };
	const answer = await apiRequest(ctx, request, pdfEngineListEnvelope);
	return answer.pdf_engines as IDataObject[];
}
