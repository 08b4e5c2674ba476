import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { documentIdLocator } from '../../../shared/descriptions';
import { forEachItem, paired } from '../../../shared/helpers/items';
import { parseId } from '../../../shared/helpers/parse';
import { deleteDocument } from '../../../shared/transport/documents';

export const properties: INodeProperties[] = [{ ...documentIdLocator, description: 'The document to delete, with its file' }];

export const description = updateDisplayOptions({ show: { resource: ['document'], operation: ['delete'] } }, properties);

export async function execute(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return await forEachItem(this, items, async (i) => {
		const id = parseId(this.getNodeParameter('documentId', i, undefined, { extractValue: true }), 'document ID');
		await deleteDocument(this, id, { itemIndex: i });
		return paired({ deleted: true, id }, i);
	});
}
