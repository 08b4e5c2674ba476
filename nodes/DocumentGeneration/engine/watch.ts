/**
 * Waiting for generations, for many documents at once: a watch list (`watchList.ts`). `add`
 * adopts a document into it (one just written, or one an earlier run made); `run` polls until
 * each has its result, handed on the moment it is known, so a finished document's file can be
 * fetched while others still generate.
 *
 * A poll round reads the document list (up to 100 cards a page, narrowed by `q[updated_since]` on
 * the service's own time stamps and by the templates involved) when that takes fewer requests
 * than fetching each document by id, and stops paging as soon as every watched document has
 * been seen; otherwise, and for the last few documents, it fetches each card by id (the
 * strategy of `listOrFetch.ts`, which the look-up shares). Polls back off
 * (`pollDelay`). The card a poll ends with carries a fresh `download_url`, so a download needs
 * no extra request unless the link has aged.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DEFAULT_PAGE_SIZE, limitReport } from '../../shared/transport';
import { pause } from '../../shared/helpers/dates';
import { fetchEachCard, listBudget, listForIds } from './listOrFetch';
import { pollDelay, templateFilter, updatedSinceFor } from './pollTiming';
import type { WaitResult, WaitTarget } from './waitTarget';
import { WatchList } from './watchList';

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

export class Watch {
	private readonly list: WatchList;
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
		onResult: (target: WaitTarget, result: WaitResult) => void,
		stop?: AbortSignal,
	) {
		this.list = new WatchList(ctx, onResult);
		this.cancel = ctx.getExecutionCancelSignal?.();
		this.stop = anyOf([this.cancel, stop]);
	}

	/** Adopts a document into the wait; a finished `known` card settles it at once. */
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
		/**
		 * Pages a list round is expected to take: at first only ours in the list, at the fewest
		 * cards a page the service is known to serve; then what the last round took.
		 */
		let listPages = Math.ceil(this.list.size / DEFAULT_PAGE_SIZE);
		for (let round = 0; this.list.size > 0; round++) {
			const soonest = this.list.expire(Date.now());
			if (this.list.size === 0) break;
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
				const budget = listBudget(this.list.size);
				if (budget > 0 && listPages <= budget)
					listPages = await this.listRound({ updatedSince: since, templateIds });
				else await this.fetchEach(this.list.ids());
			} catch (error) {
				this.list.failAll(error);
			}
		}
	}

	/** Fetches the given documents' cards by id. A 404 fails that document only. */
	private async fetchEach(ids: string[]): Promise<void> {
		await fetchEachCard(
			this.ctx,
			ids.filter((id) => this.list.has(id)),
			{
				onCard: (card, fetchedAt) => void this.list.settle(card, fetchedAt),
				onNotFound: (id, error) => this.list.failDocument(id, error),
				itemIndexOf: (id) => this.list.itemIndexOf(id),
				stop: this.stop,
			},
		);
	}

	/**
	 * Reads the list until every watched document has been seen (or the list ends). Returns
	 * the pages that took, or Infinity when it would cost more than fetching each by id.
	 */
	private async listRound(filters: { updatedSince: number; templateIds: string[] }) {
		const { seen, pages, complete } = await listForIds(
			this.ctx,
			new Set(this.list.ids()),
			(card, fetchedAt) => {
				if (this.list.has(String(card.id)) && !this.list.settle(card, fetchedAt))
					this.listShowsUnfinished = true;
			},
			{ ...filters, stop: this.stop, reader: 'wait' },
		);
		if (!complete) return Infinity;
		// Documents a complete list keeps leaving out (not visible yet, deleted) are fetched
		// by id now and then. Sooner when the list does show unfinished documents (so one
		// missing is odd), later when it seems to show finished ones only.
		const patience = this.listShowsUnfinished ? MISSES_BEFORE_FETCH : 2 * MISSES_BEFORE_FETCH + 1;
		const missing = this.list.missedBy(seen, patience);
		if (missing.length) await this.fetchEach(missing);
		return pages;
	}
}
