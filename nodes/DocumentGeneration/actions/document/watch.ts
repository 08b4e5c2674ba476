/**
 * Waiting for generations, for many documents at once: a watch list. `add` adopts a document
 * into it (one just written, or one a earlier run made); `run` polls until each has its
 * result, handed on the moment it is known, so a finished document's file can be fetched
 * while others still generate.
 *
 * A poll round reads the document list (up to 100 cards a page, narrowed by `q[updated_since]` on the
 * service's own time stamps and by the templates involved) when that takes fewer requests than
 * fetching each document by id, and stops paging as soon as every watched document has been
 * seen; otherwise, and for the last few documents, it fetches each card by id. Polls back off
 * (`pollDelay`). The card a poll ends with carries a fresh `download_url`, so a download needs
 * no extra request unless the link has aged.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isFinished } from '../../../shared/helpers/document';
import { timeOf } from '../../../shared/helpers/dates';
import type { ItemError } from '../../../shared/helpers/items';
import { CONCURRENCY, asNodeError, mapConcurrent } from '../../../shared/helpers/items';
import {
	DEFAULT_PAGE_SIZE,
	getDocumentCard,
	heldByLimit,
	isNotFound,
	limitReport,
	scanDocumentCards,
} from '../../../shared/transport';
import { pause } from '../../../shared/helpers/wait';
import { failureError, timeoutError } from './outcomes';
import { isAfterWrite, pollDelay, templateFilter, updatedSinceFor } from './schedule';

/** Complete list rounds a document may be missing from before it is fetched by id. */
const MISSES_BEFORE_FETCH = 2;

export interface WaitTarget {
	itemIndex: number;
	id: string;
	/** `updated_at` of the last write to it (service clock). */
	updatedAt: unknown;
	templateId?: string;
	/** When the service answered the write (host clock, ms): the generation clock starts. */
	startedAt: number;
	/** Time the execution's requests had been held by the limit by then (`heldByLimit`). */
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

interface Watched {
	targets: WaitTarget[];
	/** When the last write to the document happened (service clock, ms; NaN if unknown). */
	writtenAt: number;
	status: string;
	/** Complete list rounds in a row that did not show the document. */
	misses: number;
	/** When a poll last saw it still pending, waiting in the service's queue (host clock). */
	pendingSeenAt?: number;
}

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

export class Watch {
	private readonly watched = new Map<string, Watched>();
	private readonly targets: WaitTarget[] = [];
	private readonly cancel?: AbortSignal;
	private readonly stop: AbortSignal;
	/** Whether the list has shown watched documents unfinished (so one missing is odd). */
	private listShowsUnfinished = false;

	/**
	 * `onResult` is called once per target the moment its result is known: the finished card,
	 * or the item's error (failure with the service's `failure_cause`, timeout, or an API error
	 * while polling). Aborting `stop` ends the waiting; targets without a result get none.
	 */
	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly onResult: (target: WaitTarget, result: WaitResult) => void,
		stop?: AbortSignal,
	) {
		this.cancel = ctx.getExecutionCancelSignal?.();
		this.stop = anyOf([this.cancel, stop]);
	}

	get size(): number {
		return this.watched.size;
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

	/** Polls until every watched document has its result, or the stop. */
	async run(): Promise<void> {
		const since = updatedSinceFor(
			this.targets.map((t) => t.updatedAt),
			Date.now(),
		);
		const templateIds = templateFilter(this.targets.map((t) => t.templateId));
		/**
		 * Pages a list round is expected to take: at first only ours in the list, at the fewest
		 * cards a page the service is known to serve; then what the last round took.
		 */
		let listPages = Math.ceil(this.watched.size / DEFAULT_PAGE_SIZE);
		for (let round = 0; this.watched.size > 0; round++) {
			const soonest = this.expire(Date.now());
			if (this.watched.size === 0) break;
			const quick = !limitReport(this.ctx).limited;
			await pause(Math.max(0, Math.min(pollDelay(round, quick), soonest)), this.stop);
			if (this.stop.aborted) {
				if (this.cancel?.aborted)
					this.failAll(
						new NodeOperationError(
							this.ctx.getNode(),
							'The execution was cancelled while waiting for documents',
						),
					);
				return;
			}
			try {
				if (this.watched.size >= 2 && listPages < this.watched.size)
					listPages = await this.listRound({ updatedSince: since, templateIds });
				else await this.fetchEach([...this.watched.keys()]);
			} catch (error) {
				this.failAll(error);
			}
		}
	}

	private failDocument(id: string, error: unknown): void {
		const entry = this.watched.get(id);
		if (!entry) return;
		this.watched.delete(id);
		for (const target of entry.targets)
			this.onResult(target, {
				error: asNodeError(this.ctx, error, target.itemIndex),
				status: entry.status,
			});
	}

	private failAll(error: unknown): void {
		for (const id of [...this.watched.keys()]) this.failDocument(id, error);
	}

	/** Time a target's generation has had so far: since its write, less the limit's holds. */
	private generationMs(target: WaitTarget, now: number): number {
		return now - target.startedAt - (heldByLimit(this.ctx) - target.heldAtStart);
	}

	/** Takes in a card from a poll; true when it settled its document. */
	private settle(card: IDataObject, fetchedAt: number): boolean {
		const id = String(card.id);
		const entry = this.watched.get(id);
		if (!entry) return false;
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

	/** Fails the targets whose Wait Timeout has passed; returns the least time left (ms). */
	private expire(now: number): number {
		let soonest = Infinity;
		for (const [id, entry] of [...this.watched]) {
			entry.targets = entry.targets.filter((target) => {
				const left = target.timeoutSeconds * 1000 - this.generationMs(target, now);
				if (left > 0) {
					soonest = Math.min(soonest, left);
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

	/** Fetches the given documents' cards by id. A 404 fails that document only. */
	private async fetchEach(ids: string[]): Promise<void> {
		let systemic: unknown;
		await mapConcurrent(ids, CONCURRENCY, async (id) => {
			const entry = this.watched.get(id);
			if (!entry || systemic !== undefined || this.stop.aborted) return;
			const fetchedAt = Date.now();
			try {
				const itemIndex = entry.targets[0].itemIndex;
				this.settle(await getDocumentCard(this.ctx, id, { itemIndex }), fetchedAt);
			} catch (error) {
				if (isNotFound(error)) this.failDocument(id, error);
				else systemic ??= error;
			}
		});
		if (systemic !== undefined) throw systemic;
	}

	/**
	 * Reads the list until every watched document has been seen (or the list ends). Returns
	 * the pages that took, or Infinity when it would cost more than fetching each by id.
	 */
	private async listRound(filters: { updatedSince: number; templateIds: string[] }) {
		const wanted = new Set(this.watched.keys());
		const seen = new Set<string>();
		const { pages, complete } = await scanDocumentCards(
			this.ctx,
			filters,
			(card, fetchedAt) => {
				const id = String(card.id);
				if (!wanted.has(id)) return false;
				seen.add(id);
				if (this.watched.has(id) && !this.settle(card, fetchedAt)) this.listShowsUnfinished = true;
				return seen.size === wanted.size;
			},
			{ maxPages: wanted.size - 1, stop: this.stop, reader: 'wait' },
		);
		if (!complete) return Infinity;
		// Documents a complete list keeps leaving out (not visible yet, deleted) are fetched
		// by id now and then. Sooner when the list does show unfinished documents (so one
		// missing is odd), later when it seems to show finished ones only.
		const patience = this.listShowsUnfinished ? MISSES_BEFORE_FETCH : 2 * MISSES_BEFORE_FETCH + 1;
		const missing: string[] = [];
		for (const [id, entry] of this.watched) {
			if (seen.has(id)) entry.misses = 0;
			else if (++entry.misses >= patience) {
				entry.misses = 0;
				missing.push(id);
			}
		}
		if (missing.length) await this.fetchEach(missing);
		return pages;
	}
}
