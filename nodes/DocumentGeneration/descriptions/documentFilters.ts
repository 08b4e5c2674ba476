/** Get Many's filters beyond the contract's: several statuses, and part of a file name. */
import type { IDataObject } from 'n8n-workflow';

import { InputError, preview } from '../../shared/helpers/parse';
import type { ListFilters } from '../../shared/types';

/** Every status a document passes through, as the list filters them (`q[status]`). */
export const DOCUMENT_STATUSES = [
	{ name: 'Draft', value: 'draft' },
	{ name: 'Failure', value: 'failure' },
	{ name: 'Generating', value: 'generating' },
	{ name: 'Pending', value: 'pending' },
	{ name: 'Success', value: 'success' },
];

const STATUS_VALUES = DOCUMENT_STATUSES.map((status) => status.value);

/** The longest search text sent: a file name, or an ID. */
const MAX_SEARCH_LENGTH = 255;

function parseStatuses(value: unknown): string[] {
	if (value === undefined || value === null || value === '') return [];
	const list = Array.isArray(value) ? value : String(value).split(',');
	const statuses = list.map((status) => String(status).trim()).filter(Boolean);
	const unknown = statuses.find((status) => !STATUS_VALUES.includes(status));
	if (unknown !== undefined) {
		throw new InputError(
			`The status "${preview(unknown)}" in Statuses is not one the list accepts`,
			`Use ${STATUS_VALUES.join(', ')}`,
		);
	}
	return [...new Set(statuses)];
}

function parseSearch(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string' && typeof value !== 'number') {
		throw new InputError(
			`The Search filter must be text, not ${preview(value)}`,
			'Give part of a file name, or a document ID',
		);
	}
	const text = String(value).trim();
	if (text.length > MAX_SEARCH_LENGTH) {
		throw new InputError(
			`The Search filter is ${text.length} characters long`,
			`Give part of a file name or a document ID (${MAX_SEARCH_LENGTH} characters at most)`,
		);
	}
	return text || undefined;
}

/** `filters.statuses` and `filters.search` of Get Many, checked. */
export function parseSearchFilters(raw: IDataObject): Pick<ListFilters, 'statuses' | 'search'> {
	const filters: Pick<ListFilters, 'statuses' | 'search'> = {};
	const statuses = parseStatuses(raw.statuses);
	if (statuses.length) filters.statuses = statuses;
	const search = parseSearch(raw.search);
	if (search !== undefined) filters.search = search;
	return filters;
}
