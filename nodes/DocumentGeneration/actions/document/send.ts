/**
 * Stage 3 of the pipeline: the writes. A create (or one sync create for a single waited-for
 * item), an update to pending for a document to regenerate; an adopted document needs none.
 * What each item made is remembered for a retry of the run.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ItemError } from '../../../shared/helpers/items';
import { CONCURRENCY, asNodeError, mapConcurrent } from '../../../shared/helpers/items';
import { heldByLimit, updateDocument } from '../../../shared/transport';
import type { BatchFailures } from './batch';
import { isQuotaSpent, quotaNotSent } from './batch';
import type { GenerationRequest } from './generate';
import type { Plan } from './reuse';
import { SYNC_MAX_ITEMS } from './sync';
import type { RunMemory } from './tries';

/** Where an item's document came from, as its output item says (`origin`). */
export type Origin = 'created' | 'reused' | 'regenerated';

/** An item's document once the send stage is over. */
export interface Sent {
	document: IDataObject;
	origin: Origin;
	/** When its write was answered (or it was adopted), and the limit's holds by then. */
	at: number;
	held: number;
	/** The host time the card was fetched, for a document adopted as it was. */
	fetchedAt?: number;
}

export interface SendResult {
	sent: Map<number, Sent>;
	quota?: ItemError;
	notSent: number;
}

/**
 * Stage 3: the writes, a few at a time; a single waited-for create in one round trip. Once the
 * service says the account's quota is spent, the writes not sent yet are not sent.
 */
export async function send(
	ctx: IExecuteFunctions,
	batch: BatchFailures,
	requests: Map<number, GenerationRequest>,
	plans: Map<number, Plan>,
	memory: RunMemory | undefined,
): Promise<SendResult> {
	const result: SendResult = { sent: new Map(), notSent: 0 };
	const sync = requests.size <= SYNC_MAX_ITEMS;
	const remember = (i: number, request: GenerationRequest, document: IDataObject) => {
		batch.made.set(i, { id: String(document.id), status: String(document.status) });
		if (memory && request.reuse)
			memory.set(i, {
				id: String(document.id),
				digest: request.reuse.digest,
				templateId: request.reuse.templateId,
				updatedAt: document.updated_at,
			});
	};
	await mapConcurrent([...requests], CONCURRENCY, async ([i, request]) => {
		const itemPlan = plans.get(i) ?? { kind: 'create' };
		if (batch.stop.signal.aborted || batch.errors.has(i)) return;
		if (itemPlan.kind === 'adopt') {
			const { card, fetchedAt } = itemPlan.found;
			remember(i, request, card);
			const at = { at: Date.now(), held: heldByLimit(ctx), fetchedAt };
			return void result.sent.set(i, { document: card, origin: 'reused', ...at });
		}
		if (result.quota && request.generates) {
			result.notSent++;
			return batch.fail(i, quotaNotSent(ctx, result.quota, i));
		}
		try {
			let document: IDataObject;
			let origin: Origin = 'created';
			if (itemPlan.kind === 'regenerate') {
				const id = String(itemPlan.found.card.id);
				document = await updateDocument(ctx, id, itemPlan.fields, { itemIndex: i });
				origin = 'regenerated';
			} else if (sync && request.sendSync && request.wait && request.generates) {
				document = await request.sendSync();
			} else {
				document = await request.send();
			}
			remember(i, request, document);
			result.sent.set(i, { document, origin, at: Date.now(), held: heldByLimit(ctx) });
		} catch (error) {
			if (isQuotaSpent(error)) result.quota ??= asNodeError(ctx, error, i);
			batch.fail(i, error);
		}
	});
	return result;
}
