/**
 * Turning the service's answers into messages a user can act on. Pure.
 *
 * Three error body shapes occur: a JSON:API list `{"errors": [{status, title, detail}]}`
 * (401, 404), a field hash `{"errors": {"field": ["message"]}}` (422) and `{"error": "..."}`
 * (malformed JSON). Anything else (an HTML page from a proxy, an empty body) is described by
 * its status alone.
 */
import type { IDataObject } from 'n8n-workflow';

export interface ApiErrorText {
	message: string;
	description: string;
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The service's own words from an error body, whichever of the shapes it has. */
export function serviceDetails(body: unknown): string[] {
	let value = body;
	if (typeof value === 'string') {
		try {
			value = JSON.parse(value);
		} catch {
			return [];
		}
	}
	if (!value || typeof value !== 'object') return [];
	const obj = value as IDataObject;
	const out: string[] = [];
	if (Array.isArray(obj.errors)) {
		for (const entry of obj.errors) {
			if (entry && typeof entry === 'object') {
				const e = entry as IDataObject;
				const detail = text(e.detail) ?? text(e.title) ?? text(e.message);
				if (detail) out.push(detail);
			} else if (text(entry)) out.push(String(entry));
		}
	} else if (obj.errors && typeof obj.errors === 'object') {
		for (const [field, messages] of Object.entries(obj.errors as IDataObject)) {
			const list = Array.isArray(messages) ? messages : [messages];
			for (const message of list) {
				const m = text(message);
				if (!m) continue;
				out.push(field === 'base' || field === 'status' ? m : `${field.replace(/_/g, ' ')} ${m}`);
			}
		}
	}
	const single = text(obj.error) ?? text(obj.message);
	if (single) out.push(single);
	return out;
}

/** Message and fix for an HTTP error answer. `what` names the call, e.g. "Get document 1b2c…". */
export function describeHttpError(status: number, body: unknown, what: string): ApiErrorText {
	const details = serviceDetails(body);
	const said = details.length ? details.join('; ') : undefined;
	switch (status) {
		case 401:
			return {
				message: 'Authentication failed: the API key was refused (401)',
				description: `Check the API key in the Document Generation credential: copy it again from the API key page of the dashboard (a regenerated key replaces the old one).${said ? ` The service said: ${said}` : ''}`,
			};
		case 403:
			return {
				message: `Access denied (403) while trying to ${what}`,
				description: `The API key is valid but may not do this; check the account and workspace.${said ? ` The service said: ${said}` : ''}`,
			};
		case 404:
			return {
				message: `Not found (404) while trying to ${what}`,
				description: `${said ? `The service said: ${said}. ` : ''}Check the ID: the document or template may have been deleted, or belong to another account. If every call fails with 404, check the Base URL of the credential.`,
			};
		case 422:
			return {
				message: `The service refused the data (422): ${said ?? 'invalid request'}`,
				description: 'Correct the fields named above and run again.',
			};
		case 400:
			return {
				message: `The service could not read the request (400)${said ? `: ${said}` : ''}`,
				description: 'Check that payload and meta are valid JSON objects.',
			};
		case 408:
		case 429:
			return {
				message: status === 429 ? 'The service is rate limiting requests (429)' : 'The service timed out (408)',
				description: `Retried with backoff and gave up. Lower the batch size or run again later.${said ? ` The service said: ${said}` : ''}`,
			};
		default:
			if (status >= 500) {
				return {
					message: `The service failed with ${status} while trying to ${what}`,
					description: `This is on the service's side. Retried reads with backoff; run again later.${said ? ` The service said: ${said}` : ''}`,
				};
			}
			return {
				message: `Unexpected answer ${status} while trying to ${what}${said ? `: ${said}` : ''}`,
				description: 'Check the Base URL of the credential and the inputs of this node.',
			};
	}
}

/** Message and fix for a request that got no answer. */
export function describeNetworkError(code: string, what: string, timeoutMs: number): ApiErrorText {
	if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') {
		return {
			message: `The service did not answer within ${Math.round(timeoutMs / 1000)} s while trying to ${what}`,
			description:
				'The request timed out. Check the Base URL of the credential and your network, then run again; a create that timed out may still have been stored, so look for it before creating again.',
		};
	}
	if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
		return {
			message: `Could not connect to the service (${code}) while trying to ${what}`,
			description: 'Check the Base URL of the credential (e.g. https://api.pdfmonkey.io) and your network.',
		};
	}
	return {
		message: `The connection to the service broke (${code}) while trying to ${what}`,
		description: 'The network or the service dropped the connection. Reads were retried; run again later.',
	};
}

/** Replaces every occurrence of the secret in a text. */
export function redact(value: string, secret: string | undefined): string {
	if (!secret || secret.length < 4) return value;
	return value.split(secret).join('***');
}
