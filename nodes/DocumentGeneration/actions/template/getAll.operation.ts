import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllAndLimit, workspaceIdLocator } from '../../../shared/descriptions';
import { withoutSecrets } from '../../../shared/helpers/document';
import { CONCURRENCY, paired, perItem } from '../../../shared/helpers/items';
import { listTemplateCards } from '../../../shared/transport';
import { readLimit, readWorkspaceId } from '../ids';

export const properties: INodeProperties[] = [
	{ ...workspaceIdLocator, description: 'The workspace whose templates to list' },
	...returnAllAndLimit,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['template'], operation: ['getAll'] } },
	properties,
);

export const execute = perItem(
	(ctx, i) => {
		const workspaceId = readWorkspaceId(ctx, i);
		return { workspaceId, limit: readLimit(ctx, i) };
	},
	async (ctx, { workspaceId, limit }, i) => {
		const cards = await listTemplateCards(ctx, workspaceId, { itemIndex: i });
		return paired(withoutSecrets(cards.slice(0, limit)), i);
	},
	CONCURRENCY,
);
