import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { withoutSecrets } from '../../../shared/helpers/document';
import { paired, runPerItem } from '../../../shared/helpers/items';
import { getAccount } from '../../../shared/transport';

export const description: INodeProperties[] = [];

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runPerItem(
		this,
		items,
		(i) => i,
		async (_, i) => {
			// A secret (the API token) has no place in execution data.
			return paired(withoutSecrets(await getAccount(this, { itemIndex: i })), i);
		},
	);
}
