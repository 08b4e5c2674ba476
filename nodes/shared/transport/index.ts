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
import type { Attempts } from './errors';
import {
	describeDownloadError,
	describeHttpError,
	describeNetworkError,
	redact,
	safeDetail,
} from './errors';
import type { Outcome, RetryPolicy } from './retry';
import {
	DEFAULT_RETRY_POLICY,
	isIdempotent,
	mayHaveActed,
	nextDelay,
	parseRetryAfter,
	shouldRetry,
} from './retry';
import { describeShape } from './schemas';

export const CREDENTIAL_TYPE = 'documentGenerationApi';
/** Default of the credential's Request Timeout: how long one request may go unanswered. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Upper bound of the Request Timeout (seconds). */
export const MAX_TIMEOUT_S = 600;

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
	/** Overrides the credential's Request Timeout for this call. */
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
	return {
		baseUrl: normalizeBaseUrl(data.baseUrl),
		apiKey: typeof data.apiKey === 'string' ? data.apiKey : undefined,
		timeoutMs: timeoutFromCredential(data.requestTimeout),
	};
}

const CODE = /^(E[A-Z0-9_]{2,}|ERR_[A-Z0-9_]+|UND_ERR_[A-Z_]+)$/;

/**
 * The network error code of a failed request, and the innermost error's own text. n8n wraps
 * the axios error in a NodeApiError whose message it rewrites (e.g. "The connection was
 * aborted, perhaps the server is offline" for a timeout), so the chain of causes is searched
 * for a real code first, and messages only as a fallback.
 */
export function networkFailure(error: unknown): { code: string; detail: string | undefined } {
	const chain: Array<{
		code?: unknown;
		message?: unknown;
		name?: unknown;
		httpCode?: unknown;
		messages?: unknown;
	}> = [];
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (current && typeof current === 'object' && !seen.has(current) && chain.length < 10) {
		seen.add(current);
		chain.push(current as { code?: unknown });
		current = (current as { cause?: unknown }).cause;
	}
	const innermost = chain[chain.length - 1];
	const detail = typeof innermost?.message === 'string' ? innermost.message : undefined;
	for (const level of chain) {
		if (typeof level.code === 'string' && CODE.test(level.code))
			return { code: level.code, detail };
		if (level.name === 'CanceledError') return { code: 'ERR_CANCELED', detail };
	}
	// n8n 1.x keeps no cause: the code is in the wrapper's httpCode, the original text in messages.
	for (const level of chain) {
		if (typeof level.httpCode === 'string' && CODE.test(level.httpCode))
			return { code: level.httpCode, detail };
	}
	const texts = chain
		.slice(1)
		.concat(chain.slice(0, 1))
		.flatMap((level) => [
			level.message,
			...(Array.isArray(level.messages) ? (level.messages as unknown[]) : []),
		]);
	for (const text of texts) {
		if (typeof text !== 'string') continue;
		if (/timeout of \d+ms exceeded/i.test(text)) return { code: 'ECONNABORTED', detail };
		if (/socket hang up/i.test(text)) return { code: 'ECONNRESET', detail };
		const m = /\b(E[A-Z]{3,}[A-Z_]*)\b/.exec(text);
		if (m && m[1] !== 'ERROR') return { code: m[1], detail };
	}
	return { code: 'EUNKNOWN', detail };
}

function cancelSignal(ctx: TransportContext): AbortSignal | undefined {
	const fn = (ctx as Partial<IExecuteFunctions>).getExecutionCancelSignal;
	return typeof fn === 'function' ? fn.call(ctx) : undefined;
}

const MAX_ERROR_BODY = 2000;

function apiError(
	ctx: TransportContext,
	text: { message: string; description: string },
	secret: string | undefined,
	extra: { itemIndex?: number; httpCode?: string; body?: unknown },
) {
	const message = redact(text.message, secret);
	const description = redact(text.description, secret);
	// What NodeApiError keeps as the error response holds only what is safe to show: never
	// the request options or the axios error (they carry the Authorization header).
	const response: JsonObject = { message };
	if (extra.httpCode) response.httpCode = extra.httpCode;
	if (extra.body !== undefined && extra.body !== '') {
		const raw =
			typeof extra.body === 'string'
				? extra.body
				: Buffer.isBuffer(extra.body)
					? extra.body.toString('utf8')
					: undefined;
		if (raw !== undefined) {
			response.body = redact(
				raw.length > MAX_ERROR_BODY ? `${raw.slice(0, MAX_ERROR_BODY)}…` : raw,
				secret,
			);
		} else {
			try {
				const json = redact(JSON.stringify(extra.body), secret);
				response.body =
					json.length > MAX_ERROR_BODY
						? `${json.slice(0, MAX_ERROR_BODY)}…`
						: (JSON.parse(json) as JsonObject);
			} catch {
				response.body = '(unreadable body)';
			}
		}
	}
	const error = new NodeApiError(ctx.getNode(), response, {
		message,
		description,
		httpCode: extra.httpCode,
		itemIndex: extra.itemIndex,
	});
	// NodeApiError swaps a message that mentions a network error code for a generic one;
	// ours says more, so it is put back.
	error.message = message;
	error.description = description;
	return error;
}

interface Exchanged {
	response: RawResponse;
	/** Attempts made, time spent, and the last Retry-After, for error descriptions. */
	attempts: Attempts;
	/** Whether an earlier attempt may have been acted on (a write answered 5xx or cut off). */
	actedBefore: boolean;
}

/**
 * One HTTP exchange with retries. Answers with any status are returned (the caller decides);
 * requests that get no answer throw a NodeApiError once retries are over or not allowed.
 */
async function exchange(
	ctx: TransportContext,
	options: IHttpRequestOptions,
	authenticated: boolean,
	what: string,
	secret: string | undefined,
	request: Pick<ApiRequest, 'itemIndex' | 'retry'>,
): Promise<Exchanged> {
	const policy = { ...DEFAULT_RETRY_POLICY, ...request.retry };
	const method = (options.method ?? 'GET').toUpperCase();
	const startedAt = Date.now();
	const signal = cancelSignal(ctx);
	let actedBefore = false;
	const cancelled = () =>
		apiError(
			ctx,
			{
				message: `The execution was cancelled while trying to ${what}`,
				description: 'Nothing more was sent.',
			},
			secret,
			{
				itemIndex: request.itemIndex,
			},
		);
	for (let attempt = 0; ; attempt++) {
		if (signal?.aborted) throw cancelled();
		let response: IN8nHttpFullResponse | undefined;
		let outcome: Outcome;
		let failure: { code: string; detail: string | undefined } | undefined;
		try {
			// A fresh options object per attempt: n8n writes into it (abort signal, auth headers).
			const send: IHttpRequestOptions = {
				...options,
				headers: { ...(options.headers ?? {}) },
				abortSignal: signal,
			};
			response = (
				authenticated
					? await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, send)
					: await ctx.helpers.httpRequest(send)
			) as IN8nHttpFullResponse;
			outcome = { kind: 'status', status: response.statusCode };
		} catch (error) {
			failure = networkFailure(error);
			if (signal?.aborted || failure.code === 'ERR_CANCELED') throw cancelled();
			outcome = { kind: 'network', code: failure.code };
		}
		const attempts: Attempts = { method, attempts: attempt + 1, elapsedMs: Date.now() - startedAt };
		const done = () => ({
			response: {
				statusCode: response!.statusCode,
				headers: (response!.headers ?? {}) as IDataObject,
				body: response!.body,
			},
			attempts,
			actedBefore,
		});
		if (response && (response.statusCode < 400 || !shouldRetry(method, outcome))) return done();
		let delay: number | undefined;
		if (shouldRetry(method, outcome)) {
			const retryAfter = response
				? parseRetryAfter(headerValue(response.headers, 'retry-after'), Date.now())
				: undefined;
			attempts.retryAfterMs = retryAfter;
			delay = nextDelay(attempt, startedAt, Date.now(), policy, retryAfter);
			attempts.retryAfterTooLong =
				delay === undefined &&
				retryAfter !== undefined &&
				attempt + 1 < policy.maxAttempts &&
				nextDelay(attempt, startedAt, Date.now(), policy) !== undefined;
		}
		if (delay === undefined) {
			if (response) return done();
			const text = describeNetworkError(
				failure!.code,
				what,
				options.timeout ?? DEFAULT_TIMEOUT_MS,
				attempts,
				safeDetail(failure!.detail, secret),
			);
			throw apiError(ctx, text, secret, { itemIndex: request.itemIndex });
		}
		if (method !== 'GET' && mayHaveActed(outcome)) actedBefore = true;
		ctx.logger?.debug?.(
			`Document Generation: ${what}: attempt ${attempt + 1} failed (${response ? response.statusCode : failure!.code}), retrying in ${delay} ms`,
		);
		await pause(delay, signal);
	}
}

/** A header of an answer by its lower-case name, whatever the case it came in. */
export function headerValue(headers: unknown, name: string): unknown {
	if (!headers || typeof headers !== 'object') return undefined;
	const record = headers as Record<string, unknown>;
	if (name in record) return record[name];
	const key = Object.keys(record).find((k) => k.toLowerCase() === name);
	return key === undefined ? undefined : record[key];
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
	return (await apiRequestWithHeaders(ctx, request, schema)).body;
}

/** `apiRequest`, also giving the headers of the (successful) answer. */
export async function apiRequestWithHeaders<T = unknown>(
	ctx: TransportContext,
	request: ApiRequest,
	schema?: z.ZodType<T, z.ZodTypeDef, unknown>,
): Promise<{ body: T; headers: IDataObject }> {
	const { baseUrl, apiKey, timeoutMs } = await credentials(ctx);
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
	const { response, attempts, actedBefore } = await exchange(
		ctx,
		options,
		true,
		what,
		apiKey,
		request,
	);
	if (response.statusCode === 404 && request.method === 'DELETE' && actedBefore) {
		// An earlier attempt was cut off or answered 5xx after the service deleted it: gone is
		// what was asked for.
		return { body: undefined as T, headers: response.headers };
	}
	if (response.statusCode >= 400) {
		const text = describeHttpError(response.statusCode, response.body, what, attempts);
		throw apiError(ctx, text, apiKey, {
			itemIndex: request.itemIndex,
			httpCode: String(response.statusCode),
			body: response.body,
		});
	}
	if (!schema) return { body: response.body as T, headers: response.headers };
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
		const write = !isIdempotent(request.method);
		throw apiError(
			ctx,
			{
				message: `The service answered with an unexpected shape while trying to ${what} (${describeShape(body, parsed.error)})`,
				description: `${write ? 'The document may have been created anyway: look for it before running again. ' : ''}Check that the Base URL of the credential points at the document generation API (e.g. https://api.pdfmonkey.io). If it does, the service may have changed; please report it.`,
			},
			apiKey,
			{ itemIndex: request.itemIndex, httpCode: String(response.statusCode) },
		);
	}
	return { body: parsed.data, headers: response.headers };
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
	const { apiKey, timeoutMs } = await credentials(ctx);
	const { response } = await exchange(
		ctx,
		{
			method: 'GET',
			url,
			encoding: 'arraybuffer',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			// Until the answer starts, then between chunks: a slow but flowing download is fine.
			timeout: request.timeoutMs ?? timeoutMs,
		},
		false,
		request.what,
		apiKey,
		request,
	);
	if (response.body !== undefined && response.body !== null && !Buffer.isBuffer(response.body)) {
		const body = response.body as ArrayBuffer | string;
		response.body = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
	}
	return response;
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
