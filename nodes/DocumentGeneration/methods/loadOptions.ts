import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { isUuid } from '../../shared/helpers/parse';
import { listTemplateCards, listWorkspaceCards } from '../../shared/transport/documents';

/** Workspaces by name. */
export async function getWorkspaces(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const workspaces = await listWorkspaceCards(this);
	return workspaces
		.map((w) => ({ name: String(w.identifier ?? w.id), value: String(w.id) }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** Templates by name, of the chosen workspace when one is chosen. */
export async function getTemplates(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	let workspaceId: unknown;
	try {
		workspaceId = (this.getCurrentNodeParameter('filters') as IDataObject | undefined)?.workspaceId;
	} catch {
		workspaceId = undefined;
	}
	const templates = await listTemplateCards(this, isUuid(workspaceId) ? workspaceId : undefined);
	return templates
		.map((t) => ({ name: String(t.identifier ?? t.id), value: String(t.id) }))
		.sort((a, b) => a.name.localeCompare(b.name));
}
