/**
 * Checking a delivery's Svix signature. Pure. The signed content is
 * `<svix-id>.<svix-timestamp>.<raw body>`, the key is the base64 text after `whsec_`, the
 * header holds space-separated `v1,<base64 HMAC-SHA256>` entries (any may match), and a
 * timestamp more than 5 minutes away from now is refused, so a captured delivery cannot be
 * replayed later. Comparison is constant-time.
 */
import { createHmac, timingSafeEqual } from 'crypto';

export const TOLERANCE_SECONDS = 5 * 60;

export interface Delivery {
	id: unknown;
	timestamp: unknown;
	signature: unknown;
	rawBody: Buffer | string;
}

export type Verdict = { ok: true } | { ok: false; reason: string };

/** The signing key from a `whsec_…` secret; undefined when it is not base64 of some bytes. */
export function signingKey(secret: string): Buffer | undefined {
	const text = secret.trim().replace(/^whsec_/, '');
	if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined;
	const key = Buffer.from(text, 'base64');
	return key.length ? key : undefined;
}

function header(value: unknown): string | undefined {
	const one = Array.isArray(value) ? value[0] : value;
	return typeof one === 'string' && one.trim() !== '' ? one.trim() : undefined;
}

export function verifySignature(secret: string, delivery: Delivery, nowMs: number): Verdict {
	const key = signingKey(secret);
	if (!key) return { ok: false, reason: 'the signing secret is not a whsec_ secret' };
	const id = header(delivery.id);
	const timestamp = header(delivery.timestamp);
	const signatures = header(delivery.signature);
	if (!id || !timestamp || !signatures)
		return { ok: false, reason: 'a signature header is missing' };
	if (!/^\d+$/.test(timestamp)) return { ok: false, reason: 'the timestamp is not a number' };
	if (Math.abs(nowMs / 1000 - Number(timestamp)) > TOLERANCE_SECONDS)
		return { ok: false, reason: 'the timestamp is more than 5 minutes away' };
	const body = Buffer.isBuffer(delivery.rawBody)
		? delivery.rawBody
		: Buffer.from(delivery.rawBody, 'utf8');
	const expected = createHmac('sha256', key)
		.update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), body]))
		.digest();
	for (const entry of signatures.split(' ')) {
		const [version, value] = entry.split(',', 2);
		if (version !== 'v1' || !value) continue;
		const given = Buffer.from(value, 'base64');
		if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true };
	}
	return { ok: false, reason: 'no signature matches' };
}
