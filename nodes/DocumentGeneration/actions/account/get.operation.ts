import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { forEachItem, paired } from '../../../shared/helpers/items';
import { getAccount } from '../../../shared/transport/documents';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await forEachItem(this, items, async (i) => {
		const account = await getAccount(this, { itemIndex: i });
		// A secret has no place in execution logs.
		delete account.auth_token;
		return paired(account, i);
	});
}
