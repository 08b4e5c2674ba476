/**
 * The pipeline create and update share: check every item first (bad input sends nothing),
 * send the writes with bounded concurrency, wait for all started generations together,
 * download the files, and assemble the output in input order with `pairedItem`.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { normalizeDocument } from '../../../shared/helpers/document';
import { asItemError, errorItem, mapConcurrent } from '../../../shared/helpers/items';
import { parsePositiveInteger } from '../../../shared/helpers/parse';
import type { WaitTarget } from '../../../shared/generation';
import { CONCURRENCY, downloadToBinary, waitForDocuments } from '../../../shared/generation';

export interface GenerationRequest {
	/** Sends the write for this item and returns the API document. */
	send: () => Promise<IDataObject>;
	/** Whether the write starts a generation (status pending). */
	generates: boolean;
	wait: boolean;
	download: boolean;
	binaryPropertyName: string;
	timeoutSeconds: number;
	templateId?: string;
}

type ItemError = NodeApiError | NodeOperationError;

/** Wait/download settings common to create and update, read and checked for one item. */
export function readGenerationOptions(ctx: IExecuteFunctions, i: number) {
	const wait = ctx.getNodeParameter('waitForCompletion', i, true) as boolean;
	const download = wait && (ctx.getNodeParameter('download', i, false) as boolean);
	const binaryPropertyName = download ? String(ctx.getNodeParameter('binaryPropertyName', i, 'data')).trim() : 'data';
	if (download && binaryPropertyName === '') {
		throw new NodeOperationError(ctx.getNode(), `The output binary field name is empty (item ${i})`, {
			description: 'Enter a field name such as "data" in "Put Output File in Field"',
			itemIndex: i,
		});
	}
	const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
	const timeoutSeconds = parsePositiveInteger(
		options.waitTimeout ?? 300,
		'wait timeout',
		'Set Options → Wait Timeout to a number of seconds, e.g. 300',
	);
	return { wait, download, binaryPropertyName, timeoutSeconds };
}

export async function runGenerations(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	prepare: (itemIndex: number) => GenerationRequest,
): Promise<INodeExecutionData[]> {
	const errors = new Map<number, ItemError>();
	const fail = (i: number, error: unknown) => errors.set(i, asItemError(ctx, error, i));
	const firstError = () => {
		if (ctx.continueOnFail() || errors.size === 0) return;
		throw errors.get(Math.min(...errors.keys()));
	};

	// 1. Check every item before anything is sent.
	const requests = new Map<number, GenerationRequest>();
	for (let i = 0; i < items.length; i++) {
		try {
			requests.set(i, prepare(i));
		} catch (error) {
			fail(i, error);
		}
	}
	firstError();

	// 2. Send the writes, a few at a time.
	const documents = new Map<number, IDataObject>();
	const startedAt = Date.now();
	await mapConcurrent([...requests], CONCURRENCY, async ([i, request]) => {
		try {
			documents.set(i, await request.send());
		} catch (error) {
			fail(i, error);
		}
	});
	firstError();

	// 3. Wait for every started generation together.
	const targets: WaitTarget[] = [];
	for (const [i, document] of documents) {
		const request = requests.get(i)!;
		if (!request.wait || !request.generates) continue;
		targets.push({
			itemIndex: i,
			id: String(document.id),
			updatedAt: document.updated_at,
			templateId: (document.document_template_id as string | undefined) ?? request.templateId,
			deadline: startedAt + request.timeoutSeconds * 1000,
			timeoutSeconds: request.timeoutSeconds,
		});
	}
	const finished = new Map<number, IDataObject>();
	if (targets.length) {
		for (const [i, result] of await waitForDocuments(ctx, targets)) {
			if ('card' in result) finished.set(i, result.card);
			else fail(i, result.error);
		}
	}
	firstError();

	// 4. Download the files of the successful ones.
	const binaries = new Map<number, INodeExecutionData['binary']>();
	const downloads = [...finished].filter(([i]) => requests.get(i)!.download);
	await mapConcurrent(downloads, CONCURRENCY, async ([i, card]) => {
		try {
			const data = await downloadToBinary(ctx, card, i);
			binaries.set(i, { [requests.get(i)!.binaryPropertyName]: data });
		} catch (error) {
			fail(i, error);
		}
	});
	firstError();

	// 5. Output in input order.
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		const error = errors.get(i);
		if (error) {
			out.push(errorItem(error, i));
			continue;
		}
		const json = normalizeDocument(finished.get(i) ?? documents.get(i)!);
		const item: INodeExecutionData = { json, pairedItem: { item: i } };
		const binary = binaries.get(i);
		if (binary) item.binary = binary;
		out.push(item);
	}
	return out;
}
