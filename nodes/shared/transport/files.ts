/** A finished document's file from its presigned link (no key) into n8n's binary data. */
import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fileNameFor, mimeTypeFor } from '../helpers/document';
import { asNodeError } from '../helpers/items';
import { LINK_EXPIRY_FIELD } from '../helpers/linkExpiry';
import type { TransportContext } from '../types';
import { getDocumentCard } from './documents';
import { apiError } from './errors';
import { discardBody, exchange, headerValue, type RawResponse } from './exchange';
import { describeBrokenDownload, describeDownloadError } from './messages';
import { credentials, type ApiRequest } from './request';
import { networkFailure, networkKind } from './retry';

/** Fetches a presigned URL without the key; a 2xx body is a stream, any other a Buffer. */
export async function fetchFile(
	ctx: TransportContext,
	url: string,
	request: Pick<ApiRequest, 'itemIndex' | 'timeoutMs' | 'retry'> & { what: string },
): Promise<RawResponse> {
	const { secrets, timeoutMs } = await credentials(ctx);
	const { response } = await exchange(ctx, {
		http: {
			method: 'GET',
			url,
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			// Until the answer starts, then between chunks: a slow but flowing download is fine.
			timeout: request.timeoutMs ?? timeoutMs,
		},
		to: 'fileHost',
		what: request.what,
		secret: secrets,
		itemIndex: request.itemIndex,
		retry: request.retry,
	});
	if (response.statusCode >= 300) response.body = await readAll(response.body);
	return response;
}

/** Bytes of an error answer's body worth reading (an object store's XML error is small). */
// Stryker disable next-line ArithmeticOperator: a constant set at load, before any mutant is on
const MAX_ERROR_BYTES = 64 * 1024;

/** A body (stream, buffer or text) as a Buffer, up to MAX_ERROR_BYTES, or what arrived. */
async function readAll(body: unknown): Promise<Buffer> {
	if (Buffer.isBuffer(body)) return body;
	if (typeof body === 'string') return Buffer.from(body);
	if (body instanceof ArrayBuffer) return Buffer.from(body);
	const chunks: Buffer[] = [];
	// Stryker disable next-line ConditionalExpression: `true` is equivalent: a non-stream reads empty
	if (body && typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
		let size = 0;
		try {
			for await (const chunk of body as AsyncIterable<Buffer | string>) {
				const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
				chunks.push(bytes);
				size += bytes.length;
				// Stryker disable next-line EqualityOperator: `>` is equivalent: the body is cut at 64 KB anyway
				if (size >= MAX_ERROR_BYTES) break;
			}
		} catch {
			// What arrived is enough to describe the error.
		}
		discardBody(body);
	}
	return Buffer.concat(chunks).subarray(0, MAX_ERROR_BYTES);
}

/** Whether an error while a file was read is the file breaking off, not n8n's store failing. */
export function brokeOff(error: unknown): boolean {
	const kind = networkKind(networkFailure(error).code);
	return kind === 'broken' || kind === 'timeout';
}

/** A NodeApiError for a file that broke off while it was being read (twice). */
export function brokenDownload(
	ctx: TransportContext,
	error: unknown,
	what: string,
	itemIndex?: number,
) {
	const { code } = networkFailure(error);
	return apiError(ctx, describeBrokenDownload(code, what), undefined, { itemIndex });
}

/** A NodeApiError for a failed download answer. */
export function downloadError(
	ctx: TransportContext,
	status: number,
	what: string,
	itemIndex?: number,
) {
	return apiError(ctx, describeDownloadError(status, what), undefined, {
		itemIndex,
		httpCode: String(status),
	});
}

/** A download link older than this is fetched again before use (links live 15 to 60 min). */
export const FRESH_LINK_MS = 60_000;
type DownloadContext = IExecuteFunctions | IPollFunctions | IWebhookFunctions;

export interface DownloadOptions {
	/** Host time (ms) the card was fetched; an older link than FRESH_LINK_MS is renewed first. */
	fetchedAt?: number;
	/** Max File Size in bytes: a larger file fails the item before it fills the disk. */
	maxFileBytes?: number;
}

/** A document's file, and the card whose link it came through (renewed when it was stale). */
export interface DownloadedFile {
	binary: IBinaryData;
	card: IDataObject;
}

/** `card` with the download link (and its expiry) of the card the file came through. */
export function withLinkOf(card: IDataObject, file: DownloadedFile): IDataObject {
	const link: IDataObject = { download_url: file.card.download_url };
	if (LINK_EXPIRY_FIELD in file.card) link[LINK_EXPIRY_FIELD] = file.card[LINK_EXPIRY_FIELD];
	return { ...card, ...link };
}

const MB = 1024 * 1024;

function megabytes(bytes: number): string {
	return `${Math.round((bytes / MB) * 10) / 10} MB`;
}

function tooLargeError(
	ctx: DownloadContext,
	id: string,
	maxBytes: number,
	size: { announced?: number; itemIndex: number },
): NodeOperationError {
	const what =
		size.announced !== undefined
			? `The file host announced ${megabytes(size.announced)}, so nothing of it was stored.`
			: 'It was stopped as soon as it passed the limit, and what arrived was dropped.';
	const message = `The file of document ${id} is larger than the Max File Size (${megabytes(maxBytes)})`;
	const description = `${what} If files this large are expected, raise Max File Size on this node (0 means no limit); otherwise check the document's template and data.`;
	return new NodeOperationError(ctx.getNode(), message, { description, itemIndex: size.itemIndex });
}

/** Fails a stream past `maxBytes` without changing its flow; answers whether it was passed. */
function limitStream(body: unknown, maxBytes: number): () => boolean {
	let exceeded = false;
	const stream = body as {
		prependListener?: (event: string, listener: (chunk: unknown) => void) => unknown;
		destroy?: (error?: Error) => void;
	};
	if (typeof stream?.prependListener !== 'function') return () => exceeded;
	let count = 0;
	stream.prependListener('data', (chunk: unknown) => {
		// Bytes, whether the stream hands on bytes or (decoded) text.
		count +=
			chunk instanceof Uint8Array || typeof chunk === 'string' ? Buffer.byteLength(chunk) : 0;
		if (count > maxBytes && !exceeded) {
			exceeded = true;
			stream.destroy?.(new Error('The file is larger than the Max File Size'));
		}
	});
	return () => exceeded;
}

function noFileError(
	ctx: DownloadContext,
	card: IDataObject,
	itemIndex: number,
): NodeOperationError {
	const message = `Document ${String(card.id)} has no file to download: its status is "${String(card.status)}"`;
	const description =
		card.status === 'failure'
			? `Generation failed${card.failure_cause ? ` (${String(card.failure_cause)})` : ''}. Fix it and generate again with Update and status "Pending".`
			: 'Only documents with status "success" have a file. Wait for the generation to finish (Create/Update with "Wait for Completion"), or trigger on finished documents.';
	return new NodeOperationError(ctx.getNode(), message, { description, itemIndex });
}

interface FileAnswer {
	response: RawResponse;
	card: IDataObject;
	itemIndex: number;
	maxBytes?: number;
}

/** A file host's answer into n8n's binary store; throws past `maxBytes`, gives back a failure. */
async function storeWithinLimit(
	ctx: DownloadContext,
	answer: FileAnswer,
): Promise<{ binary: IBinaryData } | { failure: unknown }> {
	const { response, card, itemIndex, maxBytes } = answer;
	const contentType = headerValue(response.headers, 'content-type');
	const filename = fileNameFor(card, contentType);
	const tooLarge = (announced?: number) =>
		tooLargeError(ctx, String(card.id), maxBytes!, { announced, itemIndex });
	const announced = Number(headerValue(response.headers, 'content-length'));
	if (maxBytes !== undefined && Number.isFinite(announced) && announced > maxBytes) {
		discardBody(response.body);
		throw tooLarge(announced);
	}
	const exceeded = maxBytes === undefined ? () => false : limitStream(response.body, maxBytes);
	let binary: IBinaryData;
	try {
		const data = response.body as Parameters<typeof ctx.helpers.prepareBinaryData>[0];
		const mimeType = mimeTypeFor(filename, card.output_type, contentType);
		binary = await ctx.helpers.prepareBinaryData(data, filename, mimeType);
	} catch (error) {
		if (exceeded()) throw tooLarge();
		return { failure: error };
	}
	if (exceeded()) throw tooLarge();
	return { binary };
}

/** A finished document's file as binary data; a stale link is renewed first, a 403 once. */
export async function downloadToBinary(
	ctx: DownloadContext,
	card: IDataObject,
	itemIndex: number,
	options: DownloadOptions = {},
): Promise<DownloadedFile> {
	const id = String(card.id);
	const what = `download the file of document ${id}`;
	if (card.status !== 'success') throw noFileError(ctx, card, itemIndex);
	const { fetchedAt, maxFileBytes: maxBytes } = options;
	let current = card;
	const stale = fetchedAt !== undefined && Date.now() - fetchedAt > FRESH_LINK_MS;
	if (stale || typeof current.download_url !== 'string' || current.download_url === '')
		current = await getDocumentCard(ctx, id, { itemIndex });
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
			// Streamed into n8n's binary store as it arrives (to disk in filesystem mode).
			const stored = await storeWithinLimit(ctx, { response, card: current, itemIndex, maxBytes });
			if ('binary' in stored) return { binary: stored.binary, card: current };
			discardBody(response.body);
			// n8n's own binary store failing (a full disk) is not the file host's doing.
			const { failure } = stored;
			if (!brokeOff(failure)) throw asNodeError(ctx, failure, itemIndex);
			// The file broke off on its way: once more, with a fresh link.
			if (attempt >= 1) throw brokenDownload(ctx, failure, what, itemIndex);
		} else if (response.statusCode !== 403 || attempt >= 1) {
			// 403: the presigned link expired (or its clock disagrees): a fresh one, once.
			throw downloadError(ctx, response.statusCode, what, itemIndex);
		}
		current = await getDocumentCard(ctx, id, { itemIndex });
	}
}
