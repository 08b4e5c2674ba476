/** How records are named and matched in the editor's lists. Pure. */
import type { IDataObject } from 'n8n-workflow';

import { metaObject } from '../helpers/document';

const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The UUID in what the user typed or pasted (a bare id, or a URL or text holding one), lower-cased. */
export function uuidIn(text: string | undefined): string | undefined {
	return text ? UUID_ANYWHERE.exec(text)?.[0].toLowerCase() : undefined;
}

function text(value: unknown): string {
	return typeof value === 'string' ? value.trim() : '';
}

export function workspaceNames(workspaces: IDataObject[]): Map<string, string> {
	return new Map(workspaces.map((w) => [String(w.id), text(w.identifier) || String(w.id)]));
}

/** `Billing / invoice (Acme Billing)`: folder, identifier, workspace, output type unless PDF. */
export function templateLabel(template: IDataObject, workspace?: string): string {
	const identifier = text(template.identifier) || String(template.id);
	const folder = text(template.template_folder_identifier);
	const outputType = text(template.output_type);
	const extras = [workspace, outputType !== 'pdf' ? outputType : ''].filter(Boolean);
	return `${folder ? `${folder} / ` : ''}${identifier}${extras.length ? ` (${extras.join(', ')})` : ''}`;
}

/** Whether an entry matches what was typed: a pasted id that entry only, else every word. */
export function matchesTyped(id: unknown, texts: unknown[], filter: string | undefined): boolean {
	const typed = text(filter).toLowerCase();
	if (!typed) return true;
	const own = String(id).toLowerCase();
	const pastedId = uuidIn(typed);
	if (pastedId) return own === pastedId;
	const haystack = [...texts, own].map((part) => text(part).toLowerCase()).join('\n');
	return typed.split(/\s+/).every((word) => haystack.includes(word));
}

/** Whether a template matches what the user typed: its identifier, folder, workspace name or id. */
export function templateMatches(
	template: IDataObject,
	workspace: string | undefined,
	filter: string | undefined,
): boolean {
	const texts = [template.identifier, template.template_folder_identifier, workspace];
	return matchesTyped(template.id, texts, filter);
}

/** Workspaces as list entries, sorted by name. */
export function workspaceOptions(
	names: Map<string, string>,
): Array<{ name: string; value: string }> {
	return [...names]
		.map(([id, name]) => ({ name, value: id }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/** `2026-01-31 09:00 UTC` from an API date; the raw text when it cannot be read. */
export function shortDate(value: unknown): string | undefined {
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const ms = Date.parse(value);
	if (!Number.isFinite(ms)) return value.trim();
	return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * `invoice-2026-001.pdf (success · invoice · 2026-01-31 09:00 UTC)`; `filename` only with
 * `success` (the service may fill it in earlier), else `meta._filename`, else the id.
 */
export function documentLabel(card: IDataObject): string {
	const filename = card.status === 'success' ? text(card.filename) : '';
	const name = filename || text(metaObject(card.meta)._filename) || String(card.id);
	const details = [
		text(card.status) || 'unknown status',
		text(card.document_template_identifier),
		shortDate(card.updated_at),
	];
	return `${name} (${details.filter(Boolean).join(' · ')})`;
}

/** `company-footer (Acme Billing)`: the name, then the workspace when several are listed. */
export function libraryLabel(record: IDataObject, workspace?: string): string {
	const name = text(record.identifier) || String(record.id);
	return workspace ? `${name} (${workspace})` : name;
}

/** `v3 (deprecated on 2026-01-31)`: an engine's name, and its deprecation date when it has one. */
export function pdfEngineLabel(engine: IDataObject): string {
	const version = engine.version ?? undefined;
	const name =
		text(engine.name) || (version !== undefined ? `v${String(version)}` : String(engine.id));
	const deprecated = shortDate(engine.deprecated_on)?.replace(/ 00:00 UTC$/, '');
	return deprecated ? `${name} (deprecated on ${deprecated})` : name;
}
