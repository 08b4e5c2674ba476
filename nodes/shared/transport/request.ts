/**
 * Calls of the service's API, on top of `exchange`: base URL, timeout
 * and key from the credential, authentication through n8n's `httpRequestWithAuthentication`
 * (the credential type's own Bearer definition), JSON bodies serialized here, answers checked
 * against a schema, and errors that say what to do.
 */
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';
import type { z } from 'zod';

import type { TransportContext } from '../types';
import { describeHttpError } from './messages';
import { parseJsonLoose } from '../helpers/json';
import { apiError } from './apiErrors';
import type { ApiRequest, Query, RawResponse } from './calls';
import { CREDENTIAL_TYPE, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_S } from './calls';
import type { Exchanged } from './exchange';
import { exchange } from './exchange';
import { redact } from './redact';
import { isIdempotent } from './retry';
import { describeShape } from './schemas';

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

/** The credential's settings the transport uses. */
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
		// Serialized here, not by the HTTP client: axios drops own keys such as "__proto__"
		// when it serializes an object, and the user's payload and meta must arrive intact.
		options.body = JSON.stringify(request.body);
		options.headers = { 'Content-Type': 'application/json' };
	}
	return options;
}

/** What a call was, for its errors: the request, its words, and what they may not show. */
interface Called {
	request: ApiRequest;
	what: string;
	secrets: string[];
}

/** The error of an error answer (4xx, 5xx). */
function answerError(ctx: TransportContext, called: Called, exchanged: Exchanged) {
	const { response, attempts, outcomeUnknown } = exchanged;
	const text = describeHttpError(response.statusCode, response.body, called.what, attempts);
	return apiError(ctx, text, called.secrets, {
		itemIndex: called.request.itemIndex,
		httpCode: String(response.statusCode),
		body: response.body,
		outcomeUnknown,
	});
}

/**
 * An answer's body with the credential's secrets taken out, in any of the forms `redact`
 * knows: a service (or anything posing as one) that echoes the key into a document's meta, a
 * failure cause or a name cannot put it into an output item or an error built from it.
 */
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
	called: Called,
	response: RawResponse,
	schema: z.ZodType<T, z.ZodTypeDef, unknown>,
): T {
	// A text that is not JSON stays text: the schema refuses it below.
	const body = parseJsonLoose(response.body);
	const parsed = schema.safeParse(body);
	if (parsed.success) return parsed.data;
	const write = !isIdempotent(called.request.method);
	throw apiError(
		ctx,
		{
			message: `The service answered with an unexpected shape while trying to ${called.what} (${describeShape(body, parsed.error)})`,
			description: `${write ? 'The request may have been carried out anyway (a document or template may have been created): look for it before running again. ' : ''}Check that the Base URL of the credential points at the document generation API (e.g. https://api.pdfmonkey.io). If it does, the service may have changed; please report it.`,
		},
		called.secrets,
		{
			itemIndex: called.request.itemIndex,
			httpCode: String(response.statusCode),
			outcomeUnknown: write,
		},
	);
}

/** `apiRequest`, also giving the headers of the (successful) answer. */
export async function apiRequestWithHeaders<T = unknown>(
	ctx: TransportContext,
	request: ApiRequest,
	schema?: z.ZodType<T, z.ZodTypeDef, unknown>,
): Promise<{ body: T; headers: IDataObject }> {
	const creds = await credentials(ctx);
	const called: Called = {
		request,
		what: request.what ?? `${request.method} ${request.path}`,
		secrets: creds.secrets,
	};
	const exchanged = await exchange(ctx, {
		http: apiHttpOptions(request, creds),
		to: 'api',
		what: called.what,
		secret: creds.secrets,
		itemIndex: request.itemIndex,
		retry: request.retry,
	});
	const { response } = exchanged;
	if (response.statusCode === 404 && request.method === 'DELETE' && exchanged.actedBefore) {
		// An earlier attempt was cut off or answered 5xx after the service deleted it: gone is
		// what was asked for.
		return { body: undefined as T, headers: response.headers };
	}
	if (response.statusCode >= 400) throw answerError(ctx, called, exchanged);
	const clean = { ...response, body: scrubbed(response.body, creds.secrets) };
	if (!schema) return { body: clean.body as T, headers: response.headers };
	return { body: checkedBody(ctx, called, clean, schema), headers: response.headers };
}
