import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { snippetIdLocator } from '../../../shared/descriptions';
import { CONCURRENCY, paired, perItem } from '../../../shared/helpers/items';
import { deleteSnippet } from '../../../shared/transport';
import { readSnippetId } from '../ids';

export const properties: INodeProperties[] = [
	{
		...snippetIdLocator,
		description:
			'The snippet to delete: pick it from the list, or enter its ID. Templates that include it no longer find it.',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['snippet'], operation: ['delete'] } },
	properties,
);

export const execute = perItem(
	readSnippetId,
	async (ctx, id, i) => {
		await deleteSnippet(ctx, id, { itemIndex: i });
		return paired({ deleted: true, id }, i);
	},
	CONCURRENCY,
);
