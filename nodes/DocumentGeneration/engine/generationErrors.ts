/**
 * The errors of an item whose generation did not succeed: the document failed, it did not
 * finish in time, the account's quota is spent, or its Unique Key names a document made with
 * other data.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ItemError } from '../../shared/helpers/items';
import { itemLabel } from '../../shared/helpers/items';
import { InputError, preview } from '../../shared/helpers/parse';
import type { Found, ReuseRequest } from './plan';

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
