import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { snippetIdLocator } from '../../../shared/descriptions';
import { withoutSecrets } from '../../../shared/helpers/document';
import { CONCURRENCY, paired, perItem } from '../../../shared/helpers/items';
import { getSnippet } from '../../../shared/transport';
import { readSnippetId } from '../ids';

export const properties: INodeProperties[] = [
	{
		...snippetIdLocator,
		description: 'The snippet to get: pick it from the list, or enter its ID',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['snippet'], operation: ['get'] } },
	properties,
);

export const execute = perItem(
	readSnippetId,
	async (ctx, id, i) => paired(withoutSecrets(await getSnippet(ctx, id, { itemIndex: i })), i),
	CONCURRENCY,
);
