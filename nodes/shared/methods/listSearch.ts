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

/**
 * Every template (one request, `page=all`), narrowed here as the user types: by identifier,
 * folder or workspace name, or by a pasted id. Each shows its workspace.
 */
export async function searchTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const [templates, names] = await Promise.all([
		listTemplateCards(this),
		workspaceNamesOrNone(this),
	]);
	const results = templates
		.map((template: IDataObject) => {
			const workspace = template.app_id ? names.get(String(template.app_id)) : undefined;
			return { template, workspace };
		})
		.filter(({ template, workspace }) => templateMatches(template, workspace, filter))
		.map(({ template, workspace }) => ({
			name: templateLabel(template, workspace),
			value: String(template.id),
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}

/**
 * Documents, up to 100 a page as the service lists them, narrowed by the service (`q[search]`:
 * part of the file name, or the id; a pasted URL holding an id searches for that id). The
 * pagination token is the next page number; the list stops offering more at the shared bound.
 */
export async function searchDocuments(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page =
		/^\d+$/.test(paginationToken ?? '') && Number(paginationToken) > 0
			? Number(paginationToken)
			: 1;
	const search = uuidIn(filter) ?? (filter?.trim() || undefined);
	checkPageBound(this, page - 1, PICKER);
	const { cards, nextPage } = await listDocumentCards(this, { search }, page, PICKER);
	const results = cards.map((card) => ({ name: documentLabel(card), value: String(card.id) }));
	return { results, paginationToken: nextPage ? String(nextPage) : undefined };
}

/** Workspaces by name (one or a few requests), narrowed here as the user types (name or id). */
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
