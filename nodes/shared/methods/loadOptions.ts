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

/** Workspaces by name, after "All Workspaces" (the default: the editor flags values not listed). */
export async function getWorkspaces(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const workspaces = workspaceOptions(workspaceNames(await listWorkspaceCards(this)));
	return [{ name: 'All Workspaces', value: '' }, ...workspaces];
}

/** Templates by name: of the chosen workspace, or all of them, each with its workspace. */
export async function getTemplates(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const workspaceId = chosenWorkspace(this);
	const [templates, names] = await Promise.all([
		listTemplateCards(this, workspaceId),
		workspaceId ? Promise.resolve(new Map<string, string>()) : workspaceNamesOrNone(this),
	]);
	const workspaceOf = (t: IDataObject) => (workspaceId ? undefined : names.get(String(t.app_id)));
	return templates
		.map((t) => ({ name: templateLabel(t, workspaceOf(t)), value: String(t.id) }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** Template Fields → Folder: "No Folder" (the default), then the folders by name. */
export async function getTemplateFolders(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const folders = (await searchLibrary(this, listTemplateFolders)).results;
	return [{ name: 'No Folder', value: '' }, ...folders.map(({ name, value }) => ({ name, value }))];
}

/** Template Fields → PDF Engine: the default (nothing sent), supported engines newest first. */
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
	const description =
		'Nothing is sent: a new template gets the default engine, an update keeps its engine';
	return [{ name: "The Service's Default", value: '', description }, ...listed];
}
