/**
 * Reading per workspace for the editor's lists and messages: workspace names, the workspace the
 * node has chosen, and a library list (snippets, template folders) of it or of every workspace.
 */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { isUuid } from '../helpers/parse';
import type { TransportContext } from '../types';
import { listWorkspaceCards } from '../transport';
import { libraryLabel, matchesTyped, workspaceNames } from './labels';

/** Workspaces whose lists are asked for at once when no workspace is chosen. */
const WORKSPACES_AT_ONCE = 4;

type WorkspaceLister = (ctx: TransportContext, workspaceId: string) => Promise<IDataObject[]>;

/**
 * Workspace names by id. They only decorate lists and messages, so when they cannot be read
 * the ids stand in (an empty map) instead of failing what asked for them.
 */
export async function workspaceNamesOrNone(ctx: TransportContext): Promise<Map<string, string>> {
	try {
		return workspaceNames(await listWorkspaceCards(ctx));
	} catch {
		return new Map();
	}
}

/**
 * The workspace the node has chosen, if any: in its Filters collection (`filters.workspaceId`:
 * the action node's Get Many, the polling trigger) or as its own Workspace locator
 * (`workspaceId`: the webhook trigger). The editor sends the node's current parameters
 * (expressions resolved) and LoadOptionsContext reads them with a lodash path from the
 * parameters' root. Anything that is not a UUID (nothing chosen, an expression the editor
 * could not resolve) means "no workspace". `paths` are read in order.
 */
export function chosenWorkspace(
	ctx: ILoadOptionsFunctions,
	paths = ['filters.workspaceId', 'workspaceId'],
): string | undefined {
	for (const path of paths) {
		let value: unknown;
		try {
			value = ctx.getCurrentNodeParameter(path);
		} catch {
			continue;
		}
		if (value && typeof value === 'object' && 'value' in value)
			value = (value as { value: unknown }).value;
		const id = typeof value === 'string' ? value.trim() : value;
		if (isUuid(id)) return id.toLowerCase();
	}
	return undefined;
}

/** Records of the chosen workspace, or of every workspace, each with its workspace's name. */
async function recordsByWorkspace(
	ctx: ILoadOptionsFunctions,
	list: WorkspaceLister,
): Promise<Array<{ record: IDataObject; workspace?: string }>> {
	const chosen = chosenWorkspace(ctx, ['workspaceId']);
	if (chosen) return (await list(ctx, chosen)).map((record) => ({ record }));
	const workspaces = [...workspaceNames(await listWorkspaceCards(ctx))];
	const found: Array<{ record: IDataObject; workspace?: string }> = [];
	// A few workspaces at a time: an account with many does not send them all at once.
	for (let start = 0; start < workspaces.length; start += WORKSPACES_AT_ONCE) {
		const lists = await Promise.all(
			workspaces
				.slice(start, start + WORKSPACES_AT_ONCE)
				.map(async ([id, workspace]) =>
					(await list(ctx, id)).map((record) => ({ record, workspace })),
				),
		);
		found.push(...lists.flat());
	}
	return found;
}

/** Library records by name, of the Workspace locator's workspace or of all, as the user types. */
export async function searchLibrary(
	ctx: ILoadOptionsFunctions,
	list: WorkspaceLister,
	filter?: string,
): Promise<INodeListSearchResult> {
	const results = (await recordsByWorkspace(ctx, list))
		.filter(({ record, workspace }) =>
			matchesTyped(record.id, [record.identifier, workspace], filter),
		)
		.map(({ record, workspace }) => ({
			name: libraryLabel(record, workspace),
			value: String(record.id),
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}
