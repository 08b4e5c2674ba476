/**
 * Stage 3 of the engine: the writes. A create (one sync create for a single waited-for item),
 * or an update to pending for a document to regenerate; an adopted document needs none. Once
 * the service says the account's quota is spent, the writes not sent yet are not sent.
 *
 * What each write made is kept for a retry of the run (`memoryOf`), and a Unique Key marks the
 * document's meta with the key (`n8n_key`) and a digest of its data (`n8n_digest`), so that
 * running a batch again finds it (`lookUp`) instead of making a second one.
 */
import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { pause, timeOf } from '../../shared/helpers/dates';
import { canonical, metaObject, parsedMeta, sameJson } from '../../shared/helpers/document';
import { CONCURRENCY, asNodeError, mapConcurrent } from '../../shared/helpers/items';
import { InputError, parsePositiveInteger, preview } from '../../shared/helpers/parse';
import {
	createDocumentSync,
	heldByLimit,
	isOutcomeUnknown,
	listDocumentCards,
	updateDocument,
} from '../../shared/transport';
import type { GenerationRequest } from './options';
import { isQuotaSpent, quotaNotSent } from './output';
import type { OnKeyConflict, ReuseRequest } from './plan';
import { CLOCK_SKEW_MS } from './pollTiming';
import type { ItemRecord, Origin, Run } from './record';

/** The document an item of this run made (or adopted), and the data it was made with. */
export interface Made {
	id: string;
	/** `digestOf` the fields it was written with. */
	digest: string;
	templateId: string;
	/** `updated_at` of the write's answer (service clock). */
	updatedAt: unknown;
}

export type RunMemory = Map<number, Made>;

/**
 * What earlier tries of this node run made, so that Retry On Fail never makes a document twice.
 * n8n retries a node in the same process under the same execution, node and run index (a loop
 * round starts a new run index), so the memory is keyed by those and holds per item the document
 * it made. Runs untouched for a day are forgotten; past `MAX_RUNS` the least recently touched go.
 */
const MAX_RUNS = 2000;
const FORGET_AFTER_MS = 24 * 3600_000;

const runs = new Map<string, { touched: number; made: RunMemory }>();

function forgetOld(now: number): void {
	for (const [key, run] of runs) {
		if (runs.size <= MAX_RUNS && now - run.touched < FORGET_AFTER_MS) break;
		runs.delete(key);
	}
}

/** Which run of which node of which execution this is; undefined outside an execution. */
export function runKey(ctx: IExecuteFunctions): string | undefined {
	const executionId = ctx.getExecutionId?.();
	if (!executionId) return undefined;
	let runIndex: number;
	try {
		runIndex = ctx.getWorkflowDataProxy(0).$runIndex;
	} catch {
		return undefined;
	}
	return JSON.stringify([executionId, ctx.getNode().name, runIndex]);
}

/**
 * The memory of this node run: empty on its first try, what earlier tries made on a retry.
 * Undefined when the run cannot be told apart from others (no execution id).
 */
export function memoryOf(ctx: IExecuteFunctions, now = Date.now()): RunMemory | undefined {
	const key = runKey(ctx);
	if (key === undefined) return undefined;
	const run = runs.get(key) ?? { touched: now, made: new Map<number, Made>() };
	// Re-inserted, so the map's order stays least recently touched first.
	runs.delete(key);
	run.touched = now;
	runs.set(key, run);
	forgetOld(now);
	return run.made;
}

/** The meta keys this node marks a keyed document with (never `_`: the service's own). */
export const KEY_FIELD = 'n8n_key';
export const DIGEST_FIELD = 'n8n_digest';

/** The default Reuse Window (hours). */
export const DEFAULT_REUSE_HOURS = 24;

/**
 * A short digest of a write's data: template, payload and meta, less this node's marks and the
 * PDF password (never hashed into something stored). Equal data gives an equal digest
 * whatever the order of keys.
 */
export function digestOf(fields: IDataObject): string {
	const meta = { ...((fields.meta as IDataObject | undefined) ?? {}) };
	delete meta[KEY_FIELD];
	delete meta[DIGEST_FIELD];
	delete meta._password;
	const data = { template: fields.document_template_id, payload: fields.payload ?? null, meta };
	return createHash('sha256').update(canonical(data)).digest('hex').slice(0, 24);
}

/** The Unique Key of an item: text or a number, trimmed, never empty. */
export function parseUniqueKey(value: unknown): string {
	const text =
		typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
	if (text === '') {
		const what =
			value === undefined || value === null || typeof value === 'string'
				? 'is empty'
				: `must be text or a number, not ${preview(value)}`;
		throw new InputError(
			`The Unique Key ${what}`,
			'Give every item a key that names its record, e.g. {{ $json.invoice_number }}; an item without one would make a new document on every run. Remove the option to create without keys.',
		);
	}
	if (text.length > 200) {
		throw new InputError(
			`The Unique Key is ${text.length} characters long`,
			'Use a short value that names the record (200 characters at most), e.g. {{ $json.invoice_number }}',
		);
	}
	return text;
}

/** One key under one template: a key is per template. */
export const keyOf = (templateId: unknown, key: unknown) =>
	JSON.stringify([String(templateId).toLowerCase(), String(key)]);

/** The key a card is marked with (`keyOf`), or undefined for a card without a mark. */
export function markedKey(card: IDataObject): string | undefined {
	const mark = metaObject(card.meta)[KEY_FIELD];
	return mark === undefined || mark === null ? undefined : keyOf(card.document_template_id, mark);
}

/** The digest a card is marked with, when it is text. */
export function markedDigest(card: IDataObject): string | undefined {
	const digest = metaObject(card.meta)[DIGEST_FIELD];
	return typeof digest === 'string' ? digest : undefined;
}

/**
 * What the look-up needs of one create; with a Unique Key, the write's meta is marked with
 * the key and the data's digest.
 */
export function readReuse(
	ctx: IExecuteFunctions,
	i: number,
	fields: IDataObject,
	generates: boolean,
): ReuseRequest {
	const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
	const digest = digestOf(fields);
	const templateId = String(fields.document_template_id);
	const onConflict: OnKeyConflict = options.keyConflict === 'regenerate' ? 'regenerate' : 'fail';
	const windowHours = parsePositiveInteger(
		options.reuseWindow ?? DEFAULT_REUSE_HOURS,
		'reuse window',
		'Set Options → Reuse Window to a number of hours, e.g. 24',
	);
	const reuse: ReuseRequest = { templateId, digest, windowHours, onConflict, fields, generates };
	if ('uniqueKey' in options) {
		reuse.key = parseUniqueKey(options.uniqueKey);
		fields.meta = {
			...((fields.meta as IDataObject | undefined) ?? {}),
			[KEY_FIELD]: reuse.key,
			[DIGEST_FIELD]: digest,
		};
	}
	return reuse;
}

/**
 * Up to this many items a create that waits goes through `documents/sync` (docs/benchmarks.md):
 * the sync endpoint's holding time is only likely known, so one held request per run at most.
 */
export const SYNC_MAX_ITEMS = 1;

/** How long a sync create may hold the request (the service holds it for up to ~30 s). */
export const SYNC_TIMEOUT_MS = 45_000;

/**
 * The document a create with these fields made, sent at `sentAt` (host time): the one recent
 * card of that template with the same meta. Undefined when there is none or more than one.
 */
async function findCreated(
	ctx: IExecuteFunctions,
	fields: IDataObject,
	sentAt: number,
	itemIndex: number,
): Promise<IDataObject | undefined> {
	const templateId = String(fields.document_template_id);
	// A create without meta matches only a card without meta (not one whose meta is `{}`).
	const meta = fields.meta ?? null;
	for (let attempt = 0; attempt < 2; attempt++) {
		if (attempt) await pause(1000);
		const page = await listDocumentCards(
			ctx,
			{ templateIds: [templateId], updatedSince: Math.floor((sentAt - CLOCK_SKEW_MS) / 1000) },
			1,
			{ itemIndex },
		);
		const candidates = page.cards.filter((card) => {
			const created = timeOf(card.created_at);
			if (created !== undefined && created < sentAt - CLOCK_SKEW_MS) return false;
			if (String(card.document_template_id).toLowerCase() !== templateId) return false;
			return sameJson(parsedMeta(card.meta), meta);
		});
		if (candidates.length === 1) return candidates[0];
		if (candidates.length > 1) return undefined;
	}
	return undefined;
}

/**
 * Creates one document in one round trip (`documents/sync`). The answer may still be generating
 * (the wait goes on as usual); a timeout or break after sending leaves the outcome unknown, so
 * the document is looked for instead of being created a second time.
 */
export async function createSync(
	ctx: IExecuteFunctions,
	fields: IDataObject,
	itemIndex: number,
	timeoutSeconds: number,
): Promise<IDataObject> {
	const sentAt = Date.now();
	try {
		return await createDocumentSync(ctx, fields, {
			itemIndex,
			timeoutMs: Math.min(timeoutSeconds * 1000, SYNC_TIMEOUT_MS),
		});
	} catch (error) {
		const found = isOutcomeUnknown(error)
			? await findCreated(ctx, fields, sentAt, itemIndex).catch(() => undefined)
			: undefined;
		if (found) return found;
		throw asNodeError(ctx, error, itemIndex);
	}
}

type Requested = ItemRecord & { request: GenerationRequest };

interface Writer {
	ctx: IExecuteFunctions;
	run: Run;
	memory: RunMemory | undefined;
	/** Whether a single waited-for create goes in one round trip. */
	sync: boolean;
}

/** Records an item's document: what the run made, and for a retry what this try made. */
function remember(writer: Writer, record: Requested, document: IDataObject): void {
	writer.run.made(record.index, document.id, document.status);
	const reuse = record.request.reuse;
	if (writer.memory && reuse)
		writer.memory.set(record.index, {
			id: String(document.id),
			digest: reuse.digest,
			templateId: reuse.templateId,
			updatedAt: document.updated_at,
		});
}

/** The one write an item's plan asks for, and the origin it gives its document. */
async function writeFor(
	writer: Writer,
	record: Requested,
): Promise<{ document: IDataObject; origin: Origin }> {
	const { request, plan } = record;
	if (plan?.kind === 'regenerate') {
		const id = String(plan.found.card.id);
		const options = { itemIndex: record.index };
		const document = await updateDocument(writer.ctx, id, plan.fields, options);
		return { document, origin: 'regenerated' };
	}
	if (writer.sync && request.sendSync && request.wait && request.generates)
		return { document: await request.sendSync(), origin: 'created' };
	return { document: await request.send(), origin: 'created' };
}

/** One item's stage 3: adopt, refuse after a spent quota, or write. */
async function writeItem(writer: Writer, record: Requested): Promise<void> {
	const { ctx, run } = writer;
	const i = record.index;
	if (run.stop.signal.aborted || record.error) return;
	if (record.plan?.kind === 'adopt') {
		const { card, fetchedAt } = record.plan.found;
		remember(writer, record, card);
		record.sent = {
			document: card,
			origin: 'reused',
			at: Date.now(),
			held: heldByLimit(ctx),
			fetchedAt,
		};
		return;
	}
	if (run.facts.quota && record.request.generates) {
		run.facts.notSent++;
		return run.fail(i, quotaNotSent(ctx, run.facts.quota, i));
	}
	try {
		const { document, origin } = await writeFor(writer, record);
		remember(writer, record, document);
		record.sent = { document, origin, at: Date.now(), held: heldByLimit(ctx) };
	} catch (error) {
		if (isQuotaSpent(error)) run.facts.quota ??= asNodeError(ctx, error, i);
		run.fail(i, error);
	}
}

/** Stage 3: the writes, a few at a time; a single waited-for create in one round trip. */
export async function writeAll(
	ctx: IExecuteFunctions,
	run: Run,
	memory: RunMemory | undefined,
): Promise<void> {
	const requested = run.requested;
	const writer: Writer = { ctx, run, memory, sync: requested.length <= SYNC_MAX_ITEMS };
	await mapConcurrent(requested, CONCURRENCY, async (record) => await writeItem(writer, record));
}
