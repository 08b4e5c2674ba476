/**
 * Downloads from the file host (presigned links): no credential sent, transient failures
 * retried, and the errors of a download that failed or broke off.
 */
import type { TransportContext } from '../types';
import { apiError } from './apiErrors';
import type { ApiRequest, RawResponse } from './calls';
import { exchange } from './exchange';
import { describeBrokenDownload, describeDownloadError } from './messages';
import { networkFailure } from './network';
import { credentials } from './request';
import { networkKind } from './retry';
import { discardBody } from './wire';

/**
 * Fetches a file from a presigned download URL: no Authorization header (a second
 * credential makes such URLs fail), transient failures retried. Answers with any status
 * (the caller reacts to 403, an expired link, by fetching a fresh one); the body of a 2xx
 * answer is a stream, to be read once into n8n's binary store (so a large file is never held
 * in memory whole), any other body is read into a Buffer.
 */
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
// Stryker disable next-line ArithmeticOperator: a module constant, set when the module loads, before the tool switches a mutant on: made `64 / 1024` it fails files.test.ts when planted by hand
const MAX_ERROR_BYTES = 64 * 1024;

/**
 * A body (stream, buffer or text) as a Buffer, up to MAX_ERROR_BYTES; one that breaks off
 * gives what arrived.
 */
async function readAll(body: unknown): Promise<Buffer> {
	if (Buffer.isBuffer(body)) return body;
	if (typeof body === 'string') return Buffer.from(body);
	if (body instanceof ArrayBuffer) return Buffer.from(body);
	const chunks: Buffer[] = [];
	// Stryker disable next-line ConditionalExpression: `true` is equivalent: a body that is not a stream fails the loop below at once, which gives the same empty Buffer
	if (body && typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
		let size = 0;
		try {
			for await (const chunk of body as AsyncIterable<Buffer | string>) {
				const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
				chunks.push(bytes);
				size += bytes.length;
				// Stryker disable next-line EqualityOperator: `>` is equivalent: one chunk more is read before the stop, and the body kept is cut at 64 KB either way
				if (size >= MAX_ERROR_BYTES) break;
			}
		} catch {
			// What arrived is enough to describe the error.
		}
		discardBody(body);
	}
	return Buffer.concat(chunks).subarray(0, MAX_ERROR_BYTES);
}

/**
 * Whether an error while a file was read is the file breaking off on its way (its connection
 * broke or stopped), not the reader failing (n8n's binary store: ENOSPC, EACCES, EROFS and any
 * other code are the store's).
 */
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

/** A NodeApiError for a failed download answer (used by the download helpers). */
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
