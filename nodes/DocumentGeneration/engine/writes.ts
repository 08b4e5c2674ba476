// Stage 3, the writes (none after the quota is spent), remembered for a retry (`memoryOf`); a
// Unique Key marks the meta with the key and a digest of the data, for `lookUp` to find.
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
import { isQuotaSpent, quotaNotSent } from './output';
import type { OnKeyConflict, ReuseRequest } from './plan';
import { CLOCK_SKEW_MS } from './pollTiming';
import type { Origin, Requested, Run } from './record';

/** The document an item of this run made (or adopted), and the data it was made with. */
export interface Made {
	id: string;
	digest: string;
	templateId: string;
	/** `updated_at` of the write's answer (service clock). */
	updatedAt: unknown;
}

export type RunMemory = Map<number, Made>;

/** What earlier tries of a node run made (n8n retries in-process under the same execution, node
 * and run index); runs untouched for a day, or the least recent past `MAX_RUNS`, are forgotten. */
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

/** This node run's memory (empty on its first try); undefined without an execution id. */
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

export const DEFAULT_REUSE_HOURS = 24;

/** A short digest of a write's template, payload and meta (less the marks and the password). */
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
	if (text.length > 200)
		throw new InputError(
			`The Unique Key is ${text.length} characters long`,
			'Use a short value that names the record (200 characters at most), e.g. {{ $json.invoice_number }}',
		);
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

/** What the look-up needs of one create; a Unique Key marks the meta with key and digest. */
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

/** Items up to which a waited-for create goes through `documents/sync` (docs/benchmarks.md). */
export const SYNC_MAX_ITEMS = 1;

/** How long a sync create may hold the request (the service holds it for up to ~30 s). */
export const SYNC_TIMEOUT_MS = 45_000;

/** The document a create sent at `sentAt` made: the one recent card with its template and meta. */
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

/** Creates one document in one round trip; after a timeout or break it is looked for instead. */
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

interface Writer {
	ctx: IExecuteFunctions;
	run: Run;
	memory: RunMemory | undefined;
	/** A single waited-for create goes in one round trip. */
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

/** The write an item's plan asks for, and its document's origin. */
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

export async function writeAll(
	ctx: IExecuteFunctions,
	run: Run,
	memory: RunMemory | undefined,
): Promise<void> {
	const requested = run.requested;
	const writer: Writer = { ctx, run, memory, sync: requested.length <= SYNC_MAX_ITEMS };
	await mapConcurrent(requested, CONCURRENCY, async (record) => await writeItem(writer, record));
}
