/**
 * When to try a request again, and how long to wait. Pure, so unit tests drive it with a
 * fixed clock and random source.
 *
 * Reads and idempotent writes (GET, PUT, DELETE) are retried on 408, 429, 5xx and dropped
 * connections. Create (POST) is not idempotent: it is retried only when the service cannot
 * have acted on it, i.e. a 429 (refused before processing) or a connection that was never
 * established; never after a 5xx or a timeout once the request was sent.
 */
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

/** Error codes of connections that never reached the service: nothing was sent. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** Error codes of connections that broke or hung after the request may have been sent. */
const BROKEN = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT', 'ERR_SOCKET_CONNECTION_TIMEOUT', 'ECONNCLOSED', 'UND_ERR_SOCKET']);

export type Outcome = { kind: 'status'; status: number } | { kind: 'network'; code: string };

export function isIdempotent(method: string): boolean {
	return method.toUpperCase() !== 'POST';
}

export function isRetryableStatus(status: number): boolean {
	return status === 408 || status === 429 || status >= 500;
}

export function isNetworkCode(code: string): boolean {
	return NEVER_SENT.has(code) || BROKEN.has(code);
}

/** Whether this outcome of this method may be tried again without risk of acting twice. */
export function shouldRetry(method: string, outcome: Outcome): boolean {
	if (outcome.kind === 'status') {
		if (!isRetryableStatus(outcome.status)) return false;
		return isIdempotent(method) || outcome.status === 429;
	}
	if (NEVER_SENT.has(outcome.code)) return true;
	return isIdempotent(method) && BROKEN.has(outcome.code);
}

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; undefined when absent or junk. */
export function parseRetryAfter(header: unknown, nowMs: number): number | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const text = String(value).trim();
	if (text === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
	const date = Date.parse(text);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - nowMs);
}

/** Exponential backoff with jitter: between half and all of base·2^attempt, capped. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
	return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/**
 * The wait before the next attempt, or undefined when there must be none (attempts or budget
 * spent). `retryAfterMs`, when the service sent one, wins over the backoff.
 */
export function nextDelay(
	attempt: number,
	startedAt: number,
	now: number,
	policy: RetryPolicy,
	retryAfterMs?: number,
	random: () => number = Math.random,
): number | undefined {
	if (attempt + 1 >= policy.maxAttempts) return undefined;
	const delay = retryAfterMs !== undefined ? retryAfterMs : backoffDelay(attempt, policy, random);
	if (now + delay - startedAt > policy.budgetMs) return undefined;
	return delay;
}
