/** Workspace names for the labels of the template lists (not a method n8n calls). */
import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { listWorkspaceCards } from '../transport';
import { workspaceNames } from './labels';

/**
 * Workspace names by id. They only decorate the lists, so when they cannot be read the
 * templates are still listed (without workspace names) instead of failing the whole list.
 */
export async function workspaceNamesOrNone(
	ctx: ILoadOptionsFunctions,
): Promise<Map<string, string>> {
	try {
		return workspaceNames(await listWorkspaceCards(ctx));
	} catch {
		return new Map();
	}
}
