import type { INodeProperties } from 'n8n-workflow';

import { operationList } from '../common';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export { create, del as delete, get, getAll, update };

export const description: INodeProperties[] = [
	operationList('snippet', 'getAll', [
		[
			'Create',
			'create',
			'Create a snippet (a reusable piece of Liquid) in a workspace',
			'Create a snippet',
		],
		['Delete', 'delete', 'Delete a snippet', 'Delete a snippet'],
		['Get', 'get', 'Get a snippet: its name and code', 'Get a snippet'],
		['Get Many', 'getAll', 'List the snippets of a workspace', 'Get many snippets'],
		['Update', 'update', 'Change the name or the code of a snippet', 'Update a snippet'],
	]),
	...[create, get, getAll, update, del].flatMap((op) => op.description),
];
