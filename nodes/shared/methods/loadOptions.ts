/** Option lists of the filters (`filters.workspaceId`, `filters.templateIds`) of both nodes. */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { isUuid } from '../helpers/parse';
import { listTemplateCards, listWorkspaceCards } from '../transport';
import { templateLabel, workspaceNames, workspaceOptions } from './labels';
import { workspaceNamesOrNone } from './workspaces';

/**
 * Workspaces by name, after "All Workspaces" (the filter's default, the empty value): the
 * editor marks a value missing from the list as "not supported", so the default must be in it.
 */
export async function getWorkspaces(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const workspaces = workspaceOptions(workspaceNames(await listWorkspaceCards(this)));
	return [{ name: 'All Workspaces', value: '' }, ...workspaces];
}

/**
 * The workspace the node has chosen, if any: in its Filters collection (`filters.workspaceId`:
 * the action node's Get Many, the polling trigger) or as its own Workspace locator
 * (`workspaceId`: the webhook trigger). The editor sends the node's current parameters
 * (expressions resolved) and LoadOptionsContext reads them with a lodash path from the
 * parameters' root. Anything that is not a UUID (nothing chosen, an expression the editor
 * could not resolve) means "no workspace".
 */
function chosenWorkspace(ctx: ILoadOptionsFunctions): string | undefined {
	for (const path of ['filters.workspaceId', 'workspaceId']) {
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

/**
 * Templates by name. With a workspace chosen, only that workspace's templates (asked of the
 * service with `q[workspace_id]`); otherwise all of them, each with its workspace.
 */
export async function getTemplates(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const workspaceId = chosenWorkspace(this);
	const [templates, names] = await Promise.all([
		listTemplateCards(this, workspaceId),
		workspaceId ? Promise.resolve(new Map<string, string>()) : workspaceNamesOrNone(this),
	]);
	return templates
		.map((t) => ({
			name: templateLabel(t, workspaceId ? undefined : names.get(String(t.app_id))),
			value: String(t.id),
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
}

export { getPdfEngines, getTemplateFolders } from './library';
