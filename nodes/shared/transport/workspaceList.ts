/**
 * Reading every record of one workspace from a list that needs `q[workspace_id]` (snippets,
 * template folders): one request with `page=all`, which the service answers with the whole
 * list; should it page the list anyway, its `next_page` is followed, within a bound.
 */
import type { IDataObject } from 'n8n-workflow';
import type { z } from 'zod';

import type { CallOptions, TransportContext } from '../types';
import type { Query } from './calls';
import { MAX_LIST_PAGES, nextPageAfter, unendingListError } from './paging';
import type { Envelope } from './records';
import { restResource } from './records';
import { apiRequest } from './request';

type ListAnswer<K extends string> = Record<K, unknown[]> & {
	meta?: { next_page?: number | null } | null;
};

export interface WorkspaceList<K extends string> {
	/** The list's path, e.g. `/api/v1/snippets`. */
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

/**
 * Every record of the workspace, in the service's order. Records of another workspace are
 * dropped here, should the service ignore the filter.
 */
export async function listInWorkspace<K extends string>(
	ctx: TransportContext,
	list: WorkspaceList<K>,
	workspaceId: string,
	options: CallOptions = {},
): Promise<IDataObject[]> {
	const records: IDataObject[] = [];
	const fault = { reader: 'library' as const, list: list.name, itemIndex: options.itemIndex };
	let page = 1;
	for (let read = 1; ; read++) {
		if (read > MAX_LIST_PAGES)
			throw unendingListError(ctx.getNode(), { ...fault, pages: MAX_LIST_PAGES });
		const query: Query = [['q[workspace_id]', workspaceId]];
		query.push(read === 1 ? ['page', 'all'] : ['page[number]', page]);
		const answer = await apiRequest(
			ctx,
			{ method: 'GET', path: list.path, query, what: list.what, ...options },
			list.schema,
		);
		const found = answer[list.key] as IDataObject[];
		records.push(...found);
		const next = nextPageAfter(page, answer.meta?.next_page, found.length);
		if (next === null) break;
		if (typeof next === 'object')
			throw unendingListError(ctx.getNode(), {
				...fault,
				pages: read,
				backwards: { page, next: next.backwards },
			});
		page = next;
	}
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
