/**
 * Execution hints on the node after long work: the service's queue, a spent quota, and what a
 * create reused (the request limit's hint is the router's, for every operation).
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { wholeSeconds } from '../../shared/helpers/dates';
import type { ItemError } from '../../shared/helpers/items';

/** Documents seen waiting in the service's queue this long are worth a word. */
export const QUEUE_HINT_MS = 5_000;

export interface BatchFacts {
	/** The documents the run wrote or waited for. */
	documents: number;
	/** The input items they were made from (more than `documents` when items were grouped). */
	items: number;
	/** How long each success was seen pending in the service's queue (ms). */
	queueTimes: number[];
	timeoutSeconds: number;
	/** The refusal that found the quota spent, when one did. */
	quota?: ItemError;
	/** Items not sent because of it. */
	notSent: number;
	/** Documents that failed with "Quota exceeded". */
	quotaFailures: number;
}

/** What the run counts: an item each, or a document each when items were grouped. */
function unitOf(facts: Pick<BatchFacts, 'documents' | 'items'>): 'item' | 'document' {
	return facts.documents === facts.items ? 'item' : 'document';
}

/** The run's size in words: its items, or its documents when items were grouped into them. */
export function batchSize(facts: Pick<BatchFacts, 'documents' | 'items'>): string {
	const { documents, items } = facts;
	if (unitOf(facts) === 'item') return `${items} item${items === 1 ? '' : 's'}`;
	return `${documents} document${documents === 1 ? '' : 's'} from ${items} items`;
}

/** Execution hints on the node about the service's queue and quota during this run. */
export function reportBatch(ctx: IExecuteFunctions, facts: BatchFacts): void {
	if (typeof ctx.addExecutionHints !== 'function') return;
	const times = [...facts.queueTimes].sort((a, b) => a - b);
	const slowest = times[times.length - 1] ?? 0;
	if (slowest >= QUEUE_HINT_MS) {
		const queued = times.filter((ms) => ms >= QUEUE_HINT_MS).length;
		ctx.addExecutionHints({
			type: 'info',
			location: 'outputPane',
			message: `${batchSize(facts)}: ${queued} document${queued === 1 ? '' : 's'} waited up to ${wholeSeconds(slowest)} in the service's queue before generating (it renders a few documents at a time). Each document's Wait Timeout (now ${facts.timeoutSeconds} s) runs during that wait: for larger batches raise it, or send fewer items per run; a plan with more capacity renders sooner.`,
		});
	}
	if (facts.quota || facts.quotaFailures) {
		const what = [
			facts.quota &&
				`${facts.notSent} ${unitOf(facts)}${facts.notSent === 1 ? ' was' : 's were'} not sent after the service refused one`,
			facts.quotaFailures &&
				`${facts.quotaFailures} document${facts.quotaFailures === 1 ? '' : 's'} failed with "Quota exceeded"`,
		].filter(Boolean);
		ctx.addExecutionHints({
			type: 'warning',
			location: 'outputPane',
			message: `The account's document quota ran out during this run: ${what.join(', and ')}. Add documents or upgrade the plan in the dashboard, then run again with the failed items only.`,
		});
	}
}

/** An execution hint when a create reused documents: a re-run shows that it did no double work. */
export function reportReuse(ctx: IExecuteFunctions, origins: string[], followers: number): void {
	if (typeof ctx.addExecutionHints !== 'function') return;
	const count = (origin: string) => origins.filter((o) => o === origin).length;
	const reused = count('reused');
	const regenerated = count('regenerated');
	if (!reused && !regenerated && !followers) return;
	const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
	const parts = [
		reused &&
			`${plural(reused, 'document', 'documents')} existed already and ${reused === 1 ? 'was' : 'were'} reused`,
		regenerated &&
			`${plural(regenerated, 'document', 'documents')} ${regenerated === 1 ? 'was' : 'were'} generated again (failed, a draft, or changed data)`,
		`${plural(count('created'), 'document was', 'documents were')} created`,
		followers &&
			`${plural(followers, 'item repeated', 'items repeated')} the Unique Key of an earlier item and output its document`,
	].filter(Boolean);
	ctx.addExecutionHints({
		type: 'info',
		location: 'outputPane',
		message: `No document was made twice: ${parts.join('; ')}. Each item's origin field says which.`,
	});
}
