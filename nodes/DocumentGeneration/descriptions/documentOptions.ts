/** The Options of create and update (waiting, Unique Key) and Get Many's search filters. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { InputError, preview } from '../../shared/helpers/parse';
import type { ListFilters } from '../../shared/types';
import { DEFAULT_REUSE_HOURS } from '../engine';
import { collection } from './payloadParts';

export const waitOptions: INodeProperties = collection('Options', 'options', 'Add Option', [
	{
		displayName: 'Max Wait for Rate Limit (Seconds)',
		name: 'maxRateLimitWait',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 120,
		description:
			"The longest single wait for the service's request limit (429) the batch accepts. Every request of the run waits as long as the service asks, up to this; an item fails only when the service asks for more.",
	},
	{
		displayName: 'Wait Timeout (Seconds)',
		name: 'waitTimeout',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 300,
		description:
			"How long to wait for each document's generation before its item fails. Time held by the service's request limit does not count.",
	},
]);

/** Create's options: running again safely (a Unique Key), then waiting. */
export const createOptions: INodeProperties = {
	...waitOptions,
	options: [
		{
			displayName: 'Unique Key',
			name: 'uniqueKey',
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.invoice_number }}',
			description:
				"A value naming the record each item's document is for, such as an invoice number or payment ID. A document already made for the key (within the Reuse Window) is reused instead of made again, so running the batch again, or the same record arriving twice, makes no second document. Stored in the document's meta as n8n_key.",
			hint: 'Costs one pass over the list of the template’s recent documents per run',
		},
		{
			displayName: 'Reuse Window (Hours)',
			name: 'reuseWindow',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_REUSE_HOURS,
			description:
				"How far back to look for a key's document (by its last update). A longer window finds older documents but reads more of the list on a busy account.",
		},
		{
			displayName: "When the Key's Data Changed",
			name: 'keyConflict',
			type: 'options',
			options: [
				{
					name: 'Fail the Item',
					value: 'fail',
					description: "Make nothing and name the key's document in the item's error",
				},
				{
					name: 'Regenerate the Document',
					value: 'regenerate',
					description: "Update the key's document with this item's data and generate it again",
				},
			],
			default: 'fail',
			description:
				"What to do when the key's document was made with another payload or meta than this item's",
		},
		...(waitOptions.options as INodeProperties[]),
	],
};

/** Every status of a document, as the list filters them (`q[status]`). */
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
	if (unknown !== undefined)
		throw new InputError(
			`The status "${preview(unknown)}" in Statuses is not one the list accepts`,
			`Use ${STATUS_VALUES.join(', ')}`,
		);
	return [...new Set(statuses)];
}

function parseSearch(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string' && typeof value !== 'number')
		throw new InputError(
			`The Search filter must be text, not ${preview(value)}`,
			'Give part of a file name, or a document ID',
		);
	const text = String(value).trim();
	if (text.length > MAX_SEARCH_LENGTH)
		throw new InputError(
			`The Search filter is ${text.length} characters long`,
			`Give part of a file name or a document ID (${MAX_SEARCH_LENGTH} characters at most)`,
		);
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
