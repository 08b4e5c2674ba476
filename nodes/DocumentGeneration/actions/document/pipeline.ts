/**
 * The create/update pipeline for many items, in stages:
 * 1. check every item (nothing is sent when one is malformed);
 * 2. look up the documents that exist for them already (what an earlier try of this run made,
 *    the documents of their Unique Keys) and plan each item: create, adopt, regenerate;
 * 3. send the writes a few at a time (a single waited-for create in one round trip);
 * 4. wait for every generation together, fetching each file as soon as its document is ready;
 * 5. output one item per input item in input order, paired with it.
 */
import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import { downloadToBinary } from '../../../shared/download';
import { isFinished, normalizeDocument } from '../../../shared/helpers/document';
import { CONCURRENCY, asNodeError, createLimiter, errorItem } from '../../../shared/helpers/items';
import { limitRequestsTo } from '../../../shared/transport';
import { BatchFailures, isQuotaFailure, reportBatch, reportReuse } from './batch';
import type { GenerationRequest } from './generate';
import { NO_WAIT } from './generate';
import type { Plan, ReuseRequest } from './reuse';
import { conflictError, lookUp, planFor, sameKeyInBatch } from './reuse';
import type { Sent } from './send';
import { send } from './send';
import type { RunMemory } from './tries';
import { memoryOf } from './tries';
import { Watch } from './watch';

interface Checked {
	requests: Map<number, GenerationRequest>;
	/** Items whose Unique Key an earlier item of the batch has: they output its document. */
	followers: Map<number, number>;
}

/** Stage 1: every item's request, read and checked; items that repeat a key follow the first. */
function check(
	batch: BatchFailures,
	count: number,
	prepare: (itemIndex: number) => GenerationRequest,
): Checked {
	const requests = new Map<number, GenerationRequest>();
	const followers = new Map<number, number>();
	const leaders = new Map<string, number>();
	for (let i = 0; i < count; i++) {
		try {
			const request = prepare(i);
			const reuse = request.reuse;
			if (reuse?.key !== undefined) {
				const key = JSON.stringify([reuse.templateId, reuse.key]);
				const leader = leaders.get(key);
				if (leader !== undefined) {
					if (requests.get(leader)!.reuse!.digest !== reuse.digest)
						throw sameKeyInBatch(reuse.key, leader);
					followers.set(i, leader);
					continue;
				}
				leaders.set(key, i);
			}
			requests.set(i, request);
		} catch (error) {
			batch.fail(i, error);
		}
	}
	return { requests, followers };
}

/** Stage 2: what exists for each item already, and so what to do with it. */
async function plan(
	ctx: IExecuteFunctions,
	batch: BatchFailures,
	requests: Map<number, GenerationRequest>,
	memory: RunMemory | undefined,
): Promise<Map<number, Plan>> {
	const plans = new Map<number, Plan>();
	const reusable = [...requests].flatMap(
		([i, r]): Array<[number, ReuseRequest]> => (r.reuse ? [[i, r.reuse]] : []),
	);
	try {
		const found = await lookUp(ctx, reusable, memory);
		for (const [i, reuse] of reusable) {
			const itemPlan = planFor(reuse, found.get(i));
			if (itemPlan.kind === 'conflict') {
				batch.made.set(i, {
					id: String(itemPlan.found.card.id),
					status: String(itemPlan.found.card.status),
				});
				batch.fail(i, conflictError(ctx, reuse, itemPlan.found, i));
			} else plans.set(i, itemPlan);
		}
	} catch (error) {
		// Without knowing what exists, creating could make a second document: nothing is sent.
		for (const [i] of reusable) batch.fail(i, asNodeError(ctx, error, i));
	}
	return plans;
}

interface WaitResults {
	finished: Map<number, IDataObject>;
	binaries: Map<number, IBinaryKeyData>;
	queueTimes: number[];
	quotaFailures: number;
}

/** Stage 4: wait for every generation together; fetch each file as soon as it is ready. */
async function waitAndDownload(
	ctx: IExecuteFunctions,
	batch: BatchFailures,
	requests: Map<number, GenerationRequest>,
	sent: Map<number, Sent>,
): Promise<WaitResults> {
	const results: WaitResults = {
		finished: new Map(),
		binaries: new Map(),
		queueTimes: [],
		quotaFailures: 0,
	};
	const downloads: Array<Promise<void>> = [];
	const limit = createLimiter(CONCURRENCY);
	const watch = new Watch(
		ctx,
		(target, result) => {
			const i = target.itemIndex;
			if ('error' in result) {
				batch.made.set(i, { id: target.id, status: result.status });
				if (isQuotaFailure(result.error)) results.quotaFailures++;
				return batch.fail(i, result.error);
			}
			batch.made.set(i, { id: target.id, status: String(result.card.status) });
			results.finished.set(i, result.card);
			results.queueTimes.push(result.queuedMs);
			const request = requests.get(i)!;
			if (!request.download) return;
			downloads.push(
				limit(async () => {
					if (batch.stop.signal.aborted) return;
					try {
						const data = await downloadToBinary(ctx, result.card, i, {
							fetchedAt: result.fetchedAt,
							maxFileBytes: request.maxFileBytes,
						});
						results.binaries.set(i, { [request.binaryPropertyName]: data });
					} catch (error) {
						batch.fail(i, error);
					}
				}),
			);
		},
		batch.stop.signal,
	);
	for (const [i, { document, at, held, fetchedAt }] of sent) {
		const request = requests.get(i)!;
		if (!request.wait || !request.generates) continue;
		watch.add({
			itemIndex: i,
			id: String(document.id),
			updatedAt: document.updated_at,
			templateId: (document.document_template_id as string | undefined) ?? request.templateId,
			startedAt: at,
			heldAtStart: held,
			timeoutSeconds: request.timeoutSeconds,
			// A sync create or a look-up may hand over the finished card: no poll is needed then.
			known: isFinished(document.status)
				? { card: document, fetchedAt: fetchedAt ?? at }
				: undefined,
		});
	}
	await watch.run();
	await Promise.all(downloads);
	return results;
}

/** Stage 5: one item per input item, in input order; a failed item names its document. */
function output(
	ctx: IExecuteFunctions,
	batch: BatchFailures,
	count: number,
	sent: Map<number, Sent>,
	waited: WaitResults,
	followers: Map<number, number>,
	origins: boolean,
): INodeExecutionData[] {
	const keys = ctx.getNode().onError !== 'continueErrorOutput';
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < count; i++) {
		const source = followers.get(i) ?? i;
		const error = batch.errors.get(i) ?? batch.errors.get(source);
		if (error) {
			const own = source === i ? error : asNodeError(ctx, error, i);
			out.push(errorItem(own, i, batch.made.get(source), keys));
			continue;
		}
		const { document, origin } = sent.get(source)!;
		const json = normalizeDocument(waited.finished.get(source) ?? document);
		if (origins) json.origin = source === i ? origin : 'reused';
		const item: INodeExecutionData = { json, pairedItem: { item: i } };
		const binary = waited.binaries.get(source);
		if (binary) item.binary = binary;
		out.push(item);
	}
	return out;
}

export async function runGenerations(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	prepare: (itemIndex: number) => GenerationRequest,
): Promise<INodeExecutionData[]> {
	const batch = new BatchFailures(ctx);
	const { requests, followers } = check(batch, items.length, prepare);
	batch.throwFirst();
	const first = requests.values().next().value as GenerationRequest | undefined;
	limitRequestsTo(ctx, {
		maxWaitMs: (first?.maxLimitWaitSeconds ?? NO_WAIT.maxLimitWaitSeconds) * 1000,
		option: 'Options → Max Wait for Rate Limit',
	});
	const reusing = first?.reuse !== undefined;
	const memory = reusing ? memoryOf(ctx) : undefined;

	const plans = await plan(ctx, batch, requests, memory);
	batch.throwFirst();
	const { sent, quota, notSent } = await send(ctx, batch, requests, plans, memory);
	batch.throwFirst();
	const waited = await waitAndDownload(ctx, batch, requests, sent);
	reportBatch(ctx, {
		items: requests.size,
		queueTimes: waited.queueTimes,
		timeoutSeconds: first?.timeoutSeconds ?? NO_WAIT.timeoutSeconds,
		quota,
		notSent,
		quotaFailures: waited.quotaFailures,
	});
	if (reusing)
		reportReuse(
			ctx,
			[...sent.values()].map((s) => s.origin),
			followers.size,
		);
	batch.throwFirst();
	return output(ctx, batch, items.length, sent, waited, followers, reusing);
}
