// Stage 5: one output item per document in input order; generation errors; the output hints.
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { wholeSeconds } from '../../shared/helpers/dates';
import { normalizeDocument } from '../../shared/helpers/document';
import type { ItemError } from '../../shared/helpers/items';
import { errorItem, itemLabel } from '../../shared/helpers/items';
import { InputError, preview } from '../../shared/helpers/parse';
import type { Found, ReuseRequest } from './plan';
import type { ItemRecord, Run, RunFacts } from './record';

/** The input items an output item pairs with: its item, or every item of its group. */
function pairing(record: ItemRecord): INodeExecutionData['pairedItem'] {
	return record.members.length === 1
		? { item: record.index }
		: record.members.map((item) => ({ item }));
}

/** One record's output item; `origins`: whether items say where their document came from. */
function itemOf(
	ctx: IExecuteFunctions,
	run: Run,
	record: ItemRecord,
	origins: boolean,
): INodeExecutionData {
	const i = record.index;
	const source = run.record(record.follows ?? i);
	const error = record.error ?? source.error;
	if (error) {
		// A follower's item carries its leader's error, under its own item.
		const keys = ctx.getNode().onError !== 'continueErrorOutput';
		return { ...errorItem(error, i, source.made, keys), pairedItem: pairing(record) };
	}
	const { document, origin } = source.sent!;
	const json = normalizeDocument(source.finished ?? document);
	if (origins) json.origin = source === record ? origin : 'reused';
	const item: INodeExecutionData = { json, pairedItem: pairing(record) };
	if (source.binary) item.binary = source.binary;
	return item;
}

export function output(ctx: IExecuteFunctions, run: Run, origins: boolean): INodeExecutionData[] {
	return run.records.map((record) => itemOf(ctx, run, record, origins));
}

/** A document that failed to generate, with the service's `failure_cause`. */
export function failureError(
	ctx: IExecuteFunctions,
	card: IDataObject,
	itemIndex: number,
): NodeOperationError {
	const cause =
		typeof card.failure_cause === 'string' && card.failure_cause
			? card.failure_cause
			: 'no reason given';
	return new NodeOperationError(
		ctx.getNode(),
		`Document ${String(card.id)} failed to generate: ${cause}`,
		{
			description:
				'Fix the template or the payload (the generation logs are in the dashboard, or use Get with Include Payload), then generate it again with Update and status "Pending".',
			itemIndex,
		},
	);
}

/** A document still unfinished when its Wait Timeout ran out. */
export function timeoutError(
	ctx: IExecuteFunctions,
	target: { id: string; itemIndex: number; timeoutSeconds: number },
	lastStatus: string,
	heldMs: number,
): NodeOperationError {
	const held =
		heldMs >= 1000
			? ` (not counting ${Math.round(heldMs / 1000)} s held by the service's request limit)`
			: '';
	return new NodeOperationError(
		ctx.getNode(),
		`Document ${target.id} was still ${lastStatus} after waiting ${target.timeoutSeconds} s${held}`,
		{
			description: `It may still finish. Fetch it later with the Get or Download operation (Document ID ${target.id}), start a workflow from the Document Generation Trigger instead, or raise Options → Wait Timeout.`,
			itemIndex: target.itemIndex,
		},
	);
}

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

/** Documents seen waiting in the service's queue this long are worth a word. */
export const QUEUE_HINT_MS = 5_000;

export interface BatchFacts extends RunFacts {
	/** The documents the run wrote or waited for. */
	documents: number;
	/** The input items they were made from (more than `documents` when items were grouped). */
	items: number;
	timeoutSeconds: number;
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
