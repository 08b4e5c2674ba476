/**
 * A delivery with a signing secret. Its Svix signature: the signed content is
 * `<svix-id>.<svix-timestamp>.<raw body>`, the key is the base64 text after `whsec_`, the
 * header holds space-separated `v1,<base64 HMAC-SHA256>` entries (any may match), and a
 * timestamp more than 5 minutes away from now is refused, so a captured delivery cannot be
 * replayed later. Comparison is constant-time.
 *
 * Then one run per delivery id in this process, even when copies of one delivery arrive
 * together. The id is reserved the moment the signature holds, before anything is awaited; a
 * copy that arrives meanwhile waits for the first: answered 2xx without a run when the first
 * started its run, or 503 (the service sends it again) when the first failed, whose id is then
 * free again.
 */
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

/**
 * Delivery ids of this process, per trigger: a pending one holds the first copy's outcome
 * (whether it ended without an error). At most 10,000 ids (all triggers together, about 3 MB),
 * each kept 24 hours (longer than the service keeps sending one delivery again) unless 5,000
 * newer deliveries came since.
 */
// Stryker disable next-line all: set at module load, before any mutant is on; no test can see it
const deliveries = new Recent<Promise<boolean> | 'done'>(10_000, 24 * 60 * 60 * 1000);

/** The request as n8n hands it to a webhook: its raw body, and n8n's reader of it. */
interface WebhookRequest {
	rawBody?: unknown;
	readRawBody?: () => Promise<void>;
}

/**
 * The raw bytes of the request body, as n8n keeps them for webhooks. n8n reads them before a
 * node of version 1 runs whatever the content type; above version 1 only for the types it
 * parses (JSON, text, form, XML): a delivery of another type is read here with n8n's reader.
 */
async function rawBodyOf(ctx: IWebhookFunctions): Promise<Buffer | undefined> {
	const req = ctx.getRequestObject() as WebhookRequest;
	// A read that fails leaves no body: refused below, as one n8n could not keep.
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
	// Its download link says when it ends (`download_url_expires_at`). A link without its own
	// signature times counts from when the document finished, not from now: the service may
	// send a delivery again hours later.
	const finishedAt = timeOf(body.document.updated_at) ?? Date.now();
	const json = documentItem(withLinkExpiry(body.document, Math.min(Date.now(), finishedAt)));
	const why = mismatch(json, settings);
	if (why) return ignore(`not started: ${why}`);
	// The same on every attempt of one delivery, whichever n8n process it reaches: what n8n's
	// Remove Duplicates node keys on to drop a delivery sent again (see the README).
	json.deliveryId = deliveryId;
	return { workflowData: [[await documentExecutionItem(ctx, settings, body.document, json)]] };
}

/** A copy of a delivery this process has seen: answered by what the first one did. */
async function answerCopy(
	ctx: IWebhookFunctions,
	seen: Promise<boolean> | 'done',
): Promise<IWebhookResponseData> {
	// 'done' once the first copy's run started; until then, whether it will have.
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
	if (!raw)
		return refuse(
			ctx,
			401,
			'Invalid signature: the request body could not be read; send the delivery again with its body',
		);
	const verdict = verifySignature(
		secret,
		{
			id: headers['svix-id'],
			timestamp: headers['svix-timestamp'],
			signature: headers['svix-signature'],
			rawBody: raw,
		},
		Date.now(),
	);
	if (!verdict.ok) return refuse(ctx, 401, `Invalid signature: ${verdict.reason}`);
	const deliveryId = headerText(headers['svix-id']);
	const key = `${triggerKey(ctx)}/${deliveryId}`;
	// From here to the reservation nothing is awaited: of copies arriving together, exactly
	// one finds the id free.
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
		// Failed (its file could not be fetched, say): n8n answers with an error, the service
		// sends the delivery again, and that attempt must be able to start the run.
		deliveries.delete(key);
		settle(false);
		throw asNodeError(ctx, error);
	}
}
