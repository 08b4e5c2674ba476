/** Calls of the API on top of `exchange`: JSON in, answers checked; a REST resource's calls. */
import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';
import type { z } from 'zod';

import { parseJsonLoose } from '../helpers/json';
import type { CallOptions, TransportContext } from '../types';
import { apiError, redact } from './errors';
import {
	CREDENTIAL_TYPE,
	DEFAULT_TIMEOUT_MS,
	exchange,
	type Exchanged,
	type RawResponse,
} from './exchange';
import { describeHttpError, describeShape } from './messages';
import { isIdempotent, type RetryPolicy } from './retry';

const MAX_TIMEOUT_S = 600;
export type Query = Array<[string, string | number | undefined]>;

export interface ApiRequest extends CallOptions {
	method: IHttpRequestMethods;
	path: string;
	query?: Query;
	body?: IDataObject;
	/** Words for error messages: "… while trying to <what>". */
	what?: string;
	retry?: Partial<RetryPolicy>;
}

/** Builds `?a=1&b=2` with proper encoding; undefined values are left out. */
export function buildQuery(query: Query | undefined): string {
	const parts = (query ?? [])
		.filter(([, value]) => value !== undefined && value !== '')
		.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
	return parts.length ? `?${parts.join('&')}` : '';
}

export interface Credentials {
	baseUrl: string;
	/** What no error may show: the API key and the webhook signing secret. */
	secrets: string[];
	timeoutMs: number;
}

/** The credential's Request Timeout (seconds) in milliseconds, or the default. */
export function timeoutFromCredential(value: unknown): number {
	const seconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0)
		return DEFAULT_TIMEOUT_MS;
	return Math.round(Math.min(seconds, MAX_TIMEOUT_S) * 1000);
}

export async function credentials(ctx: TransportContext): Promise<Credentials> {
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

/** A call to the API, its answer checked against `schema`; an error answer throws. */
export async function apiRequest<T = unknown>(
	ctx: TransportContext,
	request: ApiRequest,
	schema?: z.ZodType<T, z.ZodTypeDef, unknown>,
): Promise<T> {
	return (await apiRequestWithHeaders(ctx, request, schema)).body;
}

/** n8n's request options for a call of the API: JSON, any status answered, the timeout. */
function apiHttpOptions(request: ApiRequest, creds: Credentials): IHttpRequestOptions {
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${creds.baseUrl}${request.path}${buildQuery(request.query)}`,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: request.timeoutMs ?? creds.timeoutMs,
	};
	if (request.body !== undefined) {
		// Serialized here: axios drops own keys such as "__proto__", and payloads must arrive intact.
		options.body = JSON.stringify(request.body);
		options.headers = { 'Content-Type': 'application/json' };
	}
	return options;
}

interface ApiCall {
	request: ApiRequest;
	what: string;
	secrets: string[];
}

function answerError(ctx: TransportContext, call: ApiCall, exchanged: Exchanged) {
	const { response, attempts, outcomeUnknown } = exchanged;
	const text = describeHttpError(response.statusCode, response.body, call.what, attempts);
	return apiError(ctx, text, call.secrets, {
		itemIndex: call.request.itemIndex,
		httpCode: String(response.statusCode),
		body: response.body,
		outcomeUnknown,
	});
}

/** An answer's body with the credential's secrets taken out, so none reaches an output item. */
function scrubbed(body: unknown, secrets: string[]): unknown {
	if (typeof body === 'string') return redact(body, secrets);
	if (body === null || typeof body !== 'object') return body;
	const text = JSON.stringify(body);
	const clean = redact(text, secrets);
	return clean === text ? body : parseJsonLoose(clean);
}

/** An answer's body checked against the schema; an unexpected shape throws. */
function checkedBody<T>(
	ctx: TransportContext,
	call: ApiCall,
	response: RawResponse,
	schema: z.ZodType<T, z.ZodTypeDef, unknown>,
): T {
	// A text that is not JSON stays text: the schema refuses it below.
	const body = parseJsonLoose(response.body);
	const parsed = schema.safeParse(body);
	if (parsed.success) return parsed.data;
	const write = !isIdempotent(call.request.method);
	const message = `The service answered with an unexpected shape while trying to ${call.what} (${describeShape(body, parsed.error)})`;
	const description = `${write ? 'The request may have been carried out anyway (a document or template may have been created): look for it before running again. ' : ''}Check that the Base URL of the credential points at the document generation API (e.g. https://api.pdfmonkey.io). If it does, the service may have changed; please report it.`;
	throw apiError(ctx, { message, description }, call.secrets, {
		itemIndex: call.request.itemIndex,
		httpCode: String(response.statusCode),
		outcomeUnknown: write,
	});
}

/** `apiRequest`, also giving the headers of the (successful) answer. */
export async function apiRequestWithHeaders<T = unknown>(
	ctx: TransportContext,
	request: ApiRequest,
	schema?: z.ZodType<T, z.ZodTypeDef, unknown>,
): Promise<{ body: T; headers: IDataObject }> {
	const creds = await credentials(ctx);
	const what = request.what ?? `${request.method} ${request.path}`;
	const call: ApiCall = { request, what, secrets: creds.secrets };
	const exchanged = await exchange(ctx, {
		http: apiHttpOptions(request, creds),
		to: 'api',
		what,
		secret: creds.secrets,
		itemIndex: request.itemIndex,
		retry: request.retry,
	});
	const { response } = exchanged;
	if (response.statusCode === 404 && request.method === 'DELETE' && exchanged.actedBefore) {
		// An earlier attempt was cut off or answered 5xx after the service deleted it: done.
		return { body: undefined as T, headers: response.headers };
	}
	if (response.statusCode >= 400) throw answerError(ctx, call, exchanged);
	const clean = { ...response, body: scrubbed(response.body, creds.secrets) };
	if (!schema) return { body: clean.body as T, headers: response.headers };
	return { body: checkedBody(ctx, call, clean, schema), headers: response.headers };
}

/** A schema of an answer holding the record under `K`. */
export type Envelope<K extends string> = z.ZodType<Record<K, unknown>, z.ZodTypeDef, unknown>;

/** One call whose answer holds a record under `key`; `fields` are sent wrapped in that key. */
export async function recordRequest<K extends string>(
	ctx: TransportContext,
	key: K,
	request: ApiRequest & { fields?: IDataObject },
	schema: Envelope<K>,
): Promise<IDataObject> {
	const { fields, ...call } = request;
	if (fields !== undefined) call.body = { [key]: fields };
	const answer = await apiRequest(ctx, call, schema);
	return answer[key] as IDataObject;
}

/** Get, create, update and delete of the resource at `path`, its record under `key`, named `noun`. */
export function restResource<K extends string>(
	key: K,
	path: string,
	noun: string,
	schema: Envelope<K>,
) {
	const record = async (ctx: TransportContext, request: ApiRequest & { fields?: IDataObject }) =>
		await recordRequest(ctx, key, request, schema);
	return {
		async get(ctx: TransportContext, id: string, options: CallOptions = {}) {
			const what = `get ${noun} ${id}`;
			return await record(ctx, { method: 'GET', path: `${path}/${id}`, what, ...options });
		},
		async create(ctx: TransportContext, fields: IDataObject, options: CallOptions = {}) {
			const what = `create a ${noun}`;
			return await record(ctx, { method: 'POST', path, fields, what, ...options });
		},
		async update(
			ctx: TransportContext,
			id: string,
			fields: IDataObject,
			options: CallOptions = {},
		) {
			const what = `update ${noun} ${id}`;
			return await record(ctx, { method: 'PUT', path: `${path}/${id}`, fields, what, ...options });
		},
		async remove(ctx: TransportContext, id: string, options: CallOptions = {}): Promise<void> {
			const what = `delete ${noun} ${id}`;
			await apiRequest(ctx, { method: 'DELETE', path: `${path}/${id}`, what, ...options });
		},
	};
}
