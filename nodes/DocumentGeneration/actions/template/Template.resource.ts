import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getFields from './getFields.operation';
import * as preview from './preview.operation';
import * as update from './update.operation';

export { create, del as delete, get, getAll, getFields, preview, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['template'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a template in a workspace (as a draft to publish in the dashboard)',
				action: 'Create a template',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a template',
				action: 'Delete a template',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a template: its body, styles, sample data and settings',
				action: 'Get a template',
			},
			{
				name: 'Get Fields',
				value: 'getFields',
				description:
					'List the fields a template reads, typed from its sample data: what a payload should hold',
				action: 'Get the fields of a template',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List the templates of a workspace, of one folder or of none',
				action: 'Get many templates',
			},
			{
				name: 'Preview',
				value: 'preview',
				description: 'Get links to a preview of the draft rendered with its sample data',
				action: 'Preview a template',
			},
			{
				name: 'Update',
				value: 'update',
				description:
					'Change the draft of a template: name, body, styles, sample data, output, PDF engine, folder',
				action: 'Update a template',
			},
		],
		default: 'getAll',
	},
	...create.description,
	...get.description,
	...getAll.description,
	...getFields.description,
	...preview.description,
	...update.description,
	...del.description,
];
