import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllAndLimit, workspaceIdLocator } from '../../../shared/descriptions';
import { withoutSecrets } from '../../../shared/helpers/document';
import { CONCURRENCY, paired, runPerItem } from '../../../shared/helpers/items';
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

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runPerItem(
		this,
		items,
		(i) => {
			const workspaceId = readWorkspaceId(this, i);
			return { workspaceId, limit: readLimit(this, i) };
		},
		async ({ workspaceId, limit }, i) => {
			const cards = await listTemplateCards(this, workspaceId, { itemIndex: i });
			return paired(withoutSecrets(cards.slice(0, limit)), i);
		},
		CONCURRENCY,
	);
}
