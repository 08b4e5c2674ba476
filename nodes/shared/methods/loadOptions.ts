/** Option lists: the workspace and template filters, and Template Fields' folder and PDF engine. */
import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import {
	listPdfEngines,
	listTemplateCards,
	listTemplateFolders,
	listWorkspaceCards,
} from '../transport';
import { pdfEngineLabel, templateLabel, workspaceNames, workspaceOptions } from './labels';
import { chosenWorkspace, searchLibrary, workspaceNamesOrNone } from './workspaces';

/**
 * Workspaces by name, after "All Workspaces" (the filter's default, the empty value): the
 * editor marks a value missing from the list as "not supported", so the default must be in it.
 */
export async function getWorkspaces(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const workspaces = workspaceOptions(workspaceNames(await listWorkspaceCards(this)));
	return [{ name: 'All Workspaces', value: '' }, ...workspaces];
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

/**
 * Template Fields → Folder: "No Folder" (the field's default, the empty value: the editor marks
 * a value missing from the list as "not supported"), then the folders of the chosen workspace
 * (or of all), by name.
 */
export async function getTemplateFolders(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const folders = (await searchLibrary(this, listTemplateFolders)).results;
	return [{ name: 'No Folder', value: '' }, ...folders.map(({ name, value }) => ({ name, value }))];
}

/**
 * Template Fields → PDF Engine: "The Service's Default" (the field's default, the empty value:
 * nothing is sent), then the service's engines, the supported ones first (newest version
 * first), the deprecated ones after them, marked with their date.
 */
export async function getPdfEngines(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const engines = await listPdfEngines(this);
	const rank = (e: IDataObject) => (e.deprecated_on ? 1 : 0);
	const version = (e: IDataObject) => Number(e.version) || 0;
	const listed = [...engines]
		.sort((a, b) => rank(a) - rank(b) || version(b) - version(a))
		.map((engine) => ({
			name: pdfEngineLabel(engine),
			value: String(engine.id),
			description: engine.deprecated_on
				? 'Deprecated: templates rendering with it should move to a supported engine'
				: undefined,
		}));
	return [
		{
			name: "The Service's Default",
			value: '',
			description:
				'Nothing is sent: a new template gets the default engine, an update keeps its engine',
		},
		...listed,
	];
}
