/**
 * One document in one round trip: `POST /documents/sync` lets the service answer once the
 * file is ready. It may answer while the document is still generating (the caller then waits
 * the normal way), or the request may time out or break after it was sent: then the outcome
 * is unknown, and the document is looked for instead of being created a second time.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { parsedMeta, sameJson } from '../../shared/helpers/document';
import { asNodeError } from '../../shared/helpers/items';
import { pause, timeOf } from '../../shared/helpers/dates';
import { createDocumentSync, isOutcomeUnknown, listDocumentCards } from '../../shared/transport';
import { CLOCK_SKEW_MS } from './pollTiming';

/**
 * Up to this many items a create that waits goes through `documents/sync`. Measured on the
 * sandbox (docs/benchmarks.md; generation 1.5 s): one item takes 1.53 s in 2 requests (was
 * 2.08 s in 3). Up to the node's concurrency (8) sync would also win (2–8 items: 1.54–1.58 s,
 * 2 requests each, against 2.08 s and 2.5–3), and past it it loses (waves of 1.5 s; 40 items
 * take 2.43 s in 2.10 requests each with create-then-wait). It stays at one item: the sync
 * endpoint's holding time is only "likely" known, and one held request per run is the least
 * exposure to it.
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

/** Creates one document with `documents/sync`; see the file's comment for the fallbacks. */
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
