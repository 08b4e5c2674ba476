/**
 * When to try a request again, and how long to wait. Pure, so unit tests drive it with a
 * fixed clock and random source.
 *
 * Reads and idempotent writes (GET, PUT, DELETE) are retried on 408, 429, 5xx and dropped
 * connections. Create (POST) is not idempotent: it is retried only when the service cannot
 * have acted on it, i.e. a 429 (refused before processing) or a connection that was never
 * established; never after a 5xx, a dropped connection or a timeout once the request was sent.
 *
 * A safe request (GET) that timed out is repeated like one answered 5xx, at most
 * `MAX_TIMED_OUT_ATTEMPTS` times in all (each attempt is bounded by the timeout, so the wait is
 * bounded too); a write that timed out is never repeated, since the service may have acted.
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

/** Connections that never reached the service: nothing was sent, so any method may be repeated. */
const NEVER_SENT = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ENETDOWN',
	'UND_ERR_CONNECT_TIMEOUT',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);
/** Connections that broke after the request may have been sent. */
const BROKEN = new Set([
	'ECONNRESET',
	'EPIPE',
	'ECONNCLOSED',
	'UND_ERR_SOCKET',
	'UND_ERR_CLOSED',
	'ERR_STREAM_PREMATURE_CLOSE',
]);
/** No answer within the timeout (axios says ECONNABORTED, or ETIMEDOUT when told to). */
const TIMED_OUT = new Set([
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'UND_ERR_HEADERS_TIMEOUT',
	'UND_ERR_BODY_TIMEOUT',
]);

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

/** Methods that only read: repeating them can never act twice. */
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

/**
 * Whether the service may have acted on an attempt that ended this way (a write that reached
 * it and then failed or broke). A 429 and a connection never made mean it did not.
 */
export function mayHaveActed(outcome: Outcome): boolean {
	if (outcome.kind === 'status') return outcome.status >= 500;
	const kind = networkKind(outcome.code);
	return kind === 'broken' || kind === 'timeout' || kind === 'other';
}

/**
 * `Retry-After` in milliseconds: delta-seconds or an HTTP date (IMF-fixdate, RFC 850 or
 * asctime); undefined when absent or junk. A date in the past means "now" (0).
 */
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
	if (date === undefined) return undefined;
	return Math.max(0, date - nowMs);
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

/**
 * The wait before the next attempt (after attempt number `attempt`, 0 for the first), or
 * undefined when there must be none: attempts spent, or the wait would end past the budget.
 * When the service sent `Retry-After`, the wait is at least that long (never shorter than
 * the backoff either, so `Retry-After: 0` cannot make us hammer the service).
 */
export function nextDelay(
	attempt: number,
	policy: RetryPolicy,
	timing: {
		/** When the budget started (ms). */
		startedAt: number;
		now: number;
		/** The service's `Retry-After`, when it sent one. */
		retryAfterMs?: number;
		random?: () => number;
	},
): number | undefined {
	const { startedAt, now, retryAfterMs, random = Math.random } = timing;
	if (attempt + 1 >= policy.maxAttempts) return undefined;
	const backoff = backoffDelay(attempt, policy, random);
	const delay = retryAfterMs !== undefined ? Math.max(retryAfterMs, backoff) : backoff;
	if (now + delay - startedAt > policy.budgetMs) return undefined;
	return delay;
}
