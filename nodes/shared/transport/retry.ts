/**
 * What failed and whether to try again. Pure. GET, PUT and DELETE are retried on 408, 429, 5xx
 * and dropped connections; a POST only on 429 or a connection never made; a timeout only if read.
 */
import { parseHttpDate } from '../helpers/dates';

export interface RetryPolicy {
	/** Attempts in all, the first included. */
	maxAttempts: number;
	/** Wall-clock budget from the first attempt; no wait may end past it. */
	budgetMs: number;
	baseDelayMs: number;
	maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxAttempts: 6,
	budgetMs: 25_000,
	baseDelayMs: 500,
	maxDelayMs: 8_000,
};

const codes = (names: string) => new Set(names.split(' '));
/** Connections that never reached the service: nothing was sent, so any method may be repeated. */
const NEVER_SENT = codes(
	'ECONNREFUSED ENOTFOUND EAI_AGAIN EHOSTUNREACH ENETUNREACH ENETDOWN UND_ERR_CONNECT_TIMEOUT ERR_SOCKET_CONNECTION_TIMEOUT',
);
/** Connections that broke after the request may have been sent. */
const BROKEN = codes(
	'ECONNRESET EPIPE ECONNCLOSED UND_ERR_SOCKET UND_ERR_CLOSED ERR_STREAM_PREMATURE_CLOSE',
);
/** No answer within the timeout (axios says ECONNABORTED, or ETIMEDOUT when told to). */
const TIMED_OUT = codes(
	'ECONNABORTED ETIMEDOUT ESOCKETTIMEDOUT UND_ERR_HEADERS_TIMEOUT UND_ERR_BODY_TIMEOUT',
);

interface ErrorLevel {
	code?: unknown;
	httpCode?: unknown;
	message?: unknown;
	messages?: unknown[];
	name?: unknown;
}

const CODE = /^(E[A-Z0-9_]{2,}|ERR_[A-Z0-9_]+|UND_ERR_[A-Z_]+)$/;

/** A failed request's network code, from its chain of causes first, and the innermost text. */
export function networkFailure(error: unknown): { code: string; detail: string | undefined } {
	const chain: ErrorLevel[] = [];
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (current && typeof current === 'object' && !seen.has(current) && chain.length < 10) {
		seen.add(current);
		chain.push(current as ErrorLevel);
		current = (current as { cause?: unknown }).cause;
	}
	const detail = innermostText(chain);
	for (const level of chain) {
		// n8n 2.x keeps axios's error (with its `code`) as the cause; 1.x puts the code in `httpCode`.
		for (const code of [level.code, level.httpCode])
			if (typeof code === 'string' && CODE.test(code)) return { code, detail };
		if (level.name === 'CanceledError') return { code: 'ERR_CANCELED', detail };
	}
	const texts = chain
		.slice(1)
		.concat(chain.slice(0, 1))
		.flatMap((level) => [level.message, ...(Array.isArray(level.messages) ? level.messages : [])]);
	for (const text of texts) {
		if (typeof text !== 'string') continue;
		if (/timeout of \d+ms exceeded/i.test(text)) return { code: 'ECONNABORTED', detail };
		if (/socket hang up/i.test(text)) return { code: 'ECONNRESET', detail };
		// One quantifier that can give back (so linear), over a bounded piece of the text.
		const m = /\b(E[A-Z]{3}[A-Z_]*)\b/.exec(text.slice(0, 2000));
		if (m && m[1] !== 'ERROR') return { code: m[1], detail };
	}
	return { code: 'EUNKNOWN', detail };
}

/** The deepest level's own text; n8n 1.x keeps no cause but the original text in `messages`. */
function innermostText(chain: ErrorLevel[]): string | undefined {
	const innermost = chain[chain.length - 1];
	const kept =
		chain.length === 1 && Array.isArray(innermost?.messages) ? innermost.messages[0] : undefined;
	if (typeof kept === 'string') return kept;
	return typeof innermost?.message === 'string' ? innermost.message : undefined;
}

export type NetworkKind = 'never-sent' | 'broken' | 'timeout' | 'other';
export type Outcome = { kind: 'status'; status: number } | { kind: 'network'; code: string };

export function networkKind(code: string): NetworkKind {
	if (NEVER_SENT.has(code)) return 'never-sent';
	if (BROKEN.has(code)) return 'broken';
	if (TIMED_OUT.has(code)) return 'timeout';
	return 'other';
}

export function isIdempotent(method: string): boolean {
	return method.toUpperCase() !== 'POST' && method.toUpperCase() !== 'PATCH';
}

/** Attempts of a safe request that may time out before the node gives up. */
export const MAX_TIMED_OUT_ATTEMPTS = 3;

export function isSafe(method: string): boolean {
	const m = method.toUpperCase();
	return m === 'GET' || m === 'HEAD';
}

export function isRetryableStatus(status: number): boolean {
	return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/** Whether this outcome of this method may be tried again without risk of acting twice. */
export function shouldRetry(method: string, outcome: Outcome): boolean {
	if (outcome.kind === 'status') {
		if (!isRetryableStatus(outcome.status)) return false;
		return isIdempotent(method) || outcome.status === 429;
	}
	const kind = networkKind(outcome.code);
	if (kind === 'never-sent') return true;
	if (kind === 'broken') return isIdempotent(method);
	if (kind === 'timeout') return isSafe(method);
	return false;
}

/** Whether the service may have acted on an attempt that ended so (5xx, any network failure but
 * a connection never made). */
export function mayHaveActed(outcome: Outcome): boolean {
	if (outcome.kind === 'status') return outcome.status >= 500;
	const kind = networkKind(outcome.code);
	return kind === 'broken' || kind === 'timeout' || kind === 'other';
}

/** `Retry-After` in ms, from delta-seconds or an HTTP date (a past one is 0); else undefined. */
export function parseRetryAfter(header: unknown, nowMs: number): number | undefined {
	const value = Array.isArray(header) ? (header as unknown[])[0] : header;
	if (typeof value === 'number')
		return Number.isFinite(value) && value >= 0 ? Math.round(value * 1000) : undefined;
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (text === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(text)) {
		const ms = Math.round(Number(text) * 1000);
		return Number.isFinite(ms) ? ms : undefined;
	}
	const date = parseHttpDate(text, { obsoleteForms: true });
	return date === undefined ? undefined : Math.max(0, date - nowMs);
}

/** Exponential backoff with jitter: between half and all of base·2^attempt, capped. */
export function backoffDelay(
	attempt: number,
	policy: RetryPolicy,
	random: () => number = Math.random,
): number {
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
	return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** The wait after attempt `attempt` (0 first), at least `Retry-After`; undefined when spent. */
export function nextDelay(
	attempt: number,
	policy: RetryPolicy,
	timing: { startedAt: number; now: number; retryAfterMs?: number; random?: () => number },
): number | undefined {
	const { startedAt, now, retryAfterMs, random = Math.random } = timing;
	if (attempt + 1 >= policy.maxAttempts) return undefined;
	const backoff = backoffDelay(attempt, policy, random);
	const delay = retryAfterMs !== undefined ? Math.max(retryAfterMs, backoff) : backoff;
	if (now + delay - startedAt > policy.budgetMs) return undefined;
	return delay;
}
