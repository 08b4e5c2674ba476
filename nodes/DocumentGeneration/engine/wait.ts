// Stage 4: every generation waited for together (polling the list, or each card when cheaper),
// each file fetched once its document is ready.
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	downloadToBinary,
	withLinkOf,
	DEFAULT_PAGE_SIZE,
	heldByLimit,
	limitReport,
} from '../../shared/transport';
import { pause, timeOf } from '../../shared/helpers/dates';
import { isFinished } from '../../shared/helpers/document';
import type { ItemError } from '../../shared/helpers/items';
import { CONCURRENCY, asNodeError, createLimiter } from '../../shared/helpers/items';
import { fetchEachCard, listBudget, listForIds } from './lookUp';
import { failureError, isQuotaFailure, timeoutError } from './output';
import { isAfterWrite, pollDelay, templateFilter, updatedSinceFor } from './pollTiming';
import type { Requested, Run } from './record';

/** What the watch is given for each item waiting for a document. */
export interface WaitTarget {
	itemIndex: number;
	id: string;
	/** `updated_at` of the last write to it (service clock). */
	updatedAt: unknown;
	templateId?: string;
	/** When the service answered the write (host clock, ms), and the limit's holds by then. */
	startedAt: number;
	heldAtStart: number;
	timeoutSeconds: number;
	/** A card already in hand for this document (a sync create's answer, a look-up's card). */
	known?: { card: IDataObject; fetchedAt: number };
}

export type WaitResult =
	| {
			card: IDataObject;
			fetchedAt: number;
			/** How long it was seen waiting in the service's queue (pending), at least. */
			queuedMs: number;
	  }
	| { error: ItemError; status: string };

/** A document a `Watch` waits for, with the items waiting for it; one result per target. */
interface Watched {
	targets: WaitTarget[];
	/** When the last write to the document happened (service clock, ms; NaN if unknown). */
	writtenAt: number;
	status: string;
	/** Complete list rounds in a row that did not show the document. */
	misses: number;
	/** When a poll last saw it pending, in the service's queue (host clock). */
	pendingSeenAt?: number;
	/** When a poll last read its card (host clock). */
	lookedAt?: number;
}

class WatchList {
	/** The documents still waited for, by id: read by the `Watch`, changed only here. */
	readonly watched = new Map<string, Watched>();
	readonly targets: WaitTarget[] = [];

	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly onResult: (target: WaitTarget, result: WaitResult) => void,
	) {}

	/** The item a request for the document is made for (its first target's). */
	itemIndexOf(id: string): number | undefined {
		return this.watched.get(id)?.targets[0]?.itemIndex;
	}

	/** Adopts a document into the wait; a finished `known` card settles it at once. */
	add(target: WaitTarget): void {
		this.targets.push(target);
		const entry = this.watched.get(target.id) ?? {
			targets: [],
			writtenAt: NaN,
			status: 'pending',
			misses: 0,
		};
		entry.targets.push(target);
		const writtenAt = timeOf(target.updatedAt) ?? NaN;
		if (Number.isFinite(writtenAt) && !(entry.writtenAt >= writtenAt)) entry.writtenAt = writtenAt;
		this.watched.set(target.id, entry);
		if (target.known) this.settle(target.known.card, target.known.fetchedAt);
	}

	failDocument(id: string, error: unknown): void {
		const entry = this.watched.get(id);
		if (!entry) return;
		this.watched.delete(id);
		for (const target of entry.targets)
			this.onResult(target, {
				error: asNodeError(this.ctx, error, target.itemIndex),
				status: entry.status,
			});
	}

	failAll(error: unknown): void {
		for (const id of [...this.watched.keys()]) this.failDocument(id, error);
	}

	/** Time a target's generation has had so far: since its write, less the limit's holds. */
	private generationMs(target: WaitTarget, now: number): number {
		return now - target.startedAt - (heldByLimit(this.ctx) - target.heldAtStart);
	}

	/** Takes in a card from a poll; true when it settled its document. */
	settle(card: IDataObject, fetchedAt: number): boolean {
		const id = String(card.id);
		const entry = this.watched.get(id);
		if (!entry) return false;
		entry.lookedAt = fetchedAt;
		// A finished view older than our write shows the previous generation: not ours yet.
		if (isFinished(card.status) && !isAfterWrite(card.updated_at, entry.writtenAt)) return false;
		entry.status = String(card.status);
		if (card.status === 'pending') entry.pendingSeenAt = fetchedAt;
		if (!isFinished(card.status)) return false;
		this.watched.delete(id);
		for (const target of entry.targets) {
			const queuedMs =
				entry.pendingSeenAt === undefined ? 0 : this.generationMs(target, entry.pendingSeenAt);
			this.onResult(
				target,
				card.status === 'success'
					? { card, fetchedAt, queuedMs }
					: { error: failureError(this.ctx, card, target.itemIndex), status: entry.status },
			);
		}
		return true;
	}

	/** Whether a target's Wait Timeout has passed at `at`. */
	private outOfTime(target: WaitTarget, at: number): boolean {
		return this.generationMs(target, at) >= target.timeoutSeconds * 1000;
	}

	/** Documents out of time and not read since: each gets one look before it fails. */
	overdue(now: number): string[] {
		const due = (t: WaitTarget, e: Watched) =>
			this.outOfTime(t, now) && !this.outOfTime(t, e.lookedAt ?? -Infinity);
		return [...this.watched].filter(([, e]) => e.targets.some((t) => due(t, e))).map(([id]) => id);
	}

	/** Fails the targets whose Wait Timeout has passed; returns the least time left (ms). */
	expire(now: number): number {
		let soonest = Infinity;
		for (const [id, entry] of [...this.watched]) {
			entry.targets = entry.targets.filter((target) => {
				const left = target.timeoutSeconds * 1000 - this.generationMs(target, now);
				if (left > 0) {
					soonest = Math.min(soonest, Math.max(left, 0));
					return true;
				}
				const held = heldByLimit(this.ctx) - target.heldAtStart;
				const error = timeoutError(this.ctx, target, entry.status, held);
				this.onResult(target, { error, status: entry.status });
				return false;
			});
			if (!entry.targets.length) this.watched.delete(id);
		}
		return soonest;
	}

	/** Counts a complete list round: a document left out `patience` rounds in a row is returned. */
	missedBy(seen: Set<string>, patience: number): string[] {
		const missing: string[] = [];
		for (const [id, entry] of this.watched) {
			if (seen.has(id)) entry.misses = 0;
			else if (++entry.misses >= patience) {
				entry.misses = 0;
				missing.push(id);
			}
		}
		return missing;
	}
}

/** Complete list rounds a document may be missing from before it is fetched by id. */
const MISSES_BEFORE_FETCH = 2;

/** One signal that aborts when any of the given ones does. */
function anyOf(signals: Array<AbortSignal | undefined>): AbortSignal {
	const controller = new AbortController();
	for (const signal of signals) {
		if (!signal) continue;
		if (signal.aborted) controller.abort();
		else signal.addEventListener('abort', () => controller.abort(), { once: true });
	}
	return controller.signal;
}

class Watch {
	private readonly list: WatchList;
	private readonly cancel?: AbortSignal;
	private readonly stop: AbortSignal;
	/** Whether the list has shown watched documents unfinished (so one missing is odd). */
	private listShowsUnfinished = false;

	/** `onResult` gets each target's card or error once known; `stop` ends the waiting. */
	constructor(
		private readonly ctx: IExecuteFunctions,
		onResult: (target: WaitTarget, result: WaitResult) => void,
		stop?: AbortSignal,
	) {
		this.list = new WatchList(ctx, onResult);
		this.cancel = ctx.getExecutionCancelSignal?.();
		this.stop = anyOf([this.cancel, stop]);
	}

	add(target: WaitTarget): void {
		this.list.add(target);
	}

	/** Polls until every watched document has its result, or the stop. */
	async run(): Promise<void> {
		const since = updatedSinceFor(
			this.list.targets.map((t) => t.updatedAt),
			Date.now(),
		);
		const templateIds = templateFilter(this.list.targets.map((t) => t.templateId));
		// Pages a list round is expected to take: at first ours alone; then what the last took.
		let listPages = Math.ceil(this.list.watched.size / DEFAULT_PAGE_SIZE);
		for (let round = 0; this.list.watched.size > 0; round++) {
			try {
				// One look at a document out of time first: it may have finished meanwhile.
				await this.fetchEach(this.list.overdue(Date.now()));
			} catch (error) {
				this.list.failAll(error);
			}
			const soonest = this.list.expire(Date.now());
			if (this.list.watched.size === 0) break;
			const quick = !limitReport(this.ctx).limited;
			await pause(Math.max(0, Math.min(pollDelay(round, quick), soonest)), this.stop);
			if (this.stop.aborted) {
				if (this.cancel?.aborted)
					this.list.failAll(
						new NodeOperationError(
							this.ctx.getNode(),
							'The execution was cancelled while waiting for documents',
						),
					);
				return;
			}
			try {
				const budget = listBudget(this.list.watched.size);
				if (budget > 0 && listPages <= budget)
					listPages = await this.listRound({ updatedSince: since, templateIds });
				else await this.fetchEach([...this.list.watched.keys()]);
			} catch (error) {
				this.list.failAll(error);
			}
		}
	}

	/** Fetches the documents' cards by id; a 404 fails that document only. */
	private async fetchEach(ids: string[]): Promise<void> {
		await fetchEachCard(
			this.ctx,
			ids.filter((id) => this.list.watched.has(id)),
			{
				onCard: (card, fetchedAt) => void this.list.settle(card, fetchedAt),
				onNotFound: (id, error) => this.list.failDocument(id, error),
				itemIndexOf: (id) => this.list.itemIndexOf(id),
				stop: this.stop,
			},
		);
	}

	/** Reads the list until every watched document was seen: its pages (Infinity: GETs cost less). */
	private async listRound(filters: { updatedSince: number; templateIds: string[] }) {
		const { seen, pages, complete } = await listForIds(
			this.ctx,
			new Set(this.list.watched.keys()),
			(card, fetchedAt) => {
				if (this.list.watched.has(String(card.id)) && !this.list.settle(card, fetchedAt))
					this.listShowsUnfinished = true;
			},
			{ ...filters, stop: this.stop, reader: 'wait' },
		);
		if (!complete) return Infinity;
		// Documents a complete list keeps leaving out are fetched by id: sooner when it shows
		// unfinished documents (so one missing is odd).
		const patience = this.listShowsUnfinished ? MISSES_BEFORE_FETCH : 2 * MISSES_BEFORE_FETCH + 1;
		const missing = this.list.missedBy(seen, patience);
		if (missing.length) await this.fetchEach(missing);
		return pages;
	}
}

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
