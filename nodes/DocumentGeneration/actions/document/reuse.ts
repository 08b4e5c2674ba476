/**
 * Running a batch again makes no second document: the look-up stage of the create pipeline.
 *
 * Two ways to know that an item's document exists already:
 * - **a retry** (Retry On Fail): what earlier tries of the same run made is remembered in the
 *   process (`tries.ts`), and is reused when the item's data is the same;
 * - **a Unique Key** (Create → Options): each document is marked in `meta` with its item's
 *   key (`n8n_key`) and a digest of the data it was made with (`n8n_digest`). Before creating,
 *   one pass over the list of the batch's templates' documents updated within the Reuse
 *   Window finds the documents that carry one of the batch's keys (the list cannot filter on
 *   meta, but every card carries it).
 *
 * What is found decides each item's plan (`planFor`): create, adopt (output it, waiting while
 * it generates), regenerate (update to pending), or a conflict (same key, other data).
 */
import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { canonical } from '../../../shared/helpers/document';
import { timeOf } from '../../../shared/helpers/dates';
import { CONCURRENCY, asNodeError, itemLabel, mapConcurrent } from '../../../shared/helpers/items';
import { parseJsonLoose } from '../../../shared/helpers/json';
import { InputError, preview } from '../../../shared/helpers/parse';
import { getDocumentCard, isNotFound, scanDocumentCards } from '../../../shared/transport';
import { templateFilter, updatedSinceFor } from './schedule';
import type { RunMemory } from './tries';

/** The meta keys this node marks a keyed document with (never `_`: the service's own). */
export const KEY_FIELD = 'n8n_key';
export const DIGEST_FIELD = 'n8n_digest';

/** How far the host's clock may be from the service's, where the service's is not known. */
const CLOCK_SKEW_MS = 120_000;

/** The default Reuse Window (hours). */
export const DEFAULT_REUSE_HOURS = 24;

export type OnKeyConflict = 'fail' | 'regenerate';

/** What the look-up needs of one create. */
export interface ReuseRequest {
	templateId: string;
	/** `digestOf` the item's write. */
	digest: string;
	/** The item's Unique Key, when the option is set. */
	key?: string;
	windowHours: number;
	onConflict: OnKeyConflict;
	/** The item's whole write (template, payload, meta with the marks, status). */
	fields: IDataObject;
	/** Whether the item asks for a generation (status pending). */
	generates: boolean;
}

/** A document that exists for an item, as the look-up saw it. */
export interface Found {
	card: IDataObject;
	fetchedAt: number;
	via: 'retry' | 'key';
	/** The digest of the data it was made with (remembered, or its `n8n_digest`). */
	digest?: string;
}

export type Plan =
	| { kind: 'create' }
	| { kind: 'adopt'; found: Found }
	| { kind: 'regenerate'; found: Found; fields: IDataObject }
	| { kind: 'conflict'; found: Found };

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

/** What to do with an item, given what exists for it. */
export function planFor(request: ReuseRequest, found?: Found): Plan {
	if (!found) return { kind: 'create' };
	if (found.digest !== request.digest) {
		// A retry whose data changed (an expression with $now) is not the same document:
		// never overwrite what an earlier try made; a key names one record's document.
		if (found.via === 'retry') return { kind: 'create' };
		if (request.onConflict === 'regenerate')
			return { kind: 'regenerate', found, fields: request.fields };
		return { kind: 'conflict', found };
	}
	const status = found.card.status;
	if (request.generates && (status === 'failure' || status === 'draft'))
		return { kind: 'regenerate', found, fields: { status: 'pending' } };
	return { kind: 'adopt', found };
}

/** Lower is better: the document to reuse when several carry one key. */
function rank(card: IDataObject, digest: string): number {
	const status = String(card.status);
	const order = ['success', 'generating', 'pending', 'draft', 'failure'];
	const byStatus = order.includes(status) ? order.indexOf(status) : 2;
	return (metaOf(card)[DIGEST_FIELD] === digest ? 0 : 10) + byStatus;
}

function metaOf(card: IDataObject): IDataObject {
	const meta = parseJsonLoose(card.meta ?? null);
	return meta && typeof meta === 'object' && !Array.isArray(meta) ? (meta as IDataObject) : {};
}

const keyOf = (templateId: unknown, key: unknown) =>
	JSON.stringify([String(templateId).toLowerCase(), String(key)]);

/**
 * Finds the documents that exist for the given items: those earlier tries of this run made
 * (`memory`), and those marked with the items' keys. No request when there is nothing to
 * look for; one pass over the list otherwise (a partial one for a retry without keys).
 */
export async function lookUp(
	ctx: IExecuteFunctions,
	requests: Array<[number, ReuseRequest]>,
	memory: RunMemory | undefined,
): Promise<Map<number, Found>> {
	const remembered = new Map<string, number>();
	const keyed = new Map<string, Array<[number, ReuseRequest]>>();
	for (const [i, request] of requests) {
		const made = memory?.get(i);
		if (made && made.templateId === request.templateId) remembered.set(made.id, i);
		else if (request.key !== undefined) {
			const key = keyOf(request.templateId, request.key);
			keyed.set(key, [...(keyed.get(key) ?? []), [i, request]]);
		}
	}
	const found = new Map<number, Found>();
	if (!remembered.size && !keyed.size) return found;

	const seenById = new Map<string, { card: IDataObject; fetchedAt: number }>();
	const seenByKey = new Map<string, Array<{ card: IDataObject; fetchedAt: number }>>();
	const visit = (card: IDataObject, fetchedAt: number) => {
		const id = String(card.id);
		if (remembered.has(id)) seenById.set(id, { card, fetchedAt });
		const mark = metaOf(card)[KEY_FIELD];
		if (mark !== undefined && mark !== null) {
			const key = keyOf(card.document_template_id, mark);
			if (keyed.has(key)) seenByKey.set(key, [...(seenByKey.get(key) ?? []), { card, fetchedAt }]);
		}
		return keyed.size === 0 && seenById.size === remembered.size;
	};
	const rememberedAt = [...remembered.values()].map((i) => memory!.get(i)!.updatedAt);
	const templates = templateFilter(requests.map(([, r]) => r.templateId));
	const itemIndex = requests[0][0];
	if (keyed.size) {
		// One whole pass over the window: every key's documents, the remembered ones too.
		const hours = Math.max(...requests.map(([, r]) => r.windowHours));
		const startedAt = Date.now();
		const windowStart = new Date(startedAt - hours * 3600_000).toISOString();
		const since = updatedSinceFor([...rememberedAt, windowStart], startedAt);
		const pass = await scanDocumentCards(
			ctx,
			{ templateIds: templates, updatedSince: since },
			visit,
			{ itemIndex, reader: 'lookUp' },
		);
		// A card updated while the pass read the list may have moved past it (a list ordered by
		// update time): when a key is still missing, one more look at those cards alone.
		if ([...keyed.keys()].some((key) => !seenByKey.has(key))) {
			const passStart = pass.serverTime ?? startedAt - CLOCK_SKEW_MS;
			const changed = updatedSinceFor([new Date(passStart).toISOString()], startedAt);
			await scanDocumentCards(ctx, { templateIds: templates, updatedSince: changed }, visit, {
				itemIndex,
				reader: 'lookUp',
			});
		}
	} else if (remembered.size >= 2) {
		// A retry: the list from the earliest write, while it costs less than one get each.
		const since = updatedSinceFor(rememberedAt, Date.now());
		// (Pages and gets are both requests: whatever the page size, no more pages than gets.)
		await scanDocumentCards(ctx, { templateIds: templates, updatedSince: since }, visit, {
			itemIndex,
			reader: 'lookUp',
			maxPages: remembered.size - 1,
		});
	}
	// Remembered documents the list did not show (lag, or it cost too much) are fetched by id;
	// one deleted since is made again.
	const missing = [...remembered.keys()].filter((id) => !seenById.has(id));
	await mapConcurrent(missing, CONCURRENCY, async (id) => {
		const fetchedAt = Date.now();
		try {
			const card = await getDocumentCard(ctx, id, { itemIndex: remembered.get(id) });
			seenById.set(id, { card, fetchedAt });
		} catch (error) {
			if (!isNotFound(error)) throw asNodeError(ctx, error, remembered.get(id));
		}
	});

	for (const [id, i] of remembered) {
		const seen = seenById.get(id);
		if (seen) found.set(i, { ...seen, via: 'retry', digest: memory!.get(i)!.digest });
	}
	for (const [key, items] of keyed) {
		const cards = seenByKey.get(key);
		if (!cards) continue;
		for (const [i, request] of items) {
			const best = [...cards].sort(
				(a, b) =>
					rank(a.card, request.digest) - rank(b.card, request.digest) ||
					(timeOf(b.card.updated_at) ?? 0) - (timeOf(a.card.updated_at) ?? 0),
			)[0];
			const digest = metaOf(best.card)[DIGEST_FIELD];
			found.set(i, {
				...best,
				via: 'key',
				digest: typeof digest === 'string' ? digest : undefined,
			});
		}
	}
	return found;
}

/** The error of an item whose key's document was made with other data. */
export function conflictError(
	ctx: IExecuteFunctions,
	request: ReuseRequest,
	found: Found,
	itemIndex: number,
): NodeOperationError {
	const id = String(found.card.id);
	return new NodeOperationError(
		ctx.getNode(),
		`The Unique Key "${preview(request.key, 60)}" already has document ${id}, made with other data`,
		{
			description: `Its payload or meta differ from this item's, so no second document was made for the key (document ${id}, status ${String(found.card.status)}). If the data was corrected, set Options → When the Key's Data Changed to "Regenerate the Document"; if these are different records, give them different keys, e.g. {{ $json.invoice_number }}-{{ $json.date }}.`,
			itemIndex,
		},
	);
}

/** The error of an item whose key an earlier item of the batch has, with other data. */
export function sameKeyInBatch(key: string, leader: number): InputError {
	return new InputError(
		`The Unique Key "${preview(key, 60)}" is also ${itemLabel(leader)}'s, with other data`,
		'Items with one key make one document. Give different records different keys, or remove the items that repeat a record with other data.',
	);
}
