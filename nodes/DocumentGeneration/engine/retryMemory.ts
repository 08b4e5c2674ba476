/**
 * What earlier tries of this very node run made, so that Retry On Fail never makes a document
 * twice. n8n retries a node by running it again with the same items in the same execution and
 * under the same run index, in the same process (in queue mode, the same worker); a loop round
 * or a second parent starts a new run index, and its items are new documents. So the memory is
 * keyed by execution, node and run index, and holds per item the document it made.
 *
 * It lives in the process, bounded: runs untouched for a day are forgotten, and past
 * `MAX_RUNS` the least recently touched go first.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

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
