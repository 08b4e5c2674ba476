import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';

export { get };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['account'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description:
					'Get the account: plan, documents left, share links (the API token is left out)',
				action: 'Get the account and its remaining document quota',
			},
		],
		default: 'get',
	},
	...get.description,
];
