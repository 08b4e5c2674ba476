/** Workspace names, the workspace the node has chosen, and library lists by workspace. */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { isUuid } from '../helpers/parse';
import type { TransportContext } from '../types';
import { listWorkspaceCards } from '../transport';
import { libraryLabel, matchesTyped, workspaceNames } from './labels';

/** Workspaces whose lists are asked for at once when no workspace is chosen. */
const WORKSPACES_AT_ONCE = 4;
type WorkspaceLister = (ctx: TransportContext, workspaceId: string) => Promise<IDataObject[]>;

/** Workspace names by id; an empty map when they cannot be read (they only decorate). */
export async function workspaceNamesOrNone(ctx: TransportContext): Promise<Map<string, string>> {
	try {
		return workspaceNames(await listWorkspaceCards(ctx));
	} catch {
		return new Map();
	}
}

/** The workspace the node has chosen (the first UUID at `paths`, from the parameters' root). */
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
	const named = async ([id, workspace]: [string, string]) =>
		(await list(ctx, id)).map((record) => ({ record, workspace }));
	// A few workspaces at a time: an account with many does not send them all at once.
	for (let start = 0; start < workspaces.length; start += WORKSPACES_AT_ONCE) {
		const batch = workspaces.slice(start, start + WORKSPACES_AT_ONCE);
		found.push(...(await Promise.all(batch.map(named))).flat());
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
		.filter(({ record: r, workspace }) => matchesTyped(r.id, [r.identifier, workspace], filter))
		.map(({ record: r, workspace }) => ({ name: libraryLabel(r, workspace), value: String(r.id) }))
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}
