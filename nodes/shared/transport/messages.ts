/**
 * Turning the service's answers into messages a user can act on. Pure.
 *
 * Three error body shapes occur: a JSON:API list `{"errors": [{status, title, detail}]}`
 * (401, 404), a field hash `{"errors": {"field": ["message"]}}` (422) and `{"error": "..."}`
 * (malformed JSON). Anything else (an HTML page from a proxy, an empty body) is described by
 * its status alone.
 *
 * Messages never carry error codes such as ECONNRESET: n8n replaces a NodeApiError message
 * that contains one with its own generic text. Codes go into the description.
 */
import { isIdempotent, networkKind } from './retry';
import { serviceDetails } from './serviceWords';

export { redact, secretForms, type Secrets } from './redact';
export { safeDetail, serviceDetails } from './serviceWords';

export interface ApiErrorText {
	message: string;
	description: string;
}

/** What the transport did before giving up, for the description. */
export interface Attempts {
	/** HTTP method of the request. */
	method?: string;
	/** Attempts made, the first included. */
	attempts?: number;
	/** Time from the first attempt to giving up. */
	elapsedMs?: number;
	/** The last `Retry-After` the service asked for. */
	retryAfterMs?: number;
	/** Whether the retries stopped because that `Retry-After` was longer than the retry budget. */
	retryAfterTooLong?: boolean;
}

function seconds(ms: number): string {
	const s = ms / 1000;
	return s < 10 ? `${Math.round(s * 10) / 10} s` : `${Math.round(s)} s`;
}

/** "Tried 6 times over 12 s." when there were retries; '' otherwise. */
function tried(ctx: Attempts): string {
	if (!ctx.attempts || ctx.attempts < 2) return '';
	return `Tried ${ctx.attempts} times over ${seconds(ctx.elapsedMs ?? 0)}. `;
}

const NOT_REPEATED_CREATE =
	'A create is not repeated after the request reached the service, because the service may already have stored the document: look for it (Get Many, or the dashboard) before running again, to avoid a duplicate.';

/** What the service said in an error answer: its words joined, if any. */
interface Said {
	/** The service's words, joined; undefined when it said nothing readable. */
	words?: string;
	/** " The service said: …" to end a description with, or ''. */
	tail: string;
}

/** 401, 403, 404, 422, 400: the request or the credential is to fix. */
function describeRefusal(status: number, what: string, said: Said): ApiErrorText | undefined {
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

/** 408 and 429: the service is busy; how often it was tried and what it asked for. */
function describeBusy(status: number, what: string, said: Said, ctx: Attempts): ApiErrorText {
	const waited =
		ctx.retryAfterTooLong && ctx.retryAfterMs !== undefined
			? `The service asked to wait ${seconds(ctx.retryAfterMs)} before trying again, longer than this node waits. `
			: '';
	return {
		message:
			status === 429
				? `The service is rate limiting requests (429) while trying to ${what}`
				: `The service timed out (408) while trying to ${what}`,
		description: `${tried(ctx)}${waited}Lower the number of items per run or run again later.${said.tail}`,
	};
}

/** 5xx: on the service's side; a create that may have been stored is not repeated. */
function describeServerFailure(
	status: number,
	what: string,
	said: Said,
	ctx: Attempts,
): ApiErrorText {
	const create = ctx.method !== undefined && !isIdempotent(ctx.method);
	return {
		message: `The service failed with ${status} while trying to ${what}`,
		description: create
			? `${NOT_REPEATED_CREATE}${said.tail}`
			: `${tried(ctx)}This is on the service's side; run again later.${said.tail}`,
	};
}

/** Message and fix for an HTTP error answer. `what` names the call, e.g. "get document 1b2c…". */
export function describeHttpError(
	status: number,
	body: unknown,
	what: string,
	ctx: Attempts = {},
): ApiErrorText {
	const details = serviceDetails(body);
	const words = details.length ? details.join('; ') : undefined;
	const said: Said = { words, tail: words ? ` The service said: ${words}` : '' };
	const refusal = describeRefusal(status, what, said);
	if (refusal) return refusal;
	if (status === 408 || status === 429) return describeBusy(status, what, said, ctx);
	if (status >= 500) return describeServerFailure(status, what, said, ctx);
	return {
		message: `Unexpected answer ${status} while trying to ${what}${words ? `: ${words}` : ''}`,
		description: 'Check the Base URL of the credential and the inputs of this node.',
	};
}

/**
 * Message and fix for a request that got no answer. `code` is the network error code;
 * `detail` the original error's text (already made safe by the caller), shown for codes
 * without a message of their own.
 */
export function describeNetworkError(
	code: string,
	what: string,
	timeoutMs: number,
	ctx: Attempts = {},
	detail?: string,
): ApiErrorText {
	const create = ctx.method !== undefined && !isIdempotent(ctx.method);
	switch (networkKind(code)) {
		case 'timeout':
			return {
				message: `The service did not answer within ${seconds(timeoutMs)} while trying to ${what}`,
				description: create
					? `The request timed out (${code}) and was not repeated: a create that timed out may still have been stored, so look for it (Get Many, or the dashboard) before running again. If the service is just slow, raise Request Timeout in the Document Generation credential.`
					: `${tried(ctx)}The request timed out (${code}). If the service is just slow, raise Request Timeout in the Document Generation credential; otherwise check its Base URL and your network.`,
			};
		case 'never-sent':
			return {
				message: `Could not connect to the service while trying to ${what}`,
				description: `${tried(ctx)}The connection failed (${code}${detail ? `: ${detail}` : ''}). Check the Base URL of the credential (e.g. https://api.pdfmonkey.io) and your network.`,
			};
		case 'broken':
			return {
				message: `The connection to the service broke while trying to ${what}`,
				description: create
					? `The connection dropped (${code}) after the request was sent. ${NOT_REPEATED_CREATE}`
					: `${tried(ctx)}The network or the service dropped the connection (${code}); run again later.`,
			};
		default:
			if (code === 'EUNKNOWN') {
				// No network error code anywhere: the request failed inside n8n before it reached
				// the network (its own machinery), so the network and Base URL are not to blame.
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

/**
 * Message and fix for a request not sent because the service asked for a wait (429) longer
 * than `maxWaitMs`; `option` names where the user changes that.
 */
export function describeLimitWait(
	askedMs: number,
	what: string,
	settings: { maxWaitMs: number; option?: string; advice?: string },
): ApiErrorText {
	const where = settings.option ?? 'Max Wait for Rate Limit (an option of Create and Update)';
	const accepted = settings.advice ? 'this trigger accepts' : 'this run accepts, ' + where;
	const fix =
		settings.advice ??
		"lower the batch's pace (fewer items per execution, e.g. Loop Over Items with a Wait node between batches, or fewer workflows using this account at once), raise " +
			where +
			', or move to a plan with a higher limit.';
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
