import type { INodeProperties } from 'n8n-workflow';

import { snippetIdLocator } from '../../../shared/descriptions';
import { withoutSecrets } from '../../../shared/helpers/document';
import { CONCURRENCY, paired, perItem } from '../../../shared/helpers/items';
import { updateSnippet } from '../../../shared/transport';
import { readSnippetId, shownFor } from '../common';
import { readSnippetChanges, snippetFields } from '../../descriptions/library';

export const properties: INodeProperties[] = [
	{
		...snippetIdLocator,
		description: 'The snippet to change: pick it from the list, or enter its ID',
	},
	snippetFields,
];

export const description = shownFor('snippet', 'update', properties);

export const execute = perItem(
	(ctx, i) => ({ id: readSnippetId(ctx, i), fields: readSnippetChanges(ctx, i) }),
	async (ctx, { id, fields }, i) =>
		paired(withoutSecrets(await updateSnippet(ctx, id, fields, { itemIndex: i })), i),
	CONCURRENCY,
);
