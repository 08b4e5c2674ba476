import type { INodeProperties } from 'n8n-workflow';

import { operationList } from '../common';
import * as get from './get.operation';

export { get };

export const description: INodeProperties[] = [
	operationList('account', 'get', [
		[
			'Get',
			'get',
			'Get the account: plan, documents left, share links (the API token is left out)',
			'Get the account and its remaining document quota',
		],
	]),
	...get.description,
];
