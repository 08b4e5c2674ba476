// One record per document through the engine's stages, and the run that holds them.
import type { IBinaryKeyData, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { DocumentRef, ItemError } from '../../shared/helpers/items';
import { asNodeError, describeMade } from '../../shared/helpers/items';
import type { GenerationRequest } from './options';
import type { Plan } from './plan';

/** Documents named one by one in the error that stops a run; the rest are counted. */
const NAMED_IN_ERROR = 10;

/** Where an item's document came from, as its output item says (`origin`). */
export type Origin = 'created' | 'reused' | 'regenerated';

/** An item's document once the write stage is over. */
export interface Sent {
	document: IDataObject;
	origin: Origin;
	/** When its write was answered (or it was adopted), and the limit's holds by then. */
	at: number;
	held: number;
	/** The host time the card was fetched, for a document adopted as it was. */
	fetchedAt?: number;
}

/** The items of one document: the first (`index`, whose parameters count) and all (`members`). */
export interface DocumentGroup {
	index: number;
	members: number[];
}

export function onePerItem(count: number): DocumentGroup[] {
	return Array.from({ length: count }, (_, index) => ({ index, members: [index] }));
}

/** What the engine knows of one document to make: of one input item, or of a group of them. */
export interface ItemRecord {
	index: number;
	/** The input items its output item pairs with. */
	members: number[];
	/** Absent for a follower or an item that failed the check. */
	request?: GenerationRequest;
	/** The earlier item whose Unique Key it repeats: it outputs that item's document. */
	follows?: number;
	/** What the look-up decided (create when absent). */
	plan?: Plan;
	sent?: Sent;
	finished?: IDataObject;
	binary?: IBinaryKeyData;
	error?: ItemError;
	/** The document it wrote to (or reused), with the last status seen. */
	made?: DocumentRef;
}

export type Requested = ItemRecord & { request: GenerationRequest };

/** Run-wide facts the hints tell about. */
export interface RunFacts {
	/** How long each success was seen pending in the service's queue (ms). */
	queueTimes: number[];
	/** The refusal that found the quota spent, when one did. */
	quota?: ItemError;
	/** Items not sent because of it. */
	notSent: number;
	/** Documents that failed with "Quota exceeded". */
	quotaFailures: number;
}

/** A run's records; without Continue On Fail the first failure aborts `stop`, then `throwFirst`. */
export class Run {
	readonly records: ItemRecord[];
	readonly stop = new AbortController();
	readonly continueOnFail: boolean;
	readonly facts: RunFacts = { queueTimes: [], notSent: 0, quotaFailures: 0 };
	/** The records that made a document, in the order they first did. */
	private readonly makers: ItemRecord[] = [];
	private readonly byItem: Map<number, ItemRecord>;

	constructor(
		private readonly ctx: IExecuteFunctions,
		groups: DocumentGroup[],
	) {
		this.continueOnFail = ctx.continueOnFail();
		this.records = groups.map(({ index, members }) => ({ index, members }));
		this.byItem = new Map(this.records.map((record) => [record.index, record]));
	}

	record(itemIndex: number): ItemRecord {
		const record = this.byItem.get(itemIndex);
		if (!record) throw new Error(`No document is made from item ${itemIndex + 1} first`);
		return record;
	}

	/** The records with a request of their own (not followers, not failed the check). */
	get requested(): Requested[] {
		return this.records.filter((record): record is Requested => !!record.request);
	}

	fail(itemIndex: number, error: unknown): void {
		const record = this.record(itemIndex);
		record.error ??= asNodeError(this.ctx, error, itemIndex);
		if (!this.continueOnFail) this.stop.abort();
	}

	/** What an item made: the one place that writes it, so a stopping error names them all. */
	made(itemIndex: number, id: unknown, status: unknown): void {
		const record = this.record(itemIndex);
		if (!record.made) this.makers.push(record);
		record.made = { id: String(id), status: String(status) };
	}

	throwFirst(): void {
		if (this.continueOnFail) return;
		const first = this.records.find((record) => record.error);
		if (first) throw nameDocuments(first, this.makers);
	}
}

/** The error that stops a run, naming every document it made (a rerun would make them again). */
export function nameDocuments(failed: ItemRecord, makers: ItemRecord[]): ItemError {
	const error = failed.error!;
	const others = makers
		.filter((record) => record.index !== failed.index)
		.map((record) => record.made!.id);
	const parts = [error.description ?? ''];
	if (failed.made) parts.push(describeMade(failed.made));
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
