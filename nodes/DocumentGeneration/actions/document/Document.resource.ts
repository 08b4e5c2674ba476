import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as del from './delete.operation';
import * as download from './download.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export { create, del as delete, download, get, getAll, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['document'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a document from a template and JSON data, and generate its PDF',
				action: 'Create a PDF document from a template',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a document',
				action: 'Delete a document',
			},
			{
				name: 'Download',
				value: 'download',
				description: 'Download the generated file of a document',
				action: 'Download the generated file of a document',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a document by ID: its status, file name, download URL and meta',
				action: 'Get a document and its status',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List documents, newest first, with filters',
				action: 'Get many documents',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change a document, or generate it again',
				action: 'Update a document or generate it again',
			},
		],
		default: 'create',
	},
	...create.description,
	...get.description,
	...getAll.description,
	...update.description,
	...del.description,
	...download.description,
];
