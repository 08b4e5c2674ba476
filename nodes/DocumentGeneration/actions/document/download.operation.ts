import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { binaryPropertyName, documentIdLocator } from '../../../shared/descriptions';
import { normalizeDocument } from '../../../shared/helpers/document';
import { CONCURRENCY, runPerItem } from '../../../shared/helpers/items';
import { parseBinaryPropertyName } from '../../../shared/helpers/parse';
import { downloadToBinary } from '../../../shared/download';
import { getDocumentCard } from '../../../shared/transport';
import { readDocumentId } from '../ids';

export const properties: INodeProperties[] = [
	{
		...documentIdLocator,
		description:
			'The generated document whose file to download: pick it from the list, or enter its ID (a UUID)',
	},
	binaryPropertyName({}),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['download'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runPerItem(
		this,
		items,
		(i) => {
			const id = readDocumentId(this, i);
			const field = parseBinaryPropertyName(this.getNodeParameter('binaryPropertyName', i, 'data'));
			return { id, field };
		},
		async ({ id, field }, i) => {
			// A fresh card right before the download: its download_url is new.
			const card = await getDocumentCard(this, id, { itemIndex: i });
			const binary = await downloadToBinary(this, card, i, { fetchedAt: Date.now() });
			return [
				{ json: normalizeDocument(card), binary: { [field]: binary }, pairedItem: { item: i } },
			];
		},
		CONCURRENCY,
	);
}
