/**
 * A delivery with a signing secret: its Svix signature checked, then one run per delivery id
 * in this process, even when copies of one delivery arrive together. The id is reserved the
 * moment the signature holds, before anything is awaited; a copy that arrives meanwhile waits
 * for the first: answered 2xx without a run when the first started its run, or 503 (the
 * service sends it again) when the first failed, whose id is then free again.
 */
import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { asNodeError } from '../shared/helpers/items';
import { documentExecutionItem, ignore, refuse, triggerKey } from './answers';
import { deliveryBody, documentItem, quotaWarningItem } from './delivery';
import { Recent } from './memory';
import type { WebhookSettings } from './settings';
import { mismatch } from './settings';
import { verifySignature } from './signature';
import { timeOf } from '../shared/helpers/dates';
import { withLinkExpiry } from '../shared/helpers/linkExpiry';

/**
 * Delivery ids of this process, per trigger: a pending one holds the first copy's outcome
 * (whether it ended without an error). At most 10,000 ids (all triggers together, about 3 MB),
 * each kept 24 hours (longer than the service keeps sending one delivery again) unless 5,000
 * newer deliveries came since.
 */
// Stryker disable next-line all: a module constant, set when the module loads, before the tool switches a mutant on: its mutants (the 24 hours made 24 or 0.09 seconds) each fail "a delivery sent again an hour later" when planted by hand
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
	// Stryker disable next-line MethodExpression: equivalent, Node's HTTP parser trims header values already
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
