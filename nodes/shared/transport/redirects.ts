/** Redirects of authenticated calls: followed within the API's origin, any other refused. */
import type { IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import type { ApiErrorText } from './messages';

/** Hops within the API's origin followed for one request before it is refused. */
export const MAX_SAME_ORIGIN_REDIRECTS = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function isRedirect(status: number): boolean {
	return REDIRECTS.has(status);
}

/** A redirect that was not followed: why, in words a user can act on, and its status. */
export class RedirectRefused extends Error {
	constructor(
		readonly text: ApiErrorText,
		readonly status: number,
	) {
		super(text.message);
	}
}

function originOf(url: string): string | undefined {
	try {
		return new URL(url).origin;
	} catch {
		return undefined;
	}
}

/** The `Location` of an answer as an absolute URL (it may be relative), or undefined. */
export function redirectTarget(location: unknown, from: string): URL | undefined {
	const text = Array.isArray(location) ? location[0] : location;
	if (typeof text !== 'string' || text.trim() === '') return undefined;
	try {
		const target = new URL(text.trim(), from);
		return target.protocol === 'http:' || target.protocol === 'https:' ? target : undefined;
	} catch {
		return undefined;
	}
}

const CHECK_BASE_URL =
	"Check the Base URL of the credential: it must be the API's own address (e.g. https://api.pdfmonkey.io, with https and without a path). If n8n reaches the service through a proxy, check that the proxy passes requests on instead of redirecting them.";

/** The words for a redirect to another origin (names the host, never the path or query). */
export function describeOffOriginRedirect(
	status: number,
	target: URL,
	apiOrigin: string,
	what: string,
): ApiErrorText {
	const host = target.host.slice(0, 100);
	const sameHost = host === new URL(apiOrigin).host;
	const hint = sameHost
		? ` The service moved from ${new URL(apiOrigin).protocol.replace(':', '')} to ${target.protocol.replace(':', '')}: write ${target.origin} as the Base URL.`
		: '';
	return {
		message: `The service answered with a redirect (${status}) to another host, ${host}, while trying to ${what}`,
		description: `The API key is sent only to the API's address (${apiOrigin}), so the redirect was not followed and nothing was sent to ${host}.${hint} ${CHECK_BASE_URL}`,
	};
}

function refused(status: number, message: string, description: string): RedirectRefused {
	return new RedirectRefused({ message, description: `${description} ${CHECK_BASE_URL}` }, status);
}

/** The next hop: 307/308 keep method and body; 303 (and 301/302 of a read) become a GET. */
function nextHop(
	send: IHttpRequestOptions,
	status: number,
	target: URL,
	what: string,
): IHttpRequestOptions {
	const method = (send.method ?? 'GET').toUpperCase();
	if (status === 307 || status === 308) return { ...send, url: target.href };
	const read = method === 'GET' || method === 'HEAD';
	if (!read && status !== 303) {
		throw refused(
			status,
			`The service answered with a redirect (${status}) while trying to ${what}`,
			'A write redirected this way cannot be sent on as it was, so it was not followed; the write may not have been carried out.',
		);
	}
	const hop: IHttpRequestOptions = {
		...send,
		url: target.href,
		method: read ? send.method : 'GET',
	};
	if (!read) {
		delete hop.body;
		hop.headers = { ...(send.headers ?? {}) };
		delete hop.headers['Content-Type'];
	}
	return hop;
}

/** Sends with redirects off, following MAX_SAME_ORIGIN_REDIRECTS within the origin, else throws. */
export async function sendWithinOrigin(
	send: IHttpRequestOptions,
	what: string,
	call: (options: IHttpRequestOptions) => Promise<IN8nHttpFullResponse>,
	discard: (body: unknown) => void,
): Promise<IN8nHttpFullResponse> {
	const apiOrigin = originOf(send.url) ?? '';
	let current: IHttpRequestOptions = send;
	for (let hops = 0; ; hops++) {
		const sent = { ...current, headers: { ...(current.headers ?? {}) } };
		const response = await call({ ...sent, disableFollowRedirect: true });
		if (!isRedirect(response.statusCode)) return response;
		discard(response.body);
		const status = response.statusCode;
		const headers = (response.headers ?? {}) as Record<string, unknown>;
		const target = redirectTarget(headers.location ?? headers.Location, current.url);
		if (!target) {
			throw refused(
				status,
				`The service answered with a redirect (${status}) without a valid address while trying to ${what}`,
				'Nothing was sent on.',
			);
		}
		if (target.origin !== apiOrigin)
			throw new RedirectRefused(describeOffOriginRedirect(status, target, apiOrigin, what), status);
		if (hops >= MAX_SAME_ORIGIN_REDIRECTS) {
			throw refused(
				status,
				`The service answered with more than ${MAX_SAME_ORIGIN_REDIRECTS} redirects in a row while trying to ${what}`,
				'They were not followed further.',
			);
		}
		current = nextHop(current, status, target, what);
	}
}
