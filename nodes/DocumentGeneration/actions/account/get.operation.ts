import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

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
			const account = await getAccount(this, { itemIndex: i });
			// A secret has no place in execution data.
			delete account.auth_token;
			return paired(account, i);
		},
	);
}
