import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllAndLimit, workspaceIdLocator } from '../../../shared/descriptions';
import { withoutSecrets } from '../../../shared/helpers/document';
import { CONCURRENCY, paired, perItem } from '../../../shared/helpers/items';
import { listSnippets } from '../../../shared/transport';
import { readLimit, readWorkspaceId } from '../ids';

export const properties: INodeProperties[] = [
	{ ...workspaceIdLocator, description: 'The workspace whose snippets to list' },
	...returnAllAndLimit,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['snippet'], operation: ['getAll'] } },
	properties,
);

export const execute = perItem(
	(ctx, i) => ({ workspaceId: readWorkspaceId(ctx, i), limit: readLimit(ctx, i) }),
	async (ctx, { workspaceId, limit }, i) => {
		const snippets = await listSnippets(ctx, workspaceId, { itemIndex: i });
		return paired(withoutSecrets(snippets.slice(0, limit)), i);
	},
	CONCURRENCY,
);
