import type { INodeProperties } from 'n8n-workflow';

import { operationList } from '../common';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getFields from './getFields.operation';
import * as preview from './preview.operation';
import * as update from './update.operation';

export { create, del as delete, get, getAll, getFields, preview, update };

export const description: INodeProperties[] = [
	operationList('template', 'getAll', [
		[
			'Create',
			'create',
			'Create a template in a workspace (as a draft to publish in the dashboard)',
			'Create a template',
		],
		['Delete', 'delete', 'Delete a template', 'Delete a template'],
		['Get', 'get', 'Get a template: its body, styles, sample data and settings', 'Get a template'],
		[
			'Get Fields',
			'getFields',
			'List the fields a template reads, typed from its sample data: what a payload should hold',
			'Get the fields of a template',
		],
		[
			'Get Many',
			'getAll',
			'List the templates of a workspace, of one folder or of none',
			'Get many templates',
		],
		[
			'Preview',
			'preview',
			'Get links to a preview of the draft rendered with its sample data',
			'Preview a template',
		],
		[
			'Update',
			'update',
			'Change the draft of a template: name, body, styles, sample data, output, PDF engine, folder',
			'Update a template',
		],
	]),
	...[create, get, getAll, getFields, preview, update, del].flatMap((op) => op.description),
];
