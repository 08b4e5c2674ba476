import type { INodeProperties } from 'n8n-workflow';

import { withoutSecrets } from '../../../shared/helpers/document';
import { paired, perItem } from '../../../shared/helpers/items';
import { getAccount } from '../../../shared/transport';

export const description: INodeProperties[] = [];

export const execute = perItem(
	(ctx, i) => i,
	async (ctx, _, i) => {
		// A secret (the API token) has no place in execution data.
		return paired(withoutSecrets(await getAccount(ctx, { itemIndex: i })), i);
	},
);
