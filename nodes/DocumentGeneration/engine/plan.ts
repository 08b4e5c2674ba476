/** What to do with an item given what exists: create, adopt, regenerate, or a key conflict. */
import type { IDataObject } from 'n8n-workflow';

export type OnKeyConflict = 'fail' | 'regenerate';

/** What the look-up needs of one create. */
export interface ReuseRequest {
	templateId: string;
	/** `digestOf` the item's write. */
	digest: string;
	key?: string;
	windowHours: number;
	onConflict: OnKeyConflict;
	/** The item's whole write (template, payload, meta with the marks, status). */
	fields: IDataObject;
	/** Whether the item asks for a generation (status pending). */
	generates: boolean;
}

/** A document that exists for an item, as the look-up saw it. */
export interface Found {
	card: IDataObject;
	fetchedAt: number;
	via: 'retry' | 'key';
	/** The digest of the data it was made with (remembered, or its `n8n_digest`). */
	digest?: string;
}

export type Plan =
	| { kind: 'create' }
	| { kind: 'adopt'; found: Found }
	| { kind: 'regenerate'; found: Found; fields: IDataObject }
	| { kind: 'conflict'; found: Found };

export function planFor(request: ReuseRequest, found?: Found): Plan {
	if (!found) return { kind: 'create' };
	if (found.digest !== request.digest) {
		// A retry with changed data (e.g. $now) is another document: never overwrite an earlier try's.
		if (found.via === 'retry') return { kind: 'create' };
		if (request.onConflict === 'regenerate')
			return { kind: 'regenerate', found, fields: request.fields };
		return { kind: 'conflict', found };
	}
	const status = found.card.status;
	if (request.generates && (status === 'failure' || status === 'draft'))
		return { kind: 'regenerate', found, fields: { status: 'pending' } };
	return { kind: 'adopt', found };
}
