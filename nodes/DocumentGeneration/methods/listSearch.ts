import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { listDocumentCards, listTemplateCards, listWorkspaceCards } from '../../shared/transport/documents';

function matches(text: unknown, filter?: string): boolean {
	if (!filter) return true;
	return String(text ?? '').toLowerCase().includes(filter.trim().toLowerCase());
}

/** Templates by name (identifier), narrowed as the user types, with their workspace. */
export async function searchTemplates(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const [templates, workspaces] = await Promise.all([listTemplateCards(this), listWorkspaceCards(this)]);
	const workspaceName = new Map(workspaces.map((w) => [String(w.id), String(w.identifier ?? w.id)]));
	const results = templates
		.filter((t) => matches(t.identifier, filter) || matches(t.id, filter))
		.map((t: IDataObject) => ({
			name: `${String(t.identifier ?? t.id)}${t.app_id ? ` (${workspaceName.get(String(t.app_id)) ?? String(t.app_id)})` : ''}`,
			value: String(t.id),
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}

/** Recent documents, narrowed by id or file name as the user types (`q[search]`). */
export async function searchDocuments(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const page = Number(paginationToken) > 0 ? Number(paginationToken) : 1;
	const { cards, nextPage } = await listDocumentCards(this, { search: filter?.trim() || undefined }, page);
	const results = cards.map((card) => {
		const label = card.filename ? String(card.filename) : String(card.id);
		const template = card.document_template_identifier ? ` · ${String(card.document_template_identifier)}` : '';
		const date = typeof card.updated_at === 'string' ? ` · ${card.updated_at.slice(0, 16).replace('T', ' ')}` : '';
		return { name: `${label} (${String(card.status)}${template}${date})`, value: String(card.id) };
	});
	return { results, paginationToken: nextPage ? String(nextPage) : undefined };
}
