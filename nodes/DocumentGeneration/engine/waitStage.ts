/**
 * Stage 4 of the engine: wait for every generation together (one `Watch`), and fetch each
 * file the moment its document is ready, while the others still generate.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { downloadToBinary, withLinkOf } from '../../shared/transport';
import { isFinished } from '../../shared/helpers/document';
import { CONCURRENCY, createLimiter } from '../../shared/helpers/items';
import { isQuotaFailure } from './generationErrors';
import type { GenerationRequest } from './options';
import type { ItemRecord, Run } from './record';
import type { WaitResult, WaitTarget } from './waitTarget';
import { Watch } from './watch';

type Requested = ItemRecord & { request: GenerationRequest };
type Success = Extract<WaitResult, { card: IDataObject }>;

/** The document an item waits for, as the watch takes it; undefined when it waits for none. */
function targetOf(record: Requested): WaitTarget | undefined {
	const { request, sent } = record;
	if (!sent || !request.wait || !request.generates) return undefined;
	const { document, at, held, fetchedAt } = sent;
	return {
		itemIndex: record.index,
		id: String(document.id),
		updatedAt: document.updated_at,
		templateId: (document.document_template_id as string | undefined) ?? request.templateId,
		startedAt: at,
		heldAtStart: held,
		timeoutSeconds: request.timeoutSeconds,
		// A sync create or a look-up may hand over the finished card: no poll is needed then.
		known: isFinished(document.status) ? { card: document, fetchedAt: fetchedAt ?? at } : undefined,
	};
}

/** What the wait does with each result: the record's outcome, and its file fetched. */
class Waiting {
	readonly downloads: Array<Promise<void>> = [];
	private readonly limit = createLimiter(CONCURRENCY);

	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly run: Run,
	) {}

	readonly onResult = (target: WaitTarget, result: WaitResult): void => {
		const i = target.itemIndex;
		if ('error' in result) {
			this.run.made(i, target.id, result.status);
			if (isQuotaFailure(result.error)) this.run.facts.quotaFailures++;
			return this.run.fail(i, result.error);
		}
		const record = this.run.record(i) as Requested;
		this.run.made(i, target.id, result.card.status);
		record.finished = result.card;
		this.run.facts.queueTimes.push(result.queuedMs);
		if (!record.request.download) return;
		this.downloads.push(this.limit(async () => await this.download(record, result)));
	};

	private async download(record: Requested, result: Success): Promise<void> {
		if (this.run.stop.signal.aborted) return;
		const { request } = record;
		try {
			const file = await downloadToBinary(this.ctx, result.card, record.index, {
				fetchedAt: result.fetchedAt,
				maxFileBytes: request.maxFileBytes,
			});
			record.binary = { [request.binaryPropertyName]: file.binary };
			// A link renewed for the download is the one the output hands on.
			record.finished = withLinkOf(result.card, file);
		} catch (error) {
			this.run.fail(record.index, error);
		}
	}
}

/** Stage 4: wait for every generation together; fetch each file as soon as it is ready. */
export async function waitAndDownload(ctx: IExecuteFunctions, run: Run): Promise<void> {
	const waiting = new Waiting(ctx, run);
	const watch = new Watch(ctx, waiting.onResult, run.stop.signal);
	for (const record of run.requested) {
		const target = targetOf(record);
		if (target) watch.add(target);
	}
	await watch.run();
	await Promise.all(waiting.downloads);
}
