/**
 * A delivery without a signing secret (the state right after automatic registration): anyone
 * could post here, so the body is trusted for nothing but a document id to read back with the
 * API key. Every such delivery gets the same answer (NEUTRAL_ANSWER) whatever it held (an
 * unknown id, a draft, another template's document, one that started a run, no document at
 * all), so the answers tell nothing about the account's documents; the one exception is 503
 * when the delivery cannot be checked just now, which depends on load, not on the id.
 *
 * What an anonymous poster can cost: one run per document version (id and `updated_at`) per
 * process; no read for an id already read unless the body claims a newer `updated_at` than the
 * one read; one read for copies of an id arriving together; and at most READS_PER_MINUTE reads
 * per trigger (past it: 503, and the service sends its own deliveries again). Quota warnings
 * cannot be read back from the API, so unsigned ones start nothing.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isUuid } from '../shared/helpers/parse';
import { getDocumentCard } from '../shared/transport';
import { NEUTRAL_ANSWER, documentExecutionItem, refuse, triggerKey } from './answers';
import { deliveryBody, documentItem, updatedAtMs } from './delivery';
import { Budget, Recent } from './memory';
import type { WebhookSettings } from './settings';
import { mismatch } from './settings';

/** API reads an unsigned trigger may make per minute: half the service's stated limit. */
export const READS_PER_MINUTE = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Per trigger and id: the `updated_at` (ms) last read, or null when the API knew no such id. */
const lastRead = new Recent<number | null>(10_000, DAY_MS);
/** Per trigger: the document versions (`id@updated_at`) that started a run. */
const started = new Recent<true>(10_000, DAY_MS);
/** Per trigger: the reads of the last minute. */
const budgets = new Recent<Budget>(1_000, DAY_MS);
/** Reads in flight, per trigger and id: copies arriving together share one. */
const reading = new Map<string, Promise<Read>>();

type Read = { card: IDataObject } | 'unknown' | 'unavailable';

const neutral = (): IWebhookResponseData => ({ webhookResponse: NEUTRAL_ANSWER });

const unavailable = (ctx: IWebhookFunctions) =>
	refuse(ctx, 503, 'The delivery could not be checked just now; send it again later');

/** Whether the id was read already at the version the body claims (or a newer one). */
function readAlready(key: string, claimed: unknown): boolean {
	const known = lastRead.get(key, Date.now());
	if (known === undefined) return false;
	if (known === null) return true;
	const claimedMs = updatedAtMs(claimed);
	return claimedMs === undefined || claimedMs <= known;
}

async function readCard(ctx: IWebhookFunctions, key: string, id: string): Promise<Read> {
	try {
		const card = await getDocumentCard(ctx, id);
		lastRead.set(key, updatedAtMs(card.updated_at) ?? null, Date.now());
		return { card };
	} catch (error) {
		const status = error instanceof NodeApiError ? Number(error.httpCode) : NaN;
		if (status === 404) lastRead.set(key, null, Date.now());
		// Not the account's document: nothing to start. A key the API refuses (401) is the same
		// for every id, so it tells nothing: 503, and the service sends the delivery again once
		// the credential is mended instead of it being dropped. Anything else (the request
		// limit, the service failing) is passing too.
		return [403, 404].includes(status) ? 'unknown' : 'unavailable';
	}
}

/** The card of `id` from the API, once for copies arriving together, within the budget. */
async function sharedRead(ctx: IWebhookFunctions, trigger: string, id: string): Promise<Read> {
	const key = `${trigger}/${id}`;
	const inFlight = reading.get(key);
	if (inFlight) return await inFlight;
	let budget = budgets.get(trigger, Date.now());
	if (!budget) {
		budget = new Budget(READS_PER_MINUTE, 60_000);
		budgets.set(trigger, budget, Date.now());
	}
	if (!budget.take(Date.now())) return 'unavailable';
	const read = readCard(ctx, key, id).finally(() => reading.delete(key));
	reading.set(key, read);
	return await read;
}

export async function receiveUnsigned(
	ctx: IWebhookFunctions,
	settings: WebhookSettings,
): Promise<IWebhookResponseData> {
	const body = deliveryBody(ctx.getBodyData());
	if (body.kind !== 'document' || !isUuid(body.document.id)) return neutral();
	const id = body.document.id.toLowerCase();
	const trigger = triggerKey(ctx);
	if (readAlready(`${trigger}/${id}`, body.document.updated_at)) return neutral();
	const read = await sharedRead(ctx, trigger, id);
	if (read === 'unavailable') return unavailable(ctx);
	if (read === 'unknown') return neutral();
	const json = documentItem(read.card);
	if (mismatch(json, settings)) return neutral();
	const version = `${trigger}/${id}@${String(updatedAtMs(read.card.updated_at) ?? read.card.updated_at)}`;
	// Nothing awaited between the look and the mark: one run per version, copies or not.
	if (started.get(version, Date.now())) return neutral();
	started.set(version, true, Date.now());
	try {
		const item = await documentExecutionItem(ctx, settings, read.card, json);
		return { webhookResponse: NEUTRAL_ANSWER, workflowData: [[item]] };
	} catch {
		// The file could not be fetched: the service sends the delivery again, and that try runs.
		started.delete(version);
		return unavailable(ctx);
	}
}
