/**
 * What a delivery's body holds, told by its shape (the service puts no event name in it), and
 * the output items made from it. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import { timeOf } from '../shared/helpers/dates';
import { normalizeDocument } from '../shared/helpers/document';
import { parseJsonLoose } from '../shared/helpers/json';
import { QUOTA_WARNING_EVENT } from './settings';

export type DeliveryBody =
	| { kind: 'document'; document: IDataObject }
	| { kind: 'quotaWarning'; figures: IDataObject }
	| { kind: 'unknown' };

/** The figures of a quota warning, in the order the service sends them. */
const QUOTA_FIGURES = ['period_start', 'period_end', 'available_documents', 'threshold'] as const;

const isObject = (value: unknown): value is IDataObject =>
	!!value && typeof value === 'object' && !Array.isArray(value);

/**
 * A delivery's kind: `{"document": {…}}` is a document event (its status says which); a body
 * without `document` that holds a quota warning's figures is a quota warning.
 */
export function deliveryBody(body: unknown): DeliveryBody {
	const parsed = parseJsonLoose(body);
	if (!isObject(parsed)) return { kind: 'unknown' };
	if ('document' in parsed) {
		return isObject(parsed.document)
			? { kind: 'document', document: parsed.document }
			: { kind: 'unknown' };
	}
	if (QUOTA_FIGURES.some((name) => name in parsed))
		return { kind: 'quotaWarning', figures: parsed };
	return { kind: 'unknown' };
}

/** A quota warning as an item: the event's name and its four figures (null when absent). */
export function quotaWarningItem(figures: IDataObject): IDataObject {
	const item: IDataObject = { event: QUOTA_WARNING_EVENT };
	for (const name of QUOTA_FIGURES) item[name] = figures[name] ?? null;
	return item;
}

/**
 * A document as an item (`normalizeDocument`: meta as an object, a `null` payload as `{}`),
 * and the file name only when the document succeeded (the service may name a file
 * before it exists, or for a generation that failed).
 */
export function documentItem(document: IDataObject): IDataObject {
	const json = normalizeDocument(document);
	if ('filename' in json && json.status !== 'success') json.filename = null;
	return json;
}

/** An `updated_at` (ISO text, or ms) as ms since the epoch; undefined when it is not a time. */
export function updatedAtMs(value: unknown): number | undefined {
	if (typeof value !== 'number') return timeOf(value);
	return Number.isFinite(value) ? value : undefined;
}
