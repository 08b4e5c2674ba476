/**
 * The one module that speaks HTTP. Base URL from the credential, authentication through
 * n8n's `httpRequestWithAuthentication` (the credential type's own Bearer definition),
 * retries with backoff that never repeat a create the service may have acted on, a timeout
 * on every request, answers checked against a schema, and errors that say what to do and
 * never carry the API key or the request options.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';
import type { z } from 'zod';

import { normalizeBaseUrl } from '../helpers/parse';
import { describeHttpError, describeNetworkError, redact } from './errors';
import type { Outcome, RetryPolicy } from './retry';
import { DEFAULT_RETRY_POLICY, nextDelay, parseRetryAfter, shouldRetry } from './retry';
import { firstIssue } from './schemas';

export const CREDENTIAL_TYPE = 'documentGenerationApi';
export const DEFAULT_TIMEOUT_MS = 30_000;

export type TransportContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export type Query = Array<[string, string | number | undefined]>;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path under the host root, e.g. `/api/v1/documents`. */
	path: string;
	query?: Query;
	body?: IDataObject;
	/** The item the request is made for, named in errors. */
	itemIndex?: number;
	/** Words for error messages: "… while trying to <what>". */
	what?: string;
	timeoutMs?: number;
	retry?: Partial<RetryPolicy>;
}

export interface RawResponse {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

/** Builds `?a=1&b=2` with proper encoding; undefined values are left out. */
export function buildQuery(query: Query | undefined): string {
	const parts = (query ?? [])
		.filter(([, value]) => value !== undefined && value !== '')
		.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
	return parts.length ? `?${parts.join('&')}` : '';
}

interface Credentials {
	baseUrl: string;
	apiKey: string | undefined;
}

async function credentials(ctx: TransportContext): Promise<Credentials> {
	const data = (await ctx.getCredentials(CREDENTIAL_TYPE)) as IDataObject;
	return {
		baseUrl: normalizeBaseUrl(data.baseUrl),
		apiKey: typeof data.apiKey === 'string' ? data.apiKey : undefined,
	};
}

function errorCode(error: unknown): string {
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		const e = current as { code?: unknown; cause?: unknown; message?: unknown };
		if (typeof e.code === 'string' && /^E[A-Z_]+$|^UND_ERR/.test(e.code)) return e.code;
		if (typeof e.message === 'string') {
			const m = /\b(E[A-Z]{3,}[A-Z_]*)\b/.exec(e.message);
			if (m) return m[1];
			if (/timeout of \d+ms exceeded|timed out/i.test(e.message)) return 'ECONNABORTED';
			if (/socket hang up/i.test(e.message)) return 'ECONNRESET';
			if (/aborted|canceled/i.test(e.message)) return 'ERR_CANCELED';
		}
		current = e.cause;
	}
	return 'EUNKNOWN';
}

function cancelSignal(ctx: TransportContext): AbortSignal | undefined {
	const fn = (ctx as Partial<IExecuteFunctions>).getExecutionCancelSignal;
	return typeof fn === 'function' ? fn.call(ctx) : undefined;
}

function apiError(ctx: TransportContext, message: string, description: string, secret: string | undefined, extra: { itemIndex?: number; httpCode?: string; body?: unknown }) {
	const safeMessage = redact(message, secret);
	const safeDescription = redact(description, secret);
	// The error response given to NodeApiError holds only what is safe to show: never the
	// request options (they carry the Authorization header).
	const response: JsonObject = { message: safeMessage };
	if (extra.httpCode) response.httpCode = extra.httpCode;
	if (extra.body !== undefined) {
		try {
			response.body = JSON.parse(redact(JSON.stringify(extra.body), secret)) as JsonObject;
		} catch {
			response.body = redact(String(extra.body), secret);
		}
	}
	return new NodeApiError(ctx.getNode(), response, {
		message: safeMessage,
		description: safeDescription,
		httpCode: extra.httpCode,
		itemIndex: extra.itemIndex,
	});
}

/**
 * One HTTP exchange with retries. Answers with any status are returned (the caller decides);
 * connections that fail after all retries throw a NodeApiError.
 */
async function exchange(
	ctx: TransportContext,
	options: IHttpRequestOptions,
	authenticated: boolean,
	what: string,
	secret: string | undefined,
	request: Pick<ApiRequest, 'itemIndex' | 'retry'>,
): Promise<RawResponse> {
	const policy = { ...DEFAULT_RETRY_POLICY, ...request.retry };
	const method = options.method ?? 'GET';
	const startedAt = Date.now();
	const signal = cancelSignal(ctx);
	for (let attempt = 0; ; attempt++) {
		let response: IN8nHttpFullResponse | undefined;
		let outcome: Outcome;
		try {
			const send = { ...options, abortSignal: signal };
			response = (authenticated
				? await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, send)
				: await ctx.helpers.httpRequest(send)) as IN8nHttpFullResponse;
			outcome = { kind: 'status', status: response.statusCode };
			if (response.statusCode < 400 || !shouldRetry(method, outcome)) {
				return { statusCode: response.statusCode, headers: (response.headers ?? {}) as IDataObject, body: response.body };
			}
		} catch (error) {
			const code = errorCode(error);
			if (code === 'ERR_CANCELED') {
				throw apiError(ctx, `The execution was cancelled while trying to ${what}`, 'Nothing more was sent.', secret, { itemIndex: request.itemIndex });
			}
			outcome = { kind: 'network', code };
			if (!shouldRetry(method, outcome)) {
				const text = describeNetworkError(code, what, options.timeout ?? DEFAULT_TIMEOUT_MS);
				throw apiError(ctx, text.message, text.description, secret, { itemIndex: request.itemIndex });
			}
		}
		const retryAfter = response ? parseRetryAfter(response.headers?.['retry-after'], Date.now()) : undefined;
		const delay = nextDelay(attempt, startedAt, Date.now(), policy, retryAfter);
		if (delay === undefined) {
			if (response) {
				return { statusCode: response.statusCode, headers: (response.headers ?? {}) as IDataObject, body: response.body };
			}
			const text = describeNetworkError((outcome as { code: string }).code, what, options.timeout ?? DEFAULT_TIMEOUT_MS);
			throw apiError(ctx, text.message, `${text.description} (${attempt + 1} attempts)`, secret, { itemIndex: request.itemIndex });
		}
		ctx.logger?.debug?.(`Document Generation: ${method} ${what} retrying in ${delay} ms (attempt ${attempt + 1})`);
		await pause(delay, signal);
	}
}

/**
 * Waits `ms` in slices of at most a second, so a cancelled execution stops waiting soon.
 * Resolves early (without throwing) when the signal aborts; callers check the signal.
 */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
	const until = Date.now() + ms;
	while (!signal?.aborted) {
		const left = until - Date.now();
		if (left <= 0) return;
		await sleep(Math.min(left, 1000));
	}
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
	const { baseUrl, apiKey } = await credentials(ctx);
	const what = request.what ?? `${request.method} ${request.path}`;
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}${buildQuery(request.query)}`,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
	};
	if (request.body !== undefined) {
		options.body = request.body;
		options.headers = { 'Content-Type': 'application/json' };
	}
	const response = await exchange(ctx, options, true, what, apiKey, request);
	if (response.statusCode >= 400) {
		const text = describeHttpError(response.statusCode, response.body, what);
		throw apiError(ctx, text.message, text.description, apiKey, {
			itemIndex: request.itemIndex,
			httpCode: String(response.statusCode),
			body: response.body,
		});
	}
	if (!schema) return response.body as T;
	let body = response.body;
	if (typeof body === 'string' && body.trim() !== '') {
		try {
			body = JSON.parse(body);
		} catch {
			// checked below: a string is not the shape any schema expects
		}
	}
	const parsed = schema.safeParse(body);
	if (!parsed.success) {
		throw apiError(
			ctx,
			`The service answered with an unexpected shape while trying to ${what} (${firstIssue(parsed.error)})`,
			'Check that the Base URL of the credential points at the document generation API (e.g. https://api.pdfmonkey.io). If it does, the service may have changed; please report it.',
			apiKey,
			{ itemIndex: request.itemIndex, httpCode: String(response.statusCode) },
		);
	}
	return parsed.data;
}

/**
 * Fetches a file from a presigned download URL: no Authorization header (a second
 * credential makes such URLs fail), transient failures retried. Returns the raw answer so
 * the caller can react to 403 (expired URL) by fetching a fresh one.
 */
export async function fetchFile(
	ctx: TransportContext,
	url: string,
	request: Pick<ApiRequest, 'itemIndex' | 'timeoutMs' | 'retry'> & { what: string },
): Promise<RawResponse> {
	const { apiKey } = await credentials(ctx);
	const response = await exchange(
		ctx,
		{
			method: 'GET',
			url,
			encoding: 'arraybuffer',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: request.timeoutMs ?? DEFAULT_TIMEOUT_MS * 4,
		},
		false,
		request.what,
		apiKey,
		request,
	);
	if (response.body !== undefined && !Buffer.isBuffer(response.body)) {
		const body = response.body as ArrayBuffer | string;
		response.body = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
	}
	return response;
}

/** A NodeApiError for a failed download answer (used by the download helpers). */
export function downloadError(ctx: TransportContext, status: number, what: string, itemIndex?: number) {
	const expired = status === 403;
	return new NodeApiError(
		ctx.getNode(),
		{ message: `Download failed with ${status}` },
		{
			message: expired
				? `The download link kept being refused (403) while trying to ${what}`
				: `The file could not be downloaded (${status}) while trying to ${what}`,
			description: expired
				? 'A fresh link was fetched and refused too. Check the system clock and run again.'
				: 'Run again later; if it persists, open the document in the dashboard.',
			httpCode: String(status),
			itemIndex,
		},
	);
}
