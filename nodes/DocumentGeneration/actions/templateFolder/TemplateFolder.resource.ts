import type { INodeProperties } from 'n8n-workflow';

import { operationList } from '../common';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export { create, del as delete, get, getAll, update };

export const description: INodeProperties[] = [
	operationList('templateFolder', 'getAll', [
		['Create', 'create', 'Create a template folder in a workspace', 'Create a template folder'],
		['Delete', 'delete', 'Delete a template folder', 'Delete a template folder'],
		['Get', 'get', 'Get a template folder', 'Get a template folder'],
		['Get Many', 'getAll', 'List the template folders of a workspace', 'Get many template folders'],
		['Update', 'update', 'Rename a template folder', 'Update a template folder'],
	]),
	...[create, get, getAll, update, del].flatMap((op) => op.description),
];
