import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	returnAllAndLimit,
	templateIdsFilter,
	workspaceIdFilter,
} from '../../../shared/descriptions';
import { normalizeDocument } from '../../../shared/helpers/document';
import { paired, perItem } from '../../../shared/helpers/items';
import { parseListFilters } from '../../../shared/helpers/parse';
import { listDocumentCards } from '../../../shared/transport';
import { readLimit } from '../ids';

export const properties: INodeProperties[] = [
	...returnAllAndLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
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
				description: 'Only documents with this status',
			},
			{
				displayName: 'Updated Since',
				name: 'updatedSince',
				type: 'dateTime',
				default: '',
				description: 'Only documents changed after this date and time (to the second)',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['getAll'] } },
	properties,
);

export const execute = perItem(
	(ctx, i) => {
		const limit = readLimit(ctx, i);
		const filters = parseListFilters(ctx.getNodeParameter('filters', i, {}));
		return { limit, filters };
	},
	async (ctx, { limit, filters }, i) => {
		const seen = new Set<string>();
		const documents: IDataObject[] = [];
		// 24 cards a page: no page is read beyond what the limit needs.
		for (let page: number | null = 1; page !== null && documents.length < limit; ) {
			const answer = await listDocumentCards(ctx, filters, page, { itemIndex: i });
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
