import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { documentIdLocator } from '../../../shared/descriptions';
import { CONCURRENCY, paired, perItem } from '../../../shared/helpers/items';
import { deleteDocument } from '../../../shared/transport';
import { readDocumentId } from '../ids';

export const properties: INodeProperties[] = [
	{
		...documentIdLocator,
		description:
			'The document to delete, with its file: pick it from the list, or enter its ID (a UUID)',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['delete'] } },
	properties,
);

export const execute = perItem(
	readDocumentId,
	async (ctx, id, i) => {
		await deleteDocument(ctx, id, { itemIndex: i });
		return paired({ deleted: true, id }, i);
	},
	CONCURRENCY,
);
