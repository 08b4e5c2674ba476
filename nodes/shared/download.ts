/**
 * The file of a finished document as n8n binary data, by the same rules for every node: a
 * link older than a minute is renewed first, an expired link (403) is renewed once, and the
 * file host never sees the Authorization header.
 */
import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fileNameFor, mimeTypeFor } from './helpers/document';
import { asNodeError } from './helpers/items';
import {
	brokenDownload,
	discardBody,
	downloadError,
	fetchFile,
	getDocumentCard,
	headerValue,
	networkFailure,
} from './transport';

/** A download link older than this is fetched again before use (links live 15 to 60 min). */
export const FRESH_LINK_MS = 60_000;

/** The contexts that can put binary data into their output. */
type DownloadContext = IExecuteFunctions | IPollFunctions | IWebhookFunctions;

export interface DownloadOptions {
	/** Host time (ms) the card was fetched; an older link than FRESH_LINK_MS is renewed first. */
	fetchedAt?: number;
}

function noFileError(
	ctx: DownloadContext,
	card: IDataObject,
	itemIndex: number,
): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`Document ${String(card.id)} has no file to download: its status is "${String(card.status)}"`,
		{
			description:
				card.status === 'failure'
					? `Generation failed${card.failure_cause ? ` (${String(card.failure_cause)})` : ''}. Fix it and generate again with Update and status "Pending".`
					: 'Only documents with status "success" have a file. Wait for the generation to finish (Create/Update with "Wait for Completion"), or trigger on finished documents.',
			itemIndex,
		},
	);
}

/**
 * The file of a finished document as n8n binary data, named after the document's file name
 * with the MIME type of its extension. Uses the card's `download_url` when it is fresh,
 * otherwise fetches the card again first; on 403 (expired link) fetches the card again and
 * tries once more. Never sends the Authorization header to the file host.
 */
export async function downloadToBinary(
	ctx: DownloadContext,
	card: IDataObject,
	itemIndex: number,
	options: DownloadOptions = {},
): Promise<IBinaryData> {
	const id = String(card.id);
	const what = `download the file of document ${id}`;
	if (card.status !== 'success') throw noFileError(ctx, card, itemIndex);

	let current = card;
	const stale = options.fetchedAt !== undefined && Date.now() - options.fetchedAt > FRESH_LINK_MS;
	if (stale || typeof current.download_url !== 'string' || current.download_url === '') {
		current = await getDocumentCard(ctx, id, { itemIndex });
	}
	for (let attempt = 0; ; attempt++) {
		if (current.status !== 'success') throw noFileError(ctx, current, itemIndex);
		const url = typeof current.download_url === 'string' ? current.download_url : '';
		if (!url) {
			throw new NodeOperationError(ctx.getNode(), `Document ${id} has no download link`, {
				description:
					'The service answered without a download_url for a successful document; run again later.',
				itemIndex,
			});
		}
		const response = await fetchFile(ctx, url, { what, itemIndex });
		if (response.statusCode < 300) {
			const contentType = headerValue(response.headers, 'content-type');
			const filename = fileNameFor(current, contentType);
			try {
				// Streamed into n8n's binary store as it arrives (to disk in filesystem mode).
				return await ctx.helpers.prepareBinaryData(
					response.body as Parameters<typeof ctx.helpers.prepareBinaryData>[0],
					filename,
					mimeTypeFor(filename, current.output_type, contentType),
				);
			} catch (error) {
				discardBody(response.body);
				// n8n's own binary store failing is not the file host's doing: said as it is.
				if (networkFailure(error).code === 'EUNKNOWN') throw asNodeError(ctx, error, itemIndex);
				// The file broke off on its way: once more, with a fresh link.
				if (attempt >= 1) throw brokenDownload(ctx, error, what, itemIndex);
			}
		} else if (response.statusCode !== 403 || attempt >= 1) {
			// 403: the presigned link expired (or its clock disagrees): a fresh one, once.
			throw downloadError(ctx, response.statusCode, what, itemIndex);
		}
		current = await getDocumentCard(ctx, id, { itemIndex });
	}
}
