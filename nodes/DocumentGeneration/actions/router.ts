import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Operation } from '../../shared/helpers/items';
import * as account from './account/Account.resource';
import * as document from './document/Document.resource';
import * as template from './template/Template.resource';

const operations: Record<string, Record<string, Operation>> = {
	document: {
		create: document.create.execute,
		get: document.get.execute,
		getAll: document.getAll.execute,
		update: document.update.execute,
		delete: document.delete.execute,
		download: document.download.execute,
	},
	template: {
		create: template.create.execute,
		get: template.get.execute,
		getAll: template.getAll.execute,
		update: template.update.execute,
		delete: template.delete.execute,
	},
	account: { get: account.get.execute },
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const run = operations[resource]?.[operation];
	if (!run) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
			{
				description: 'Choose a resource and operation from the lists of the node',
			},
		);
	}
	return [await run.call(this, items)];
}
