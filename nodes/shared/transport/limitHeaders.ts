/**
 * Reading what an answer's headers say of the request limit (`X-RateLimit-*`, the IETF
 * `RateLimit` fields). Pure.
 */

/** What an answer says of the limit. Times are relative to the answer (ms). */
export interface LimitReading {
	limit?: number;
	remaining?: number;
	resetMs?: number;
}

function numberOf(value: unknown): number | undefined {
	const text = Array.isArray(value) ? (value as unknown[])[0] : value;
	if (typeof text === 'number') return Number.isFinite(text) && text >= 0 ? text : undefined;
	if (typeof text !== 'string' || !/^\s*\d+(\.\d+)?\s*$/.test(text)) return undefined;
	return Number(text);
}

/** A reset in seconds: a delta, or (above 10^9) a unix time read against the answer's clock. */
function resetMs(seconds: number | undefined, serverNow: number): number | undefined {
	if (seconds === undefined) return undefined;
	if (seconds > 1e9) return Math.max(0, seconds * 1000 - serverNow);
	return seconds * 1000;
}

/** `key=value` parameters of a header field (`limit=100, remaining=5` or `"p";r=5;t=30`). */
function params(value: unknown): Map<string, number> {
	const text = Array.isArray(value) ? (value as unknown[]).join(',') : value;
	const out = new Map<string, number>();
	if (typeof text !== 'string') return out;
	for (const m of text.matchAll(/\b([a-z]+)\s*=\s*(\d+(?:\.\d+)?)/gi)) {
		const key = m[1].toLowerCase();
		const n = Number(m[2]);
		// With several policies in one field, the tightest counts.
		if (!out.has(key) || n < out.get(key)!) out.set(key, n);
	}
	return out;
}

/**
 * What the answer's headers say of the limit: `X-RateLimit-Limit/Remaining/Reset` (reset as
 * seconds from now, or as a unix time), IETF drafts' `RateLimit-Limit/Remaining/Reset`, the
 * combined `RateLimit: limit=…, remaining=…, reset=…`, or the newer `RateLimit: "p";r=…;t=…`
 * with `RateLimit-Policy: "p";q=…;w=…`. `header` reads a header by lower-case name;
 * `serverNow` is the answer's own clock (its `Date`), for a reset given as a unix time.
 * Undefined when none is there.
 */
export function parseLimitHeaders(
	header: (name: string) => unknown,
	serverNow: number,
): LimitReading | undefined {
	const combined = params(header('ratelimit'));
	const policy = params(header('ratelimit-policy'));
	const reading: LimitReading = {};
	const limit =
		numberOf(header('x-ratelimit-limit')) ??
		numberOf(header('ratelimit-limit')) ??
		combined.get('limit') ??
		policy.get('q') ??
		numberOf(String(header('ratelimit-policy') ?? '').split(/[;,]/)[0]);
	const remaining =
		numberOf(header('x-ratelimit-remaining')) ??
		numberOf(header('ratelimit-remaining')) ??
		combined.get('remaining') ??
		combined.get('r');
	const reset = resetMs(
		numberOf(header('x-ratelimit-reset')) ??
			numberOf(header('ratelimit-reset')) ??
			combined.get('reset') ??
			combined.get('t'),
		serverNow,
	);
	if (limit !== undefined) reading.limit = limit;
	if (remaining !== undefined) reading.remaining = remaining;
	if (reset !== undefined) reading.resetMs = reset;
	return Object.keys(reading).length ? reading : undefined;
}
