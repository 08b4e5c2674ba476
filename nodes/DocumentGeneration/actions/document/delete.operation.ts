import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { documentIdLocator } from '../../../shared/descriptions';
import { CONCURRENCY, paired, runPerItem } from '../../../shared/helpers/items';
import { deleteDocument } from '../../../shared/transport';
import { readDocumentId } from '../ids';

export const properties: INodeProperties[] = [
	{
		...documentIdLocator,
		description:
			'The document to delete, with its file: pick it from the list, or enter its ID (a UUID)',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['delete'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runPerItem(
		this,
		items,
		(i) => readDocumentId(this, i),
		async (id, i) => {
			await deleteDocument(this, id, { itemIndex: i });
			return paired({ deleted: true, id }, i);
		},
		CONCURRENCY,
	);
}
