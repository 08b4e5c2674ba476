/**
 * Waiting for generations and fetching their files, for many documents at once.
 *
 * Waiting polls together: while three or more documents are unfinished, one list request
 * (24 cards a page, bounded by `q[updated_since]` on the service's own timestamps and by the
 * templates involved) covers all of them; with fewer, each is fetched by id. Polls back off
 * (about 1 s, then growing by half up to 10 s). The cards it ends with carry a fresh
 * `download_url`, so a download needs no extra fetch unless the link has expired.
 */
import type { IBinaryData, IDataObject, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { fileNameFor, isFinished, mimeTypeFor } from './helpers/document';
import { mapConcurrent } from './helpers/items';
import { pollDelay, updatedSinceFor } from './helpers/wait';
import type { TransportContext } from './transport';
import { downloadError, fetchFile, pause } from './transport';
import { PAGE_SIZE, getDocumentCard, listDocumentCards } from './transport/documents';

export const CONCURRENCY = 8;
/** From this many unfinished documents on, one list request is cheaper than one fetch each. */
const LIST_THRESHOLD = 3;

export interface WaitTarget {
	itemIndex: number;
	id: string;
	/** `updated_at` of the create/update answer (service clock). */
	updatedAt: unknown;
	templateId?: string;
	/** Host clock deadline (ms). */
	deadline: number;
	timeoutSeconds: number;
}

export type WaitResult = { card: IDataObject } | { error: NodeApiError | NodeOperationError };

function failureError(ctx: IExecuteFunctions, card: IDataObject, itemIndex: number): NodeOperationError {
	const cause = typeof card.failure_cause === 'string' && card.failure_cause ? card.failure_cause : 'no reason given';
	return new NodeOperationError(ctx.getNode(), `Document ${String(card.id)} failed to generate: ${cause}`, {
		description:
			'Fix the template or the payload (see the generation logs in the dashboard), then generate it again with Update and status "Pending".',
		itemIndex,
	});
}

function timeoutError(ctx: IExecuteFunctions, target: WaitTarget, lastStatus: string): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`Document ${target.id} was still ${lastStatus} after waiting ${target.timeoutSeconds} s`,
		{
			description: `It may still finish. Fetch it later with the Get operation (Document ID ${target.id}), start a workflow from the Document Generation Trigger instead, or raise Options → Wait Timeout.`,
			itemIndex: target.itemIndex,
		},
	);
}

/**
 * Waits until every target is `success` or `failure`, or its deadline passes. Returns, per
 * item index, the finished card or the error for that item (failure, timeout, or an API
 * error while polling).
 */
export async function waitForDocuments(ctx: IExecuteFunctions, targets: WaitTarget[]): Promise<Map<number, WaitResult>> {
	const results = new Map<number, WaitResult>();
	const pending = new Map<string, WaitTarget[]>();
	const lastStatus = new Map<string, string>();
	for (const target of targets) {
		pending.set(target.id, [...(pending.get(target.id) ?? []), target]);
		lastStatus.set(target.id, 'pending');
	}
	const since = updatedSinceFor(targets.map((t) => t.updatedAt), Date.now());
	const templateIds = [...new Set(targets.map((t) => t.templateId).filter((t): t is string => !!t))];
	let useList = true;
	const signal = ctx.getExecutionCancelSignal?.();

	const settle = (card: IDataObject) => {
		const id = String(card.id);
		const waiting = pending.get(id);
		if (!waiting) return;
		lastStatus.set(id, String(card.status));
		if (!isFinished(card.status)) return;
		for (const target of waiting) {
			results.set(target.itemIndex, card.status === 'success' ? { card } : { error: failureError(ctx, card, target.itemIndex) });
		}
		pending.delete(id);
	};
	const failAll = (error: unknown) => {
		for (const waiting of pending.values()) {
			for (const target of waiting) {
				results.set(target.itemIndex, {
					error:
						error instanceof NodeApiError || error instanceof NodeOperationError
							? error
							: new NodeOperationError(ctx.getNode(), error as Error, { itemIndex: target.itemIndex }),
				});
			}
		}
		pending.clear();
	};

	for (let round = 0; pending.size > 0; round++) {
		const now = Date.now();
		for (const [id, waiting] of [...pending]) {
			const left = waiting.filter((target) => {
				if (now < target.deadline) return true;
				results.set(target.itemIndex, { error: timeoutError(ctx, target, lastStatus.get(id) ?? 'pending') });
				return false;
			});
			if (left.length) pending.set(id, left);
			else pending.delete(id);
		}
		if (pending.size === 0) break;
		const earliest = Math.min(...[...pending.values()].flat().map((t) => t.deadline));
		await pause(Math.max(0, Math.min(pollDelay(round), earliest - now)), signal);
		if (signal?.aborted) {
			failAll(new NodeOperationError(ctx.getNode(), 'The execution was cancelled while waiting for documents'));
			break;
		}
		try {
			if (useList && pending.size >= LIST_THRESHOLD) {
				const maxPages = Math.ceil(pending.size / PAGE_SIZE) + 2;
				let resolved = 0;
				let exhausted = false;
				for (let page = 1; page <= maxPages && pending.size > 0; page++) {
					const before = pending.size;
					const { cards, nextPage } = await listDocumentCards(ctx, { updatedSince: since, templateIds }, page);
					for (const card of cards) settle(card);
					resolved += before - pending.size;
					if (nextPage === null) {
						exhausted = true;
						break;
					}
				}
				// A busy account can push our documents past the pages we allow ourselves:
				// when a capped round found nothing, fetch the rest one by one from then on.
				if (!exhausted && resolved === 0 && pending.size > 0) useList = false;
			} else {
				const ids = [...pending.keys()];
				const cards = await mapConcurrent(ids, CONCURRENCY, async (id) => await getDocumentCard(ctx, id));
				for (const card of cards) settle(card);
			}
		} catch (error) {
			failAll(error);
		}
	}
	return results;
}

/**
 * The file of a finished document as n8n binary data. Uses the card's `download_url` (fresh
 * from the fetch that produced the card); on 403 (expired link) fetches the card again and
 * tries once more. Never sends the Authorization header to the file host.
 */
export async function downloadToBinary(
	ctx: IExecuteFunctions | IPollFunctions,
	card: IDataObject,
	itemIndex: number,
): Promise<IBinaryData> {
	const id = String(card.id);
	const what = `download the file of document ${id}`;
	if (card.status !== 'success') {
		throw new NodeOperationError(
			ctx.getNode(),
			`Document ${id} has no file to download: its status is "${String(card.status)}"`,
			{
				description:
					card.status === 'failure'
						? `Generation failed${card.failure_cause ? ` (${String(card.failure_cause)})` : ''}. Fix it and generate again with Update and status "Pending".`
						: 'Only documents with status "success" have a file. Wait for the generation to finish (Create/Update with "Wait for Completion"), or trigger on finished documents.',
				itemIndex,
			},
		);
	}
	let current = card;
	for (let attempt = 0; attempt < 2; attempt++) {
		const url = typeof current.download_url === 'string' ? current.download_url : '';
		if (url) {
			const response = await fetchFile(ctx as TransportContext, url, { what, itemIndex });
			if (response.statusCode < 300 && Buffer.isBuffer(response.body)) {
				const filename = fileNameFor(current);
				return await ctx.helpers.prepareBinaryData(response.body, filename, mimeTypeFor(filename, current.output_type));
			}
			if (response.statusCode !== 403 || attempt === 1) {
				throw downloadError(ctx as TransportContext, response.statusCode, what, itemIndex);
			}
		} else if (attempt === 1) {
			throw new NodeOperationError(ctx.getNode(), `Document ${id} has no download link`, {
				description: 'The service answered without a download_url for a successful document; run again later.',
				itemIndex,
			});
		}
		current = await getDocumentCard(ctx as TransportContext, id, { itemIndex });
	}
	throw downloadError(ctx as TransportContext, 403, what, itemIndex);
}
