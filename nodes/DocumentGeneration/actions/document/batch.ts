/**
 * What a batch of generations tells the user beyond its items: a spent quota (the writes not
 * sent after it fail at once with one error), the documents a failed run had made (so none
 * is left unnamed), and execution hints on the node after long work (the service's queue, a
 * spent quota; the request limit's hint is the router's, for every operation).
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { wholeSeconds } from '../../../shared/helpers/dates';
import type { DocumentRef, ItemError } from '../../../shared/helpers/items';
import { asNodeError, describeMade } from '../../../shared/helpers/items';

/** Documents seen waiting in the service's queue this long are worth a word. */
export const QUEUE_HINT_MS = 5_000;

/** Documents named one by one in the error that stops a run; the rest are counted. */
const NAMED_IN_ERROR = 10;

/** Whether the service refused a write because the account's document quota is spent (422). */
export function isQuotaSpent(error: unknown): boolean {
	return (
		error instanceof NodeApiError &&
		String(error.httpCode) === '422' &&
		/quota/i.test(`${error.message} ${error.description ?? ''}`)
	);
}

/** Whether a document failed because the quota was spent ("Quota exceeded"). */
export function isQuotaFailure(error: unknown): boolean {
	return error instanceof NodeOperationError && /failed to generate: .*quota/i.test(error.message);
}

/** The error of an item not sent because an earlier write found the quota spent. */
export function quotaNotSent(
	ctx: IExecuteFunctions,
	quota: ItemError,
	itemIndex: number,
): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), "Not sent: the account's document quota is spent", {
		description: `The service refused an earlier document of this run (${quota.message}), so this item and the others after it were not sent. Add documents to the plan or upgrade it in the dashboard (or wait for the next month), then run again with the items that failed: the documents already made are in the output.`,
		itemIndex,
	});
}

/**
 * The error that stops a run (without Continue On Fail), naming its item's document and the
 * other documents the run had made: they keep generating, and a run started again would make
 * them a second time.
 */
export function nameDocuments(
	error: ItemError,
	itemIndex: number,
	made: Map<number, DocumentRef>,
): ItemError {
	const own = made.get(itemIndex);
	const others = [...made].filter(([i]) => i !== itemIndex).map(([, ref]) => ref.id);
	const parts = [error.description ?? ''];
	if (own) parts.push(describeMade(own));
	if (others.length) {
		const shown = others.slice(0, NAMED_IN_ERROR).join(', ');
		const more =
			others.length > NAMED_IN_ERROR ? ` and ${others.length - NAMED_IN_ERROR} more` : '';
		parts.push(
			`This run had also made ${others.length} other document${others.length === 1 ? '' : 's'} (${shown}${more}); they are kept and keep generating. Retry On Fail reuses them, and so does running the batch again with a Unique Key (Create → Options); otherwise Get Many (Updated Since the start of this run) lists them: run again only the items without one.`,
		);
	}
	error.description = parts.filter(Boolean).join(' ');
	return error;
}

/**
 * The failed items of a batch and the documents its items made (each failed item names its
 * own). Without Continue On Fail the first failure stops the run: `stop` aborts, nothing new
 * is started, and `throwFirst` ends the node with the first item's error.
 */
export class BatchFailures {
	readonly errors = new Map<number, ItemError>();
	/** The document each item wrote to (or reused), with the last status seen. */
	readonly made = new Map<number, DocumentRef>();
	readonly stop = new AbortController();
	readonly continueOnFail: boolean;

	constructor(private readonly ctx: IExecuteFunctions) {
		this.continueOnFail = ctx.continueOnFail();
	}

	fail(itemIndex: number, error: unknown): void {
		if (!this.errors.has(itemIndex))
			this.errors.set(itemIndex, asNodeError(this.ctx, error, itemIndex));
		if (!this.continueOnFail) this.stop.abort();
	}

	throwFirst(): void {
		if (this.continueOnFail || this.errors.size === 0) return;
		const first = Math.min(...this.errors.keys());
		throw nameDocuments(this.errors.get(first)!, first, this.made);
	}
}

export interface BatchFacts {
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
			message: `${facts.items} items: ${queued} document${queued === 1 ? '' : 's'} waited up to ${wholeSeconds(slowest)} in the service's queue before generating (it renders a few documents at a time). Each document's Wait Timeout (now ${facts.timeoutSeconds} s) runs during that wait: for larger batches raise it, or send fewer items per run; a plan with more capacity renders sooner.`,
		});
	}
	if (facts.quota || facts.quotaFailures) {
		const what = [
			facts.quota &&
				`${facts.notSent} item${facts.notSent === 1 ? ' was' : 's were'} not sent after the service refused one`,
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
