/**
 * One delivery: trust it (a valid Svix signature when the credential has a signing secret;
 * otherwise the document re-read from the API with the key), check it against the chosen
 * events, templates and channel, and start one execution with the document (the file
 * attached on request). A refused delivery answers 401 and starts nothing; a delivery that
 * does not match answers 200 (so the service does not retry it) and starts nothing; one that
 * cannot be checked just now (the request limit, the service failing) answers 503, and the
 * service sends it again later.
 */
import type {
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { downloadToBinary } from '../shared/download';
import { normalizeDocument } from '../shared/helpers/document';
import { parseJsonLoose } from '../shared/helpers/json';
import { isUuid } from '../shared/helpers/parse';
import { CREDENTIAL_TYPE, getDocumentCard, limitRequestsTo } from '../shared/transport';
import { mismatch, readWebhookSettings } from './settings';
import { verifySignature } from './signature';

/** Deliveries remembered (by svix-id) so that a delivery sent again starts nothing. */
const REMEMBERED = 200;

function refuse(ctx: IWebhookFunctions, status: number, message: string): IWebhookResponseData {
	const res = ctx.getResponseObject();
	res.status(status).json({ error: message });
	return { noWebhookResponse: true };
}

function ignore(reason: string): IWebhookResponseData {
	return { webhookResponse: { received: true, started: false, reason } };
}

/** The raw bytes of the request body, as n8n keeps them for webhooks. */
function rawBodyOf(ctx: IWebhookFunctions): Buffer | undefined {
	const req = ctx.getRequestObject() as { rawBody?: unknown };
	if (Buffer.isBuffer(req.rawBody)) return req.rawBody;
	if (typeof req.rawBody === 'string') return Buffer.from(req.rawBody, 'utf8');
	return undefined;
}

/** The document a delivery body carries (`{"document": {…}}`), if it holds one. */
function documentIn(body: unknown): IDataObject | undefined {
	const document = body && typeof body === 'object' ? (body as IDataObject).document : undefined;
	return document && typeof document === 'object' && !Array.isArray(document)
		? (document as IDataObject)
		: undefined;
}

/**
 * Delivery ids handled recently, per trigger node, in this n8n process. n8n does not keep
 * static data that a webhook function changes, so the ids live here (a restart forgets them;
 * the signature's 5-minute window bounds how late a replay could come anyway).
 */
const handled = new Map<string, string[]>();

const handledKey = (ctx: IWebhookFunctions) => `${ctx.getWorkflow().id ?? ''}/${ctx.getNode().id}`;

/** Whether this trigger already started a run for this delivery id. */
function handledBefore(ctx: IWebhookFunctions, id: string): boolean {
	return (handled.get(handledKey(ctx)) ?? []).includes(id);
}

/**
 * Remembers a delivery once its run is ready to start. A delivery that failed before (its
 * file could not be fetched, say) is not remembered: n8n answers it with an error, the
 * service sends it again, and that attempt must start the run.
 */
function remember(ctx: IWebhookFunctions, id: string): void {
	const key = handledKey(ctx);
	handled.set(key, [...(handled.get(key) ?? []), id].slice(-REMEMBERED));
}

/**
 * A delivery waits for the service's request limit only briefly: answered with an error, it
 * is sent again later by the service, which is better than holding the connection.
 */
const DELIVERY_LIMIT = {
	maxWaitMs: 10_000,
	advice: 'n8n answered the delivery with an error, so the service sends it again later.',
};

export async function receive(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const settings = readWebhookSettings(this);
	limitRequestsTo(this, DELIVERY_LIMIT);
	const credentials = (await this.getCredentials(CREDENTIAL_TYPE)) as IDataObject;
	const secret =
		typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret.trim() : '';
	const headers = this.getHeaderData();
	const raw = rawBodyOf(this);
	// With a secret, the document is read from the very bytes whose signature was checked.
	const sent = documentIn(
		parseJsonLoose(secret && raw ? raw.toString('utf8') : this.getBodyData()),
	);

	let document: IDataObject;
	let deliveryId: string | undefined;
	if (secret) {
		const verdict = raw
			? verifySignature(
					secret,
					{
						id: headers['svix-id'],
						timestamp: headers['svix-timestamp'],
						signature: headers['svix-signature'],
						rawBody: raw,
					},
					Date.now(),
				)
			: ({ ok: false, reason: 'the raw body is not available' } as const);
		if (!verdict.ok) return refuse(this, 401, `Invalid signature: ${verdict.reason}`);
		deliveryId = String(headers['svix-id']);
		if (handledBefore(this, deliveryId)) return ignore('this delivery was handled already');
		if (typeof sent?.id !== 'string') return ignore('the body holds no document');
		document = sent;
	} else {
		// Without a secret anyone could post here: trust only what the API says.
		const id = sent?.id;
		if (!isUuid(id)) return refuse(this, 400, 'The body holds no document id');
		try {
			document = await getDocumentCard(this, id.toLowerCase());
		} catch (error) {
			// Not the account's document (or not one at all): refused. Anything else (the
			// request limit, the service failing) is passing: the service sends it again.
			const status = error instanceof NodeApiError ? Number(error.httpCode) : NaN;
			if ([401, 403, 404].includes(status))
				return refuse(this, 401, 'The document could not be read from the API with the credential');
			return refuse(
				this,
				503,
				'The document could not be read from the API just now; send it again later',
			);
		}
	}

	const json = normalizeDocument(document);
	const why = mismatch(json, settings);
	if (why) return ignore(`not started: ${why}`);
	// The same on every attempt of one delivery, whichever n8n process it reaches: what n8n's
	// Remove Duplicates node keys on to drop a delivery sent again (see the README).
	if (deliveryId !== undefined) json.deliveryId = deliveryId;
	const item: INodeExecutionData = { json };
	if (settings.download && json.status === 'success') {
		item.binary = {
			[settings.binaryPropertyName]: await downloadToBinary(this, document, 0, {
				maxFileBytes: settings.maxFileBytes,
			}),
		};
	}
	if (deliveryId !== undefined) remember(this, deliveryId);
	return { workflowData: [[item]] };
}
