/**
 * The one constructor of the errors the transport throws: a NodeApiError whose message says
 * what happened and whose description says what to do, never carrying the API key or the
 * request options; and what such an error tells about a write (whether it may have acted).
 */
import type { JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { TransportContext } from '../types';
import type { Secrets } from './messages';
import { describeLimitWait, redact } from './messages';
import type { LimitSettings } from './limit';

const MAX_ERROR_BODY = 2000;

export function apiError(
	ctx: TransportContext,
	text: { message: string; description: string },
	secret: Secrets,
	extra: { itemIndex?: number; httpCode?: string; body?: unknown; outcomeUnknown?: boolean },
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
	if (extra.outcomeUnknown) error.context.outcomeUnknown = true;
	return error;
}

/**
 * Whether a write that failed with this error may have been carried out by the service: it
 * was sent, and then the connection broke, timed out, or the service answered 5xx.
 */
export function isOutcomeUnknown(error: unknown): boolean {
	return (
		error instanceof NodeApiError &&
		(error.context as { outcomeUnknown?: unknown }).outcomeUnknown === true
	);
}

/** A request refused because the service asked for a wait longer than allowed. */
export interface LimitRefusal {
	what: string;
	askedMs: number;
	settings: LimitSettings;
	secret: Secrets;
	itemIndex: number | undefined;
}

/** The error of a request refused because the service asked for a wait longer than allowed. */
export function limitError(ctx: TransportContext, refusal: LimitRefusal) {
	return apiError(
		ctx,
		describeLimitWait(refusal.askedMs, refusal.what, refusal.settings),
		refusal.secret,
		{ itemIndex: refusal.itemIndex, httpCode: '429' },
	);
}

/** The error of a request stopped because the execution was cancelled. */
export function cancelledError(
	ctx: TransportContext,
	what: string,
	secret: Secrets,
	itemIndex: number | undefined,
) {
	return apiError(
		ctx,
		{
			message: `The execution was cancelled while trying to ${what}`,
			description: 'Nothing more was sent.',
		},
		secret,
		{ itemIndex },
	);
}

/** Whether the service answered 404: the record is not there (or no longer). */
export function isNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && String(error.httpCode) === '404';
}
