// A delivery's body and answers, and the unsigned path. n8n drops static data a webhook changes
// when it starts a run, so memories live in this process (across processes: Remove Duplicates).
import type {
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { downloadToBinary, withLinkOf, getDocumentCard } from '../shared/transport';
import { timeOf } from '../shared/helpers/dates';
import { normalizeDocument } from '../shared/helpers/document';
import { parseJsonLoose } from '../shared/helpers/json';
import { isUuid } from '../shared/helpers/parse';
import type { WebhookSettings } from './settings';
import { QUOTA_WARNING_EVENT, mismatch } from './settings';

export type DeliveryBody =
	| { kind: 'document'; document: IDataObject }
	| { kind: 'quotaWarning'; figures: IDataObject }
	| { kind: 'unknown' };

/** The figures of a quota warning, in the order the service sends them. */
const QUOTA_FIGURES = ['period_start', 'period_end', 'available_documents', 'threshold'] as const;

const isObject = (value: unknown): value is IDataObject =>
	!!value && typeof value === 'object' && !Array.isArray(value);

/** `{"document": {…}}` is a document event; a body with quota figures instead a quota warning. */
export function deliveryBody(body: unknown): DeliveryBody {
	const parsed = parseJsonLoose(body);
	if (!isObject(parsed)) return { kind: 'unknown' };
	if ('document' in parsed) {
		if (isObject(parsed.document)) return { kind: 'document', document: parsed.document };
	} else if (QUOTA_FIGURES.some((name) => name in parsed)) {
		return { kind: 'quotaWarning', figures: parsed };
	}
	return { kind: 'unknown' };
}

/** A quota warning as an item: the event's name and its four figures (null when absent). */
export function quotaWarningItem(figures: IDataObject): IDataObject {
	const item: IDataObject = { event: QUOTA_WARNING_EVENT };
	for (const name of QUOTA_FIGURES) item[name] = figures[name] ?? null;
	return item;
}

/** A document as an item; its file name only when it succeeded (the service names one early). */
export function documentItem(document: IDataObject): IDataObject {
	const json = normalizeDocument(document);
	if ('filename' in json && json.status !== 'success') json.filename = null;
	return json;
}

/** An `updated_at` (ISO text, or ms) as ms since the epoch; undefined when it is not a time. */
export function updatedAtMs(value: unknown): number | undefined {
	if (typeof value !== 'number') return timeOf(value);
	return Number.isFinite(value) ? value : undefined;
}

/** Answers a delivery with an error status (the service sends it again unless it is 4xx). */
export function refuse(
	ctx: IWebhookFunctions,
	status: number,
	message: string,
): IWebhookResponseData {
	ctx.getResponseObject().status(status).json({ error: message });
	return { noWebhookResponse: true };
}

/** A signed delivery that starts nothing, with the reason (only the service can read it). */
export function ignore(reason: string): IWebhookResponseData {
	return { webhookResponse: { received: true, started: false, reason } };
}

/** The one answer to every unsigned delivery: it tells an anonymous poster nothing of an id. */
// Stryker disable next-line all: set at module load, before any mutant is on; no test can see it
export const NEUTRAL_ANSWER: IDataObject = { received: true };

/** The trigger node a delivery is for, in this process (workflow and node ids). */
export function triggerKey(ctx: IWebhookFunctions): string {
	// Stryker disable next-line StringLiteral: n8n gives every workflow whose webhook runs an id
	const workflowId = ctx.getWorkflow().id ?? '';
	return `${workflowId}/${ctx.getNode().id}`;
}

/** The item of a document delivery, its file attached when asked for and the document succeeded. */
export async function documentExecutionItem(
	ctx: IWebhookFunctions,
	settings: WebhookSettings,
	document: IDataObject,
	json: IDataObject,
): Promise<INodeExecutionData> {
	if (!settings.download || json.status !== 'success') return { json };
	const file = await downloadToBinary(ctx, document, 0, { maxFileBytes: settings.maxFileBytes });
	return { json: withLinkOf(json, file), binary: { [settings.binaryPropertyName]: file.binary } };
}

// At most `max` entries, each forgotten `ttlMs` after it was last set or once `max / 2` newer were
// set since (two generations: a full young one replaces the old one). Every operation is O(1).
export class Recent<V> {
	private young = new Map<string, { value: V; until: number }>();
	private old = new Map<string, { value: V; until: number }>();

	constructor(
		private readonly max: number,
		private readonly ttlMs: number,
	) {}

	get(key: string, nowMs: number): V | undefined {
		const entry = this.young.get(key) ?? this.old.get(key);
		return entry && entry.until > nowMs ? entry.value : undefined;
	}

	set(key: string, value: V, nowMs: number): void {
		this.old.delete(key);
		this.young.set(key, { value, until: nowMs + this.ttlMs });
		if (this.young.size >= Math.ceil(this.max / 2)) {
			this.old = this.young;
			this.young = new Map();
		}
	}

	delete(key: string): void {
		this.young.delete(key);
		this.old.delete(key);
	}

	/** Entries held (expired ones included until their generation is dropped). */
	get size(): number {
		return this.young.size + this.old.size;
	}
}

/** At most `max` events per sliding `windowMs`: `take` says whether one more may, and counts it. */
export class Budget {
	private readonly times: number[] = [];

	constructor(
		private readonly max: number,
		private readonly windowMs: number,
	) {}

	take(nowMs: number): boolean {
		while (this.times.length && this.times[0] <= nowMs - this.windowMs) this.times.shift();
		if (this.times.length >= this.max) return false;
		this.times.push(nowMs);
		return true;
	}
}

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
		// 403/404: not the account's document. Anything else (a refused key, the request limit, the
		// service failing) says nothing of the id: 503, and the service sends the delivery again.
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

// Unsigned: only the body's document id is used, read back with the key. Every answer is
// NEUTRAL_ANSWER, or 503 under load; a poster costs at most a run per version, a read per id unless
// a newer `updated_at` is claimed, and READS_PER_MINUTE reads. Unsigned quota warnings never run.
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
		// The file could not be fetched: the service's next attempt runs.
		started.delete(version);
		return unavailable(ctx);
	}
}
