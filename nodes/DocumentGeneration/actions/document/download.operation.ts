import type { INodeProperties } from 'n8n-workflow';

import { binaryPropertyName, documentIdLocator, maxFileSize } from '../../../shared/descriptions';
import { normalizeDocument } from '../../../shared/helpers/document';
import { CONCURRENCY, perItem } from '../../../shared/helpers/items';
import {
	DEFAULT_MAX_FILE_MB,
	parseBinaryPropertyName,
	parseMaxFileSize,
} from '../../../shared/helpers/parse';
import { downloadToBinary, getDocumentCard, withLinkOf } from '../../../shared/transport';
import { readDocumentId, shownFor } from '../common';

export const properties: INodeProperties[] = [
	{
		...documentIdLocator,
		description:
			'The generated document whose file to download: pick it from the list, or enter its ID (a UUID)',
	},
	binaryPropertyName({}),
	maxFileSize({}),
];

export const description = shownFor('document', 'download', properties);

export const execute = perItem(
	(ctx, i) => {
		const id = readDocumentId(ctx, i);
		// Always shown, so n8n has filled in its default: no fallback of our own.
		const field = parseBinaryPropertyName(ctx.getNodeParameter('binaryPropertyName', i));
		const maxFileBytes = parseMaxFileSize(
			ctx.getNodeParameter('maxFileSize', i, DEFAULT_MAX_FILE_MB),
		);
		return { id, field, maxFileBytes };
	},
	async (ctx, { id, field, maxFileBytes }, i) => {
		// A fresh card right before the download: its download_url is new.
		// Stryker disable next-line ObjectLiteral: equivalent, perItem sets the item on its errors
		const card = await getDocumentCard(ctx, id, { itemIndex: i });
		const file = await downloadToBinary(ctx, card, i, { fetchedAt: Date.now(), maxFileBytes });
		return [
			{
				json: normalizeDocument(withLinkOf(card, file)),
				binary: { [field]: file.binary },
				pairedItem: { item: i },
			},
		];
	},
	CONCURRENCY,
);
