/** When `download_url` ends: from its signature times, else an hour after the read. Pure. */
import type { IDataObject } from 'n8n-workflow';

/** The output field that says when `download_url` ends. Saved workflows read it: never rename. */
export const LINK_EXPIRY_FIELD = 'download_url_expires_at';
/** The documented life of a download link from the read that signed it. */
export const LINK_LIFE_MS = 3600_000;
const MAX_URL_LENGTH = 16_384;

/** A signing time as `20261126T103000Z` (UTC), in ms; undefined when it is not a real one. */
function compactUtc(value: string | undefined): number | undefined {
	if (value === undefined || value.length !== 16 || value[8] !== 'T' || value[15] !== 'Z')
		return undefined;
	const digits = value.slice(0, 8) + value.slice(9, 15);
	if (!/^\d{14}$/.test(digits)) return undefined;
	const [y, mo, d, h, mi, s] = [0, 4, 6, 8, 10, 12].map((at, n) =>
		Number(digits.slice(at, n === 0 ? 4 : at + 2)),
	);
	if (y < 1970 || h > 23 || mi > 59 || s > 59) return undefined;
	const ms = Date.UTC(y, mo - 1, d, h, mi, s);
	const back = new Date(ms);
	return back.getUTCMonth() === mo - 1 && back.getUTCDate() === d ? ms : undefined;
}

function seconds(value: string | undefined): number | undefined {
	return value !== undefined && /^\d{1,10}$/.test(value) ? Number(value) : undefined;
}

/** The query of a URL with lower-cased names (the first value of each). */
function queryOf(url: string): Map<string, string> | undefined {
	if (url.length > MAX_URL_LENGTH) return undefined;
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return undefined;
	}
	const query = new Map<string, string>();
	for (const [name, value] of parsed.searchParams) {
		const key = name.toLowerCase();
		if (!query.has(key)) query.set(key, value);
	}
	return query;
}

const VENDORS = ['x-amz', 'x-goog'];

/** When a presigned URL was signed (ms), from its `X-Amz-Date` or `X-Goog-Date`. */
export function signedAt(url: string): number | undefined {
	const query = queryOf(url);
	for (const vendor of VENDORS) {
		const at = compactUtc(query?.get(`${vendor}-date`));
		if (at !== undefined) return at;
	}
	return undefined;
}

/** When a signed URL says it ends (ms), from its own signature times; undefined without them. */
export function signedExpiry(url: string): number | undefined {
	const query = queryOf(url);
	if (!query) return undefined;
	for (const vendor of VENDORS) {
		const at = compactUtc(query.get(`${vendor}-date`));
		const life = seconds(query.get(`${vendor}-expires`));
		if (at !== undefined && life !== undefined) return at + life * 1000;
	}
	const expires = seconds(query.get('expires'));
	return expires === undefined ? undefined : expires * 1000;
}

/** When a download link read at `readAt` (ms) stops working, as ISO text; null without a link. */
export function linkExpiry(url: unknown, readAt: number): string | null {
	if (typeof url !== 'string' || url === '') return null;
	const ends = signedExpiry(url) ?? readAt + LINK_LIFE_MS;
	return Number.isFinite(ends) && Math.abs(ends) <= 8.64e15 ? new Date(ends).toISOString() : null;
}

/** A record read at `readAt` (ms) with `download_url_expires_at` beside its `download_url`. */
export function withLinkExpiry<T extends object>(record: T, readAt: number): T {
	if (!('download_url' in record)) return record;
	const url = (record as IDataObject).download_url;
	return { ...record, [LINK_EXPIRY_FIELD]: linkExpiry(url, readAt) };
}
