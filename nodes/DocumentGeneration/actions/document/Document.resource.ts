import type { INodeProperties } from 'n8n-workflow';

import { operationList } from '../common';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as download from './download.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export { create, del as delete, download, get, getAll, update };

export const description: INodeProperties[] = [
	operationList('document', 'create', [
		[
			'Create',
			'create',
			'Create a document from a template and JSON data, and generate its PDF',
			'Create a PDF document from a template',
		],
		['Delete', 'delete', 'Delete a document', 'Delete a document'],
		[
			'Download',
			'download',
			'Download the generated file of a document',
			'Download the generated file of a document',
		],
		[
			'Get',
			'get',
			'Get a document by ID: its status, file name, download URL and meta',
			'Get a document and its status',
		],
		['Get Many', 'getAll', 'List documents, newest first, with filters', 'Get many documents'],
		[
			'Update',
			'update',
			'Change a document, or generate it again',
			'Update a document or generate it again',
		],
	]),
	...[create, get, getAll, update, del, download].flatMap((op) => op.description),
];
