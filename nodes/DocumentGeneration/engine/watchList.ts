/**
 * The documents a `Watch` waits for, and what becomes of them: each watched document with the
 * items (targets) waiting for it, settled by a card that shows it finished, failed by an error
 * or by its Wait Timeout. Each target's result goes to `onResult` once.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { isFinished } from '../../shared/helpers/document';
import { timeOf } from '../../shared/helpers/dates';
import { asNodeError } from '../../shared/helpers/items';
import { heldByLimit } from '../../shared/transport';
import { failureError, timeoutError } from './generationErrors';
import { isAfterWrite } from './pollTiming';
import type { WaitResult, WaitTarget } from './waitTarget';

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

export class WatchList {
	private readonly watched = new Map<string, Watched>();
	readonly targets: WaitTarget[] = [];

	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly onResult: (target: WaitTarget, result: WaitResult) => void,
	) {}

	get size(): number {
		return this.watched.size;
	}

	ids(): string[] {
		return [...this.watched.keys()];
	}

	has(id: string): boolean {
		return this.watched.has(id);
	}

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
	expire(now: number): number {
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

	/**
	 * Counts a complete list round for each document: one it showed starts again, one left
	 * out `patience` rounds in a row is returned (to be fetched by id) and starts again.
	 */
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
