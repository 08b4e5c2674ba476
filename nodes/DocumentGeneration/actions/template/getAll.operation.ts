import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { returnAllAndLimit, workspaceIdLocator } from '../../../shared/descriptions';
import { withoutSecrets } from '../../../shared/helpers/document';
import { CONCURRENCY, paired, runPerItem } from '../../../shared/helpers/items';
import { parsePositiveInteger } from '../../../shared/helpers/parse';
import { listTemplateCards } from '../../../shared/transport';
import { readWorkspaceId } from '../ids';

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
			const returnAll = this.getNodeParameter('returnAll', i, false) === true;
			const limit = returnAll
				? undefined
				: parsePositiveInteger(
						this.getNodeParameter('limit', i, 50),
						'limit',
						'Set Limit to a whole number such as 50, or turn on Return All',
					);
			return { workspaceId, limit };
		},
		async ({ workspaceId, limit }, i) => {
			const cards = await listTemplateCards(this, workspaceId, { itemIndex: i });
			return paired(withoutSecrets(limit === undefined ? cards : cards.slice(0, limit)), i);
		},
		CONCURRENCY,
	);
}
