import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { documentIdLocator } from '../../../shared/descriptions';
import { normalizeDocument } from '../../../shared/helpers/document';
import { CONCURRENCY, paired, perItem } from '../../../shared/helpers/items';
import { getDocument, getDocumentCard } from '../../../shared/transport';
import { readDocumentId, shownFor } from '../common';
import { collection } from '../../descriptions/payloadParts';

export const properties: INodeProperties[] = [
	{ ...documentIdLocator },
	collection('Options', 'options', 'Add Option', [
		{
			displayName: 'Include Payload',
			name: 'includePayload',
			type: 'boolean',
			default: false,
			description:
				'Whether to fetch the full document, with its payload, checksum, generation logs and preview URL. Off, the lighter document card is returned.',
		},
	]),
];

export const description = shownFor('document', 'get', properties);

export const execute = perItem(
	(ctx, i) => {
		const id = readDocumentId(ctx, i);
		const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
		return { id, full: options.includePayload === true };
	},
	async (ctx, { id, full }, i) => {
		const document = full
			? await getDocument(ctx, id, { itemIndex: i })
			: await getDocumentCard(ctx, id, { itemIndex: i });
		return paired(normalizeDocument(document), i);
	},
	CONCURRENCY,
);
