/**
 * Calls of the service's API and of its file host, on top of `exchange`: base URL, timeout
 * and key from the credential, authentication through n8n's `httpRequestWithAuthentication`
 * (the credential type's own Bearer definition), JSON bodies serialized here, answers checked
 * against a schema, and errors that say what to do.
 */
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import type { z } from 'zod';

import type { TransportContext } from '../types';
import { describeBrokenDownload, describeDownloadError, describeHttpError } from './errors';
import { networkFailure } from './network';
import type { ApiRequest, Query, RawResponse } from './exchange';
import {
	CREDENTIAL_TYPE,
	DEFAULT_TIMEOUT_MS,
	MAX_TIMEOUT_S,
	discardBody,
	exchange,
} from './exchange';
import { apiError } from './failures';
import { parseJsonLoose } from '../helpers/json';
import { isIdempotent } from './retry';
import { describeShape } from './schemas';

/** Builds `?a=1&b=2` with proper encoding; undefined values are left out. */
export function buildQuery(query: Query | undefined): string {
	const parts = (query ?? [])
		.filter(([, value]) => value !== undefined && value !== '')
		.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
	return parts.length ? `?${parts.join('&')}` : '';
}

interface Credentials {
	baseUrl: string;
	/** What no error may show: the API key and the webhook signing secret. */
	secrets: string[];
	/** From the credential's Request Timeout (seconds); the default when unset or not a positive number. */
	timeoutMs: number;
}

/** The credential's Request Timeout (seconds) in milliseconds, or the default. */
export function timeoutFromCredential(value: unknown): number {
	const seconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0)
		return DEFAULT_TIMEOUT_MS;
	return Math.round(Math.min(seconds, MAX_TIMEOUT_S) * 1000);
}

async function credentials(ctx: TransportContext): Promise<Credentials> {
	const data = (await ctx.getCredentials(CREDENTIAL_TYPE)) as IDataObject;
	const secrets = [data.apiKey, data.webhookSecret].filter(
		(value): value is string => typeof value === 'string' && value.trim() !== '',
	);
	return {
		secrets: secrets.flatMap((value) => [value, value.trim()]),
		baseUrl: normalizeBaseUrl(data.baseUrl),
		timeoutMs: timeoutFromCredential(data.requestTimeout),
	};
}

/** The API host root from the credential: trims spaces, trailing slashes and a pasted `/api/v1`. */
export function normalizeBaseUrl(value: unknown): string {
	const text =
		typeof value === 'string' && value.trim() !== '' ? value.trim() : 'https://api.pdfmonkey.io';
	return text.replace(/\/+$/, '').replace(/\/api\/v1$/i, '');
}

/**
 * A call to the API: JSON in, JSON out, checked against `schema` when given.
 * Throws a NodeApiError with a message that says what to do for any error answer.
 */
export async function apiRequest<T = unknown>(
	ctx: TransportContext,
	request: ApiRequest,
	schema?: z.ZodType<T, z.ZodTypeDef, unknown>,
): Promise<T> {
	return (await apiRequestWithHeaders(ctx, request, schema)).body;
}

/** `apiRequest`, also giving the headers of the (successful) answer. */
export async function apiRequestWithHeaders<T = unknown>(
	ctx: TransportContext,
	request: ApiRequest,
	schema?: z.ZodType<T, z.ZodTypeDef, unknown>,
): Promise<{ body: T; headers: IDataObject }> {
	const { baseUrl, secrets, timeoutMs } = await credentials(ctx);
	const what = request.what ?? `${request.method} ${request.path}`;
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}${buildQuery(request.query)}`,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: request.timeoutMs ?? timeoutMs,
	};
	if (request.body !== undefined) {
		// Serialized here, not by the HTTP client: axios drops own keys such as "__proto__"
		// when it serializes an object, and the user's payload and meta must arrive intact.
		options.body = JSON.stringify(request.body);
		options.headers = { 'Content-Type': 'application/json' };
	}
	const { response, attempts, actedBefore, outcomeUnknown } = await exchange(
		ctx,
		options,
		true,
		what,
		secrets,
		request,
	);
	if (response.statusCode === 404 && request.method === 'DELETE' && actedBefore) {
		// An earlier attempt was cut off or answered 5xx after the service deleted it: gone is
		// what was asked for.
		return { body: undefined as T, headers: response.headers };
	}
	if (response.statusCode >= 400) {
		const text = describeHttpError(response.statusCode, response.body, what, attempts);
		throw apiError(ctx, text, secrets, {
			itemIndex: request.itemIndex,
			httpCode: String(response.statusCode),
			body: response.body,
			outcomeUnknown,
		});
	}
	if (!schema) return { body: response.body as T, headers: response.headers };
	// A text that is not JSON stays text: the schema refuses it below.
	const body = parseJsonLoose(response.body);
	const parsed = schema.safeParse(body);
	if (!parsed.success) {
		const write = !isIdempotent(request.method);
		throw apiError(
			ctx,
			{
				message: `The service answered with an unexpected shape while trying to ${what} (${describeShape(body, parsed.error)})`,
				description: `${write ? 'The request may have been carried out anyway (a document or template may have been created): look for it before running again. ' : ''}Check that the Base URL of the credential points at the document generation API (e.g. https://api.pdfmonkey.io). If it does, the service may have changed; please report it.`,
			},
			secrets,
			{
				itemIndex: request.itemIndex,
				httpCode: String(response.statusCode),
				outcomeUnknown: write,
			},
		);
	}
	return { body: parsed.data, headers: response.headers };
}

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
	const { response } = await exchange(
		ctx,
		{
			method: 'GET',
			url,
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			// Until the answer starts, then between chunks: a slow but flowing download is fine.
			timeout: request.timeoutMs ?? timeoutMs,
		},
		false,
		request.what,
		secrets,
		request,
	);
	if (response.statusCode >= 300) response.body = await readAll(response.body);
	return response;
}

/** Bytes of an error answer's body worth reading (an object store's XML error is small). */
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
	if (body && typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
		let size = 0;
		try {
			for await (const chunk of body as AsyncIterable<Buffer | string>) {
				const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
				chunks.push(bytes);
				size += bytes.length;
				if (size >= MAX_ERROR_BYTES) break;
			}
		} catch {
			// What arrived is enough to describe the error.
		}
		discardBody(body);
	}
	return Buffer.concat(chunks).subarray(0, MAX_ERROR_BYTES);
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
