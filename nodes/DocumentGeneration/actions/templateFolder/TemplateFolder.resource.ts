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
		displayOptions: { show: { resource: ['templateFolder'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a template folder in a workspace',
				action: 'Create a template folder',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a template folder',
				action: 'Delete a template folder',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a template folder',
				action: 'Get a template folder',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the template folders of a workspace',
				action: 'Get many template folders',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Rename a template folder',
				action: 'Update a template folder',
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
