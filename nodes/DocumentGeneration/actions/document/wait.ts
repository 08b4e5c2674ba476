/**
 * Waiting for generations and fetching their files, for many documents at once.
 *
 * Waiting polls all unfinished documents together. A poll round reads the document list
 * (24 cards a page, narrowed by `q[updated_since]` on the service's own time stamps and by
 * the templates involved) when that takes fewer requests than fetching each document by id,
 * and stops paging as soon as every awaited document has been seen; otherwise, and for the
 * last few documents, it fetches each card by id. Polls back off (1 s, 1 s, 1.5 s, 2.25 s,
 * … up to 10 s). A result is handed on the moment it is known, so a finished document's
 * file can be fetched while others still generate; the card a poll ends with carries a
 * fresh `download_url`, so a download needs no extra request unless the link has aged.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isFinished } from '../../../shared/helpers/document';
import { timeOf } from '../../../shared/helpers/dates';
import type { ItemError } from '../../../shared/helpers/items';
import { CONCURRENCY, asNodeError, mapConcurrent } from '../../../shared/helpers/items';
import {
	PAGE_SIZE,
	getDocumentCard,
	heldByLimit,
	limitReport,
	listDocumentCards,
	pause,
} from '../../../shared/transport';
import { failureError, timeoutError } from './outcomes';
import { isAfterWrite, pollDelay, updatedSinceFor } from './schedule';

/** Complete list rounds a document may be missing from before it is fetched by id. */
const MISSES_BEFORE_FETCH = 2;
/** Most templates named in one list request. */
const MAX_TEMPLATE_FILTER = 20;

export interface WaitTarget {
	itemIndex: number;
	id: string;
	/** `updated_at` of the create/update answer (service clock). */
	updatedAt: unknown;
	templateId?: string;
	/** When the service answered the write (host clock, ms): the generation clock starts. */
	startedAt: number;
	/** Time the execution's requests had been held by the limit by then (`heldByLimit`). */
	heldAtStart: number;
	timeoutSeconds: number;
	/** A card already in hand for this document (e.g. the answer of a sync create). */
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

export interface WaitOptions {
	/** Called once per target the moment its result is known. */
	onResult?: (target: WaitTarget, result: WaitResult) => void;
	/** Aborting it stops the waiting; targets without a result by then get none. */
	stop?: AbortSignal;
}

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

function isNotFound(error: unknown): boolean {
	return error instanceof NodeApiError && String(error.httpCode) === '404';
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

/**
 * Waits until every target is `success` or `failure`, or its deadline passes. Returns, per
 * item index, the finished card (with the host time it was fetched) or the error for that
 * item: failure (with the service's `failure_cause`), timeout, or an API error while polling.
 */
export async function waitForDocuments(
	ctx: IExecuteFunctions,
	targets: WaitTarget[],
	options: WaitOptions = {},
): Promise<Map<number, WaitResult>> {
	const results = new Map<number, WaitResult>();
	const watched = new Map<string, Watched>();
	for (const target of targets) {
		const entry = watched.get(target.id) ?? {
			targets: [],
			writtenAt: NaN,
			status: 'pending',
			misses: 0,
		};
		entry.targets.push(target);
		const writtenAt = timeOf(target.updatedAt) ?? NaN;
		if (Number.isFinite(writtenAt) && !(entry.writtenAt >= writtenAt)) entry.writtenAt = writtenAt;
		watched.set(target.id, entry);
	}
	const cancel = ctx.getExecutionCancelSignal?.();
	const stop = anyOf([cancel, options.stop]);

	const give = (target: WaitTarget, result: WaitResult) => {
		results.set(target.itemIndex, result);
		options.onResult?.(target, result);
	};
	const failDocument = (id: string, error: unknown) => {
		const entry = watched.get(id);
		if (!entry) return;
		watched.delete(id);
		for (const target of entry.targets)
			give(target, { error: asNodeError(ctx, error, target.itemIndex), status: entry.status });
	};
	/** Time a target's generation has had so far: since its write, less the limit's holds. */
	const generationMs = (target: WaitTarget, now: number) =>
		now - target.startedAt - (heldByLimit(ctx) - target.heldAtStart);
	const failAll = (error: unknown) => {
		for (const id of [...watched.keys()]) failDocument(id, error);
	};
	/** Takes in a card from a poll; true when it settled its document. */
	const settle = (card: IDataObject, fetchedAt: number): boolean => {
		const id = String(card.id);
		const entry = watched.get(id);
		if (!entry) return false;
		// A finished view older than our write shows the previous generation: not ours yet.
		if (isFinished(card.status) && !isAfterWrite(card.updated_at, entry.writtenAt)) return false;
		entry.status = String(card.status);
		if (card.status === 'pending') entry.pendingSeenAt = fetchedAt;
		if (!isFinished(card.status)) return false;
		watched.delete(id);
		for (const target of entry.targets) {
			give(
				target,
				card.status === 'success'
					? {
							card,
							fetchedAt,
							queuedMs:
								entry.pendingSeenAt === undefined ? 0 : generationMs(target, entry.pendingSeenAt),
						}
					: { error: failureError(ctx, card, target.itemIndex), status: entry.status },
			);
		}
		return true;
	};
	for (const target of targets) if (target.known) settle(target.known.card, target.known.fetchedAt);

	/** What is left of a target's Wait Timeout (ms). */
	const timeLeft = (target: WaitTarget, now: number) =>
		target.timeoutSeconds * 1000 - generationMs(target, now);
	const expire = (now: number) => {
		for (const [id, entry] of [...watched]) {
			const left = entry.targets.filter((target) => {
				if (timeLeft(target, now) > 0) return true;
				const held = heldByLimit(ctx) - target.heldAtStart;
				give(target, {
					error: timeoutError(ctx, target, entry.status, held),
					status: entry.status,
				});
				return false;
			});
			if (left.length) entry.targets = left;
			else watched.delete(id);
		}
	};

	/** Fetches the given documents' cards by id. A 404 fails that document only. */
	const fetchEach = async (ids: string[]) => {
		let systemic: unknown;
		await mapConcurrent(ids, CONCURRENCY, async (id) => {
			const entry = watched.get(id);
			if (!entry || systemic !== undefined || stop.aborted) return;
			const fetchedAt = Date.now();
			try {
				settle(
					await getDocumentCard(ctx, id, { itemIndex: entry.targets[0].itemIndex }),
					fetchedAt,
				);
			} catch (error) {
				if (isNotFound(error)) failDocument(id, error);
				else systemic ??= error;
			}
		});
		if (systemic !== undefined) throw systemic;
	};

	const since = updatedSinceFor(
		targets.map((t) => t.updatedAt),
		Date.now(),
	);
	// Narrowed to the templates involved, unless there are so many that the URL would grow long.
	const involved = [...new Set(targets.map((t) => t.templateId).filter((t): t is string => !!t))];
	const templateIds = involved.length <= MAX_TEMPLATE_FILTER ? involved : [];
	let listShowsUnfinished = false;
	/**
	 * Reads the list until every awaited document has been seen (or the list ends). Returns
	 * the pages that took, or Infinity when it would cost more than fetching each by id.
	 */
	const listRound = async (): Promise<number> => {
		const budget = watched.size - 1;
		const seen = new Set<string>();
		let pages = 0;
		let complete = false;
		for (let page: number | null = 1; page !== null && pages < budget && !stop.aborted; ) {
			const fetchedAt = Date.now();
			const answer = await listDocumentCards(ctx, { updatedSince: since, templateIds }, page);
			pages++;
			for (const card of answer.cards) {
				const id = String(card.id);
				if (!watched.has(id)) continue;
				seen.add(id);
				if (!settle(card, fetchedAt)) listShowsUnfinished = true;
			}
			if (answer.nextPage === null || [...watched.keys()].every((id) => seen.has(id)))
				complete = true;
			page = complete ? null : answer.nextPage;
		}
		if (!complete) return Infinity;
		// Documents a complete list keeps leaving out (not visible yet, deleted) are fetched
		// by id now and then. Sooner when the list does show unfinished documents (so one
		// missing is odd), later when it seems to show finished ones only.
		const missing: string[] = [];
		for (const [id, entry] of watched) {
			if (seen.has(id)) entry.misses = 0;
			else if (
				++entry.misses >= (listShowsUnfinished ? MISSES_BEFORE_FETCH : 2 * MISSES_BEFORE_FETCH + 1)
			) {
				entry.misses = 0;
				missing.push(id);
			}
		}
		if (missing.length) await fetchEach(missing);
		return pages;
	};

	/** Pages a list round is expected to take (at first: only our documents in the list). */
	let listPages = Math.ceil(watched.size / PAGE_SIZE);
	for (let round = 0; watched.size > 0; round++) {
		expire(Date.now());
		if (watched.size === 0) break;
		const now = Date.now();
		const soonest = Math.min(
			...[...watched.values()].flatMap((entry) => entry.targets.map((t) => timeLeft(t, now))),
		);
		await pause(Math.max(0, Math.min(pollDelay(round, !limitReport(ctx).limited), soonest)), stop);
		if (stop.aborted) {
			if (cancel?.aborted)
				failAll(
					new NodeOperationError(
						ctx.getNode(),
						'The execution was cancelled while waiting for documents',
					),
				);
			break;
		}
		try {
			if (watched.size >= 2 && listPages < watched.size) listPages = await listRound();
			else await fetchEach([...watched.keys()]);
		} catch (error) {
			failAll(error);
		}
	}
	return results;
}
