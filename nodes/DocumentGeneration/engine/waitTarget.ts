/** What the watch (`watch.ts`) is given for each item, and what it hands back. */
import type { IDataObject } from 'n8n-workflow';

import type { ItemError } from '../../shared/helpers/items';

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
