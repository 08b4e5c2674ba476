// The engine of Create and Update (`runGenerations`), in stages over one record per document:
// 1 check every item, 2 look up what exists, 3 write, 4 wait and download, 5 output in order.
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { asNodeError } from '../../shared/helpers/items';
import { limitRequestsTo } from '../../shared/transport';
import { lookUp } from './lookUp';
import type { GenerationRequest } from './options';
import { NO_WAIT } from './options';
import { conflictError, output, reportBatch, reportReuse, sameKeyInBatch } from './output';
import type { ReuseRequest } from './plan';
import { planFor } from './plan';
import type { DocumentGroup } from './record';
import { Run } from './record';
import { waitAndDownload } from './wait';
import type { RunMemory } from './writes';
import { memoryOf, writeAll } from './writes';

export type { GenerationOptions, GenerationRequest } from './options';
export { readGenerationOptions } from './options';
export { onePerItem, type DocumentGroup } from './record';
export { DEFAULT_REUSE_HOURS, createSync, readReuse } from './writes';

/** Each document's request, read and checked from its (first) item's index; sends nothing. */
export type Prepare = (itemIndex: number) => GenerationRequest | Promise<GenerationRequest>;

/** Stage 1: every item's request, read and checked; items that repeat a key follow the first. */
async function check(run: Run, prepare: Prepare): Promise<void> {
	const leaders = new Map<string, number>();
	for (const record of run.records) {
		// Without Continue On Fail the first refusal stops the node: read no more (files).
		if (run.stop.signal.aborted) break;
		try {
			const request = await prepare(record.index);
			const reuse = request.reuse;
			if (reuse?.key !== undefined) {
				const key = JSON.stringify([reuse.templateId, reuse.key]);
				const leader = leaders.get(key);
				if (leader !== undefined) {
					if (run.record(leader).request!.reuse!.digest !== reuse.digest)
						throw sameKeyInBatch(reuse.key, leader);
					record.follows = leader;
					continue;
				}
				leaders.set(key, record.index);
			}
			record.request = request;
		} catch (error) {
			run.fail(record.index, error);
		}
	}
}

/** Stage 2: what exists for each item already, and so what to do with it. */
async function plan(ctx: IExecuteFunctions, run: Run, memory?: RunMemory): Promise<void> {
	const reusable = run.requested.flatMap(
		({ index, request }): Array<[number, ReuseRequest]> =>
			request.reuse ? [[index, request.reuse]] : [],
	);
	try {
		const found = await lookUp(ctx, reusable, memory);
		for (const [i, reuse] of reusable) {
			const itemPlan = planFor(reuse, found.get(i));
			if (itemPlan.kind === 'conflict') {
				run.made(i, itemPlan.found.card.id, itemPlan.found.card.status);
				run.fail(i, conflictError(ctx, reuse, itemPlan.found, i));
			} else run.record(i).plan = itemPlan;
		}
	} catch (error) {
		// Without knowing what exists, creating could make a second document: nothing is sent.
		for (const [i] of reusable) run.fail(i, asNodeError(ctx, error, i));
	}
}

/** The hints on the node's output panel: the queue, the quota, what was reused. */
function report(ctx: IExecuteFunctions, run: Run, first?: GenerationRequest): void {
	const requested = run.requested;
	reportBatch(ctx, {
		documents: requested.length,
		items: requested.reduce((sum, record) => sum + record.members.length, 0),
		timeoutSeconds: first?.timeoutSeconds ?? NO_WAIT.timeoutSeconds,
		...run.facts,
	});
	if (first?.reuse === undefined) return;
	const origins = requested.flatMap(({ sent }) => (sent ? [sent.origin] : []));
	const followers = run.records.filter((record) => record.follows !== undefined).length;
	reportReuse(ctx, origins, followers);
}

/** Creates or updates one document per group of items, waits for them, downloads their files. */
export async function runGenerations(
	ctx: IExecuteFunctions,
	groups: DocumentGroup[],
	prepare: Prepare,
): Promise<INodeExecutionData[]> {
	const run = new Run(ctx, groups);
	await check(run, prepare);
	run.throwFirst();
	const first = run.requested[0]?.request;
	limitRequestsTo(ctx, {
		maxWaitMs: (first?.maxLimitWaitSeconds ?? NO_WAIT.maxLimitWaitSeconds) * 1000,
		option: 'Options → Max Wait for Rate Limit',
	});
	const reusing = first?.reuse !== undefined;
	const memory = reusing ? memoryOf(ctx) : undefined;
	await plan(ctx, run, memory);
	run.throwFirst();
	await writeAll(ctx, run, memory);
	run.throwFirst();
	await waitAndDownload(ctx, run);
	report(ctx, run, first);
	run.throwFirst();
	return output(ctx, run, reusing);
}
