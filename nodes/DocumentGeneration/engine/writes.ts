/**
 * Stage 3 of the engine: the writes. A create (or one sync create for a single waited-for
 * item), an update to pending for a document to regenerate; an adopted document needs none.
 * What each item made is remembered for a retry of the run. Once the service says the
 * account's quota is spent, the writes not sent yet are not sent.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { CONCURRENCY, asNodeError, mapConcurrent } from '../../shared/helpers/items';
import { heldByLimit, updateDocument } from '../../shared/transport';
import { isQuotaSpent, quotaNotSent } from './generationErrors';
import type { GenerationRequest } from './options';
import type { ItemRecord, Origin, Run } from './record';
import type { RunMemory } from './retryMemory';
import { SYNC_MAX_ITEMS } from './syncCreate';

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
