import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export { create, del as delete, get, getAll, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['snippet'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a snippet (a reusable piece of Liquid) in a workspace',
				action: 'Create a snippet',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a snippet',
				action: 'Delete a snippet',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a snippet: its name and code',
				action: 'Get a snippet',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the snippets of a workspace',
				action: 'Get many snippets',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change the name or the code of a snippet',
				action: 'Update a snippet',
			},
		],
		default: 'getAll',
	},
	...create.description,
	...get.description,
	...getAll.description,
	...update.description,
	...del.description,
];
