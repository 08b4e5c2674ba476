/** The `list` modes of the resource locators: templates, documents, workspaces, snippets, folders. */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import {
	checkPageBound,
	listDocumentCards,
	listSnippets,
	listTemplateCards,
	listTemplateFolders,
	listWorkspaceCards,
} from '../transport';
import {
	documentLabel,
	matchesTyped,
	templateLabel,
	templateMatches,
	uuidIn,
	workspaceNames,
	workspaceOptions,
} from './labels';
import { searchLibrary, workspaceNamesOrNone } from './workspaces';

const PICKER = { reader: 'picker' } as const;

/** Every template, narrowed here as the user types (name, folder, workspace or id). */
export async function searchTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const [templates, names] = await Promise.all([
		listTemplateCards(this),
		workspaceNamesOrNone(this),
	]);
	const workspaceOf = (t: IDataObject) => (t.app_id ? names.get(String(t.app_id)) : undefined);
	const results = templates
		.filter((t) => templateMatches(t, workspaceOf(t), filter))
		.map((t) => ({ name: templateLabel(t, workspaceOf(t)), value: String(t.id) }))
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}

/** Documents, a page at a time (the token is its number), narrowed by the service (`q[search]`). */
export async function searchDocuments(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const token = /^\d+$/.test(paginationToken ?? '') ? Number(paginationToken) : 0;
	const page = token > 0 ? token : 1;
	const search = uuidIn(filter) ?? (filter?.trim() || undefined);
	checkPageBound(this, page - 1, PICKER);
	const { cards, nextPage } = await listDocumentCards(this, { search }, page, PICKER);
	const results = cards.map((card) => ({ name: documentLabel(card), value: String(card.id) }));
	return { results, paginationToken: nextPage ? String(nextPage) : undefined };
}

/** Workspaces by name, narrowed here as the user types (name or id). */
export async function searchWorkspaces(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const options = workspaceOptions(workspaceNames(await listWorkspaceCards(this)));
	return { results: options.filter((o) => matchesTyped(o.value, [o.name], filter)) };
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
