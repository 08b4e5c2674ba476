/**
 * The errors the transport throws: one constructor of a NodeApiError that says what happened and
 * what to do, every secret kept out of it; and whether a write that failed may have acted.
 */
import type { JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { TransportContext } from '../types';
import type { LimitSettings } from './limit';
import { clip, describeLimitWait, type ApiErrorText } from './messages';

/** The secrets to keep out of a text: the API key, and the signing secret where there is one. */
export type Secrets = string | ReadonlyArray<string | undefined> | undefined;

/** Shortest encoded form worth removing (shorter ones could match ordinary text). */
const MIN_FORM_LENGTH = 8;

/**
 * The forms a secret takes in a text, longest first: as it is, URL- and form-encoded, JSON-escaped
 * once and twice, a `whsec_` secret without its prefix, base64 and base64url at each alignment.
 */
export function secretForms(secret: string): string[] {
	const forms = new Set<string>([secret]);
	const url = encodeURIComponent(secret);
	forms.add(url);
	forms.add(url.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
	forms.add(url.replace(/%20/g, '+'));
	forms.add(JSON.stringify(secret).slice(1, -1));
	forms.add(JSON.stringify(JSON.stringify(secret)).slice(3, -3));
	if (secret.startsWith('whsec_')) forms.add(secret.slice('whsec_'.length));
	const bytes = Buffer.from(secret, 'utf8');
	for (let shift = 0; shift < 3; shift++) {
		const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
		// Only the characters made of the secret's own bits: not the shift's, not the padding.
		const core = encoded.slice(
			Math.ceil((8 * shift) / 6),
			Math.floor((8 * (shift + bytes.length)) / 6),
		);
		if (core.length < MIN_FORM_LENGTH) continue;
		forms.add(core);
		forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return [...forms].filter((form) => form.length >= 4).sort((a, b) => b.length - a.length);
}

/** Replaces every occurrence of each secret, in any of its forms (`secretForms`), in a text. */
export function redact(value: string, secrets: Secrets): string {
	const list = typeof secrets === 'string' ? [secrets] : (secrets ?? []);
	let out = value;
	for (const secret of list) {
		if (!secret || secret.length < 4) continue;
		for (const form of secretForms(secret)) out = out.split(form).join('***');
	}
	return out;
}

/**
 * An error's own text made safe to show: first line only, the secret removed, query strings
 * of URLs (presigned signatures) cut, and clipped.
 */
export function safeDetail(value: unknown, secret: Secrets): string | undefined {
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	// Bounded before the patterns run: a URL pattern over a long line of many "http://" is
	// quadratic, and only the first 200 characters are shown anyway. The secret is removed
	// first, so no part of one is left at the cut.
	const firstLine = clip(redact(value.trim().split('\n')[0], secret), 2000);
	return clip(firstLine.replace(/(https?:\/\/[^\s?#]*)[?#]\S*/gi, '$1?…'), 200);
}

const MAX_ERROR_BODY = 2000;

export function apiError(
	ctx: TransportContext,
	text: ApiErrorText,
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
			// Removed before the cut, so no part of a secret is left at the cut.
			response.body = clip(redact(raw, secret), MAX_ERROR_BODY);
		} else {
			try {
				const json = redact(JSON.stringify(extra.body), secret);
				response.body =
					json.length > MAX_ERROR_BODY
						? clip(json, MAX_ERROR_BODY)
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

/** Whether a write that failed with this error may have been carried out (cut off, or 5xx). */
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
