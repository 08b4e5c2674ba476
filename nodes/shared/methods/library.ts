/**
 * The editor's lists of a workspace's library: snippets and template folders (list modes of
 * their locators, and the folder option of Template Fields), and the PDF engines a template
 * renders with. Snippets and folders are listed per workspace (the service lists none without
 * one): of the workspace the node has chosen, or else of every workspace, each entry naming
 * its workspace.
 */
import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';

import { isUuid } from '../helpers/parse';
import type { TransportContext } from '../types';
import {
	listPdfEngines,
	listSnippets,
	listTemplateFolders,
	listWorkspaceCards,
} from '../transport';
import { matchesTyped, shortDate, workspaceNames } from './labels';

/** Workspaces whose lists are asked for at once when no workspace is chosen. */
const WORKSPACES_AT_ONCE = 4;

type WorkspaceLister = (ctx: TransportContext, workspaceId: string) => Promise<IDataObject[]>;

/** The workspace the node has chosen (its Workspace locator), when it is a UUID. */
function chosenWorkspace(ctx: ILoadOptionsFunctions): string | undefined {
	let value: unknown;
	try {
		value = ctx.getCurrentNodeParameter('workspaceId');
	} catch {
		return undefined;
	}
	if (value && typeof value === 'object' && 'value' in value)
		value = (value as { value: unknown }).value;
	const id = typeof value === 'string' ? value.trim() : value;
	return isUuid(id) ? id.toLowerCase() : undefined;
}

/** Records of the chosen workspace, or of every workspace, each with its workspace's name. */
async function recordsByWorkspace(
	ctx: ILoadOptionsFunctions,
	list: WorkspaceLister,
): Promise<Array<{ record: IDataObject; workspace?: string }>> {
	const chosen = chosenWorkspace(ctx);
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

/** `company-footer (Acme Billing)`: the name, then the workspace when several are listed. */
export function libraryLabel(record: IDataObject, workspace?: string): string {
	const name =
		typeof record.identifier === 'string' && record.identifier.trim() !== ''
			? record.identifier.trim()
			: String(record.id);
	return workspace ? `${name} (${workspace})` : name;
}

async function searchLibrary(
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

/** Snippets by name (of the chosen workspace, or of all), narrowed as the user types. */
export async function searchSnippets(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await searchLibrary(this, listSnippets, filter);
}

/** Template folders by name (of the chosen workspace, or of all), narrowed as the user types. */
export async function searchTemplateFolders(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	return await searchLibrary(this, listTemplateFolders, filter);
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

/** `v3 (deprecated on 2026-01-31)`: an engine's name, and its deprecation date when it has one. */
export function pdfEngineLabel(engine: IDataObject): string {
	const name =
		typeof engine.name === 'string' && engine.name.trim() !== ''
			? engine.name.trim()
			: engine.version !== undefined && engine.version !== null
				? `v${String(engine.version)}`
				: String(engine.id);
	const deprecated = shortDate(engine.deprecated_on)?.replace(/ 00:00 UTC$/, '');
	return deprecated ? `${name} (deprecated on ${deprecated})` : name;
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
