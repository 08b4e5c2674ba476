import type { IDataObject, INodeProperties } from 'n8n-workflow';

import {
	returnAllAndLimit,
	templateIdsFilter,
	workspaceIdFilter,
} from '../../../shared/descriptions';
import { normalizeDocument } from '../../../shared/helpers/document';
import { paired, perItem } from '../../../shared/helpers/items';
import { parseListFilters } from '../../../shared/helpers/parse';
import { checkPageBound, listDocumentCards } from '../../../shared/transport';
import { readLimit, shownFor } from '../common';
import { collection } from '../../descriptions/payloadParts';
import { DOCUMENT_STATUSES, parseSearchFilters } from '../../descriptions/documentOptions';

export const properties: INodeProperties[] = [
	...returnAllAndLimit,
	collection('Filters', 'filters', 'Add Filter', [
		{ ...workspaceIdFilter },
		{ ...templateIdsFilter },
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: [
				{ name: 'Draft', value: 'draft' },
				{ name: 'Failure', value: 'failure' },
				{ name: 'Success', value: 'success' },
			],
			default: 'success',
			description:
				'Only documents with this status. To ask for several (or for pending and generating documents), use Statuses.',
		},
		{
			displayName: 'Statuses',
			name: 'statuses',
			type: 'multiOptions',
			options: DOCUMENT_STATUSES,
			default: [],
			description: 'Only documents with one of these statuses (with Status as well: any of them)',
		},
		{
			displayName: 'Search',
			name: 'search',
			type: 'string',
			default: '',
			placeholder: 'e.g. invoice-2026',
			description:
				'Only documents whose file name contains this text (case-sensitive: "Invoice" does not find "invoice"), or the document with this exact ID',
		},
		{
			displayName: 'Updated Since',
			name: 'updatedSince',
			type: 'dateTime',
			default: '',
			description: 'Only documents changed after this date and time (to the second)',
		},
	]),
];

export const description = shownFor('document', 'getAll', properties);

export const execute = perItem(
	(ctx, i) => {
		const limit = readLimit(ctx, i);
		const raw = ctx.getNodeParameter('filters', i, {}) as IDataObject;
		const filters = { ...parseListFilters(raw), ...parseSearchFilters(raw) };
		return { limit, filters };
	},
	async (ctx, { limit, filters }, i) => {
		const seen = new Set<string>();
		const documents: IDataObject[] = [];
		const call = { itemIndex: i, reader: 'getAll' as const };
		// No page is read beyond what the limit needs, and none beyond the shared bound.
		let pages = 0;
		for (let page: number | null = 1; page !== null && documents.length < limit; pages++) {
			checkPageBound(ctx, pages, call);
			const answer = await listDocumentCards(ctx, filters, page, call);
			for (const card of answer.cards) {
				// Paging by number can repeat a card when the list shifts between pages.
				if (seen.has(String(card.id)) || documents.length >= limit) continue;
				seen.add(String(card.id));
				documents.push(normalizeDocument(card));
			}
			page = answer.nextPage;
		}
		return paired(documents, i);
	},
);
