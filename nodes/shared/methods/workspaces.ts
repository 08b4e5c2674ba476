/** Workspace names for the labels of the template lists and for messages (not a method n8n calls). */
import type { TransportContext } from '../types';

import { listWorkspaceCards } from '../transport';
import { workspaceNames } from './labels';

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
