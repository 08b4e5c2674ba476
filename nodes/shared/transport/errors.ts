/** The errors the transport throws: NodeApiErrors that say what to do, every secret kept out. */
import type { JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { TransportContext } from '../types';
import type { LimitSettings } from './limit';
import { clip, describeLimitWait, type ApiErrorText } from './messages';

/** The secrets to keep out of a text: the API key, and the signing secret where there is one. */
export type Secrets = string | ReadonlyArray<string | undefined> | undefined;
/** Shortest encoded form worth removing (shorter ones could match ordinary text). */
const MIN_FORM_LENGTH = 8;

/** A secret's forms, longest first: as is, URL-encoded, JSON-escaped, unprefixed, base64(url). */
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

/** An error's own text safe to show: first line, secrets and URL queries removed, clipped. */
export function safeDetail(value: unknown, secret: Secrets): string | undefined {
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	// Secret removed before the cut; bounded before the URL pattern, quadratic on many "http://".
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
	// The error response holds only what is safe: never the request options (they carry the key).
	const response: JsonObject = { message };
	if (extra.httpCode) response.httpCode = extra.httpCode;
	if (extra.body !== undefined && extra.body !== '') {
		const raw = Buffer.isBuffer(extra.body) ? extra.body.toString('utf8') : extra.body;
		if (typeof raw === 'string') {
			response.body = clip(redact(raw, secret), MAX_ERROR_BODY);
		} else {
			try {
				const json = redact(JSON.stringify(extra.body), secret);
				const long = json.length > MAX_ERROR_BODY;
				response.body = long ? clip(json, MAX_ERROR_BODY) : (JSON.parse(json) as JsonObject);
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
	// NodeApiError swaps a message naming a network code for a generic one: ours is put back.
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

export interface LimitRefusal {
	what: string;
	askedMs: number;
	settings: LimitSettings;
	secret: Secrets;
	itemIndex: number | undefined;
}

/** The error of a request refused because the service asked for a wait longer than allowed. */
export function limitError(ctx: TransportContext, refusal: LimitRefusal) {
	const text = describeLimitWait(refusal.askedMs, refusal.what, refusal.settings);
	return apiError(ctx, text, refusal.secret, { itemIndex: refusal.itemIndex, httpCode: '429' });
}

export function cancelledError(
	ctx: TransportContext,
	what: string,
	secret: Secrets,
	itemIndex: number | undefined,
) {
	const message = `The execution was cancelled while trying to ${what}`;
	return apiError(ctx, { message, description: 'Nothing more was sent.' }, secret, { itemIndex });
}

export function isNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && String(error.httpCode) === '404';
}
