/** Failures in words to act on. Pure. Codes go in the description (n8n replaces such a message). */
import type { IDataObject } from 'n8n-workflow';
import type { z } from 'zod';

import { parseJsonLoose } from '../helpers/json';
import { isIdempotent, networkKind } from './retry';

export interface ApiErrorText {
	message: string;
	description: string;
}

/** What the transport did before giving up, for the description. */
export interface Attempts {
	method?: string;
	/** Attempts made, the first included. */
	attempts?: number;
	elapsedMs?: number;
	retryAfterMs?: number;
	/** Whether the retries stopped because that `Retry-After` was longer than the retry budget. */
	retryAfterTooLong?: boolean;
}

function seconds(ms: number): string {
	const s = ms / 1000;
	return s < 10 ? `${Math.round(s * 10) / 10} s` : `${Math.round(s)} s`;
}

/** "Tried 6 times over 12 s." when there were retries; '' otherwise. */
function retriesMade(spent: Attempts): string {
	if (!spent.attempts || spent.attempts < 2) return '';
	return `Tried ${spent.attempts} times over ${seconds(spent.elapsedMs ?? 0)}. `;
}

const NOT_REPEATED_CREATE =
	'A create is not repeated after the request reached the service, because the service may already have stored the document: look for it (Get Many, or the dashboard) before running again, to avoid a duplicate.';

interface ServiceWords {
	/** The service's words, joined; undefined when it said nothing readable. */
	words?: string;
	/** " The service said: …" to end a description with, or ''. */
	tail: string;
}

/** 401, 403, 404, 422, 400: the request or the credential is to fix. */
function describeRefusal(
	status: number,
	what: string,
	said: ServiceWords,
): ApiErrorText | undefined {
	const { words, tail } = said;
	switch (status) {
		case 401:
			return {
				message: 'The API key was refused by the service',
				description: `Open the credential of this node (Document Generation (PDFMonkey) API) and paste the API key again, copied from the dashboard (My Account → API Secret Key); a regenerated key replaces the old one. If the key is right, check that the Base URL points at the service that issued it.${tail}`,
			};
		case 403:
			return {
				message: `Access denied (403) while trying to ${what}`,
				description: `The API key is valid but may not do this; check the account and workspace.${tail}`,
			};
		case 404:
			return {
				message: `Not found (404) while trying to ${what}`,
				description: `${words ? `The service said: ${words}. ` : ''}Check the ID: the document or template may have been deleted, or belong to another account. If every call fails with 404, check the Base URL of the credential.`,
			};
		case 422:
			return {
				message: `The service refused the data (422): ${words ?? 'invalid request'}`,
				description: 'Correct the fields named above and run again.',
			};
		case 400:
			return {
				message: `The service could not read the request (400)${words ? `: ${words}` : ''}`,
				description:
					'Check the JSON fields of this node (payload, meta, sample data): each must be one valid JSON object. If they are, something between n8n and the service changed the request.',
			};
		default:
			return undefined;
	}
}

/** 408 and 429 (busy), 5xx (the service's side: a create that may be stored is not repeated). */
function describeServiceTrouble(
	status: number,
	what: string,
	said: ServiceWords,
	spent: Attempts,
): ApiErrorText {
	if (status >= 500) {
		const create = spent.method !== undefined && !isIdempotent(spent.method);
		return {
			message: `The service failed with ${status} while trying to ${what}`,
			description: create
				? `${NOT_REPEATED_CREATE}${said.tail}`
				: `${retriesMade(spent)}This is on the service's side; run again later.${said.tail}`,
		};
	}
	const waited =
		spent.retryAfterTooLong && spent.retryAfterMs !== undefined
			? `The service asked to wait ${seconds(spent.retryAfterMs)} before trying again, longer than this node waits. `
			: '';
	return {
		message:
			status === 429
				? `The service is rate limiting requests (429) while trying to ${what}`
				: `The service timed out (408) while trying to ${what}`,
		description: `${retriesMade(spent)}${waited}Lower the number of items per run or run again later.${said.tail}`,
	};
}

/** Message and fix for an HTTP error answer. `what` names the call, e.g. "get document 1b2c…". */
export function describeHttpError(
	status: number,
	body: unknown,
	what: string,
	spent: Attempts = {},
): ApiErrorText {
	const details = serviceDetails(body);
	const words = details.length ? details.join('; ') : undefined;
	const said: ServiceWords = { words, tail: words ? ` The service said: ${words}` : '' };
	const refusal = describeRefusal(status, what, said);
	if (refusal) return refusal;
	if (status === 408 || status === 429 || status >= 500)
		return describeServiceTrouble(status, what, said, spent);
	return {
		message: `Unexpected answer ${status} while trying to ${what}${words ? `: ${words}` : ''}`,
		description: 'Check the Base URL of the credential and the inputs of this node.',
	};
}

/** Message and fix for a request without an answer; `detail` (made safe) shown for other codes. */
export function describeNetworkError(
	code: string,
	what: string,
	timeoutMs: number,
	spent: Attempts = {},
	detail?: string,
): ApiErrorText {
	const create = spent.method !== undefined && !isIdempotent(spent.method);
	switch (networkKind(code)) {
		case 'timeout':
			return {
				message: `The service did not answer within ${seconds(timeoutMs)} while trying to ${what}`,
				description: create
					? `The request timed out (${code}) and was not repeated: a create that timed out may still have been stored, so look for it (Get Many, or the dashboard) before running again. If the service is just slow, raise Request Timeout in the Document Generation credential.`
					: `${retriesMade(spent)}The request timed out (${code}). If the service is just slow, raise Request Timeout in the Document Generation credential; otherwise check its Base URL and your network.`,
			};
		case 'never-sent':
			return {
				message: `Could not connect to the service while trying to ${what}`,
				description: `${retriesMade(spent)}The connection failed (${code}${detail ? `: ${detail}` : ''}). Check the Base URL of the credential (e.g. https://api.pdfmonkey.io) and your network.`,
			};
		case 'broken':
			return {
				message: `The connection to the service broke while trying to ${what}`,
				description: create
					? `The connection dropped (${code}) after the request was sent. ${NOT_REPEATED_CREATE}`
					: `${retriesMade(spent)}The network or the service dropped the connection (${code}); run again later.`,
			};
		default:
			if (code === 'EUNKNOWN') {
				// No network error code anywhere: the request failed inside n8n, not on the network.
				return {
					message: `n8n could not make the request while trying to ${what}`,
					description: `${detail ? `n8n said: ${detail}. ` : ''}This happened inside n8n, not on the network or at the service. Run again; if it keeps happening, restart n8n.`,
				};
			}
			return {
				message: `The request could not be made while trying to ${what}`,
				description: `${detail ? `${detail} ` : ''}(${code}). Check the Base URL of the credential (e.g. https://api.pdfmonkey.io).`,
			};
	}
}

/** Message and fix for a request not sent: the service asked for a wait longer than `maxWaitMs`. */
export function describeLimitWait(
	askedMs: number,
	what: string,
	settings: { maxWaitMs: number; option?: string; advice?: string },
): ApiErrorText {
	const where = settings.option ?? 'Max Wait for Rate Limit (an option of Create and Update)';
	const accepted = settings.advice ? 'this trigger accepts' : 'this run accepts, ' + where;
	const fix =
		settings.advice ??
		`lower the batch's pace (fewer items per execution, e.g. Loop Over Items with a Wait node between batches, or fewer workflows using this account at once), raise ${where}, or move to a plan with a higher limit.`;
	return {
		message: `The service asked to wait ${seconds(askedMs)} before the next request (429 Too Many Requests) while trying to ${what}`,
		description: `That is longer than the longest wait ${accepted} (${seconds(settings.maxWaitMs)}), so nothing more was sent. The account's request limit is spent for now: ${fix}`,
	};
}

/** Message and fix for a file download that failed with `status` (after one fresh link on 403). */
export function describeDownloadError(status: number, what: string): ApiErrorText {
	if (status === 403) {
		return {
			message: `The download link kept being refused (403) while trying to ${what}`,
			description:
				'A fresh link was fetched and refused too. Check the system clock and run again.',
		};
	}
	return {
		message: `The file could not be downloaded (${status}) while trying to ${what}`,
		description: 'Run again later; if it persists, open the document in the dashboard.',
	};
}

/** Message and fix for a file that broke off twice while it arrived (`code`: why). */
export function describeBrokenDownload(code: string, what: string): ApiErrorText {
	const why =
		networkKind(code) === 'timeout'
			? 'stopped arriving for longer than the Request Timeout'
			: `broke off (${code})`;
	return {
		message: `The file broke off while trying to ${what}`,
		description: `It ${why}, and again with a fresh link. The document is kept: run again later, or raise Request Timeout in the Document Generation credential if the file host is just slow.`,
	};
}

const MAX_DETAIL = 500;

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** `value` cut to `max` UTF-16 units and marked `…`, never between the two units of a character. */
export function clip(value: string, max = MAX_DETAIL): string {
	if (value.length <= max) return value;
	const code = value.charCodeAt(max - 1);
	return `${value.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max)}…`;
}

/** The field a JSON:API `source` points at (`/data/attributes/identifier` → `identifier`). */
function pointedField(source: unknown): string | undefined {
	if (!source || typeof source !== 'object') return undefined;
	const pointer = text((source as IDataObject).pointer) ?? text((source as IDataObject).parameter);
	const last = pointer?.split('/').pop();
	return last && !['data', 'attributes', 'base', 'status'].includes(last) ? last : undefined;
}

/** "identifier can't be blank": the field in words before its message, unless already named. */
function withField(field: string | undefined, message: string): string {
	if (!field) return message;
	const words = field.replace(/_/g, ' ');
	return message.toLowerCase().startsWith(words.toLowerCase()) ? message : `${words} ${message}`;
}

/** The service's words from an error body: `errors` as a list or a field hash, or `error`. */
export function serviceDetails(body: unknown): string[] {
	const value = parseJsonLoose(Buffer.isBuffer(body) ? body.toString('utf8') : body);
	if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
	const obj = value as IDataObject;
	const out: string[] = [];
	if (Array.isArray(obj.errors)) {
		for (const entry of obj.errors) {
			if (entry && typeof entry === 'object') {
				const e = entry as IDataObject;
				const detail = text(e.detail) ?? text(e.title) ?? text(e.message);
				if (detail) out.push(clip(withField(pointedField(e.source), detail)));
			} else if (text(entry)) out.push(clip(String(entry)));
		}
	} else if (obj.errors && typeof obj.errors === 'object') {
		for (const [field, messages] of Object.entries(obj.errors as IDataObject)) {
			// One level of nesting is read too: {"document": {"payload": ["is invalid"]}}.
			const nested = messages && typeof messages === 'object' && !Array.isArray(messages);
			const pairs: Array<[string, unknown]> = nested
				? Object.entries(messages as IDataObject)
				: [[field, messages]];
			for (const [name, list] of pairs) {
				for (const message of Array.isArray(list) ? list : [list]) {
					const m = text(message);
					if (m) out.push(clip(name === 'base' || name === 'status' ? m : withField(name, m)));
				}
			}
		}
	} else if (text(obj.errors)) out.push(clip(text(obj.errors)!));
	const single = text(obj.error) ?? text(obj.message);
	if (single) out.push(clip(single));
	return out;
}

/** First problem of a failed check, as "path: message". */
export function firstIssue(error: z.ZodError): string {
	const issue = error.issues[0];
	if (!issue) return 'unexpected shape';
	const path = issue.path.length ? issue.path.join('.') : '(top level)';
	return `${path}: ${issue.message}`;
}

/** Why an answer failed its check, in words: text where JSON was expected, or the first issue. */
export function describeShape(body: unknown, error: z.ZodError): string {
	if (body === undefined || body === null || body === '') return 'an empty answer';
	if (typeof body === 'string')
		return body.trimStart().startsWith('<')
			? 'an HTML page instead of JSON'
			: 'text instead of JSON';
	if (Array.isArray(body)) return 'a list where an object was expected';
	return firstIssue(error);
}
