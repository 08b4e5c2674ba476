// Svix: HMAC-SHA256 of `<svix-id>.<svix-timestamp>.<raw body>` keyed by the base64 after `whsec_`;
// any `v1,<base64>` entry may match (constant time); a timestamp over 5 minutes away is refused.
// One run per delivery id in this process: it is reserved before any await; copies wait for it.
import { createHmac, timingSafeEqual } from 'crypto';
import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { timeOf } from '../shared/helpers/dates';
import { asNodeError } from '../shared/helpers/items';
import { withLinkExpiry } from '../shared/helpers/linkExpiry';
import {
	Recent,
	deliveryBody,
	documentExecutionItem,
	documentItem,
	ignore,
	quotaWarningItem,
	refuse,
	triggerKey,
} from './delivery';
import type { WebhookSettings } from './settings';
import { mismatch } from './settings';

export const TOLERANCE_SECONDS = 5 * 60;
const NO_BODY =
	'Invalid signature: the request body could not be read; send the delivery again with its body';

export interface Delivery {
	id: unknown;
	timestamp: unknown;
	signature: unknown;
	rawBody: Buffer | string;
}

export type Verdict = { ok: true } | { ok: false; reason: string };
/** A delivery id's first copy: pending (whether it will succeed), or 'done' once its run started. */
type Seen = Promise<boolean> | 'done';

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
	const { rawBody } = delivery;
	const body = Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody, 'utf8');
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

// Delivery ids per trigger (a pending one holds whether the first copy succeeded): at most 10,000
// (about 3 MB), each kept 24 h (past the service's retries) unless 5,000 newer ones came since.
// Stryker disable next-line all: set at module load, before any mutant is on; no test can see it
const deliveries = new Recent<Seen>(10_000, 24 * 60 * 60 * 1000);

type WebhookRequest = { rawBody?: unknown; readRawBody?: () => Promise<void> };

// The raw request body. n8n keeps it for a version 1 node whatever the type, above only for types
// it parses (JSON, text, form, XML); others are read here with n8n's reader (a failed read: none).
async function rawBodyOf(ctx: IWebhookFunctions): Promise<Buffer | undefined> {
	const req = ctx.getRequestObject() as WebhookRequest;
	if (req.rawBody === undefined && typeof req.readRawBody === 'function')
		await req.readRawBody().catch(() => undefined);
	if (Buffer.isBuffer(req.rawBody)) return req.rawBody;
	if (typeof req.rawBody === 'string') return Buffer.from(req.rawBody, 'utf8');
	return undefined;
}

function headerText(value: unknown): string {
	// Stryker disable next-line MethodExpression: Node's HTTP parser trims header values already
	return String(Array.isArray(value) ? value[0] : value).trim();
}

/** What one delivery (its first copy) starts, read from the bytes whose signature held. */
async function handle(
	ctx: IWebhookFunctions,
	settings: WebhookSettings,
	raw: Buffer,
	deliveryId: string,
): Promise<IWebhookResponseData> {
	const body = deliveryBody(raw.toString('utf8'));
	if (body.kind === 'quotaWarning') {
		if (!settings.quotaWarning)
			return ignore('not started: the quota warning is not a chosen event');
		return { workflowData: [[{ json: { ...quotaWarningItem(body.figures), deliveryId } }]] };
	}
	if (body.kind !== 'document' || typeof body.document.id !== 'string')
		return ignore('the body holds no document');
	// A link lacking its signing time counts from the document's finish (a resend may be hours late).
	const finishedAt = timeOf(body.document.updated_at) ?? Date.now();
	const json = documentItem(withLinkExpiry(body.document, Math.min(Date.now(), finishedAt)));
	const why = mismatch(json, settings);
	if (why) return ignore(`not started: ${why}`);
	// The same on every attempt, in any n8n process: Remove Duplicates keys on it (see the README).
	json.deliveryId = deliveryId;
	return { workflowData: [[await documentExecutionItem(ctx, settings, body.document, json)]] };
}

/** A copy of a delivery this process has seen: answered by what the first one did. */
async function answerCopy(ctx: IWebhookFunctions, seen: Seen): Promise<IWebhookResponseData> {
	if (await seen) return ignore('this delivery was handled already');
	return refuse(ctx, 503, 'Another copy of this delivery failed just now; send it again later');
}

export async function receiveSigned(
	ctx: IWebhookFunctions,
	settings: WebhookSettings,
	secret: string,
): Promise<IWebhookResponseData> {
	const headers = ctx.getHeaderData();
	const raw = await rawBodyOf(ctx);
	if (!raw) return refuse(ctx, 401, NO_BODY);
	const delivery: Delivery = {
		id: headers['svix-id'],
		timestamp: headers['svix-timestamp'],
		signature: headers['svix-signature'],
		rawBody: raw,
	};
	const verdict = verifySignature(secret, delivery, Date.now());
	if (!verdict.ok) return refuse(ctx, 401, `Invalid signature: ${verdict.reason}`);
	const deliveryId = headerText(headers['svix-id']);
	const key = `${triggerKey(ctx)}/${deliveryId}`;
	// Nothing is awaited from here to the reservation: of copies together, one finds the id free.
	const seen = deliveries.get(key, Date.now());
	if (seen !== undefined) return await answerCopy(ctx, seen);
	let settle: (ok: boolean) => void = () => undefined;
	deliveries.set(key, new Promise<boolean>((resolve) => (settle = resolve)), Date.now());
	try {
		const answer = await handle(ctx, settings, raw, deliveryId);
		deliveries.set(key, 'done', Date.now());
		settle(true);
		return answer;
	} catch (error) {
		// Failed (say, its file): n8n answers with an error and the service's next attempt may run.
		deliveries.delete(key);
		settle(false);
		throw asNodeError(ctx, error);
	}
}
