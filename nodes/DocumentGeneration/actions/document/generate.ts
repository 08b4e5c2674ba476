/**
 * The create/update pipeline for many items: check every item first (nothing is sent when
 * one is malformed), send the writes a few at a time, wait for every started generation
 * together, fetch each file as soon as its document is ready, and output one item per input
 * item in input order, paired with it.
 */
import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { isFinished, normalizeDocument } from '../../../shared/helpers/document';
import type { DocumentRef, ItemError } from '../../../shared/helpers/items';
import {
	CONCURRENCY,
	asNodeError,
	createLimiter,
	errorItem,
	mapConcurrent,
} from '../../../shared/helpers/items';
import { parseBinaryPropertyName, parsePositiveInteger } from '../../../shared/helpers/parse';
import { downloadToBinary } from '../../../shared/download';
import { heldByLimit, limitRequestsTo } from '../../../shared/transport';
import { isQuotaFailure, isQuotaSpent, nameDocuments, quotaNotSent, reportBatch } from './batch';
import { SYNC_MAX_ITEMS } from './sync';
import type { WaitTarget } from './wait';
import { waitForDocuments } from './wait';

/** The Options collection of create and update (how long to wait). */
export const waitOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Max Wait for Rate Limit (Seconds)',
			name: 'maxRateLimitWait',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 120,
			description:
				"The longest single wait for the service's request limit (429) the batch accepts. Every request of the run waits as long as the service asks, up to this; an item fails only when the service asks for more.",
		},
		{
			displayName: 'Wait Timeout (Seconds)',
			name: 'waitTimeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 300,
			description:
				"How long to wait for each document's generation before its item fails. Time held by the service's request limit does not count.",
		},
	],
};

export interface GenerationOptions {
	wait: boolean;
	download: boolean;
	binaryPropertyName: string;
	timeoutSeconds: number;
	/** The longest single wait for the request limit (429) the run accepts. */
	maxLimitWaitSeconds: number;
}

export interface GenerationRequest extends GenerationOptions {
	/** Sends the write for this item and returns the API document. */
	send: () => Promise<IDataObject>;
	/**
	 * Sends the write so that the service answers once the file is ready (one round trip);
	 * used instead of `send` when the node runs for a single item and waits.
	 */
	sendSync?: () => Promise<IDataObject>;
	/** Whether the write starts a generation (status pending). */
	generates: boolean;
	templateId?: string;
}

export const NO_WAIT: GenerationOptions = {
	wait: false,
	download: false,
	binaryPropertyName: 'data',
	timeoutSeconds: 300,
	maxLimitWaitSeconds: 120,
};

/** Wait/download settings common to create and update, read and checked for one item. */
export function readGenerationOptions(ctx: IExecuteFunctions, i: number): GenerationOptions {
	const wait = ctx.getNodeParameter('waitForCompletion', i, true) as boolean;
	const download = wait && (ctx.getNodeParameter('download', i, false) as boolean);
	const binaryPropertyName = download
		? parseBinaryPropertyName(ctx.getNodeParameter('binaryPropertyName', i, 'data'))
		: 'data';
	const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
	const timeoutSeconds = wait
		? parsePositiveInteger(
				options.waitTimeout ?? 300,
				'wait timeout',
				'Set Options → Wait Timeout to a number of seconds, e.g. 300',
			)
		: 300;
	const maxLimitWaitSeconds = parsePositiveInteger(
		options.maxRateLimitWait ?? 120,
		'max wait for rate limit',
		'Set Options → Max Wait for Rate Limit to a number of seconds, e.g. 120',
	);
	return {
		wait: !!wait,
		download: !!download,
		binaryPropertyName,
		timeoutSeconds,
		maxLimitWaitSeconds,
	};
}

export async function runGenerations(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	prepare: (itemIndex: number) => GenerationRequest,
): Promise<INodeExecutionData[]> {
	const continueOnFail = ctx.continueOnFail();
	const errors = new Map<number, ItemError>();
	/** The document each item wrote to, with the last status seen: named in its error item. */
	const made = new Map<number, DocumentRef>();
	// Without continueOnFail the first failure ends the run: nothing new is started after it.
	const stop = new AbortController();
	const fail = (i: number, error: unknown) => {
		if (!errors.has(i)) errors.set(i, asNodeError(ctx, error, i));
		if (!continueOnFail) stop.abort();
	};
	const throwFirstError = () => {
		if (continueOnFail || errors.size === 0) return;
		const first = Math.min(...errors.keys());
		throw nameDocuments(errors.get(first)!, first, made);
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
	throwFirstError();
	const first = requests.values().next().value as GenerationRequest | undefined;
	limitRequestsTo(ctx, {
		maxWaitMs: (first?.maxLimitWaitSeconds ?? NO_WAIT.maxLimitWaitSeconds) * 1000,
		option: 'Options → Max Wait for Rate Limit',
	});

	// 2. Send the writes, a few at a time; a single waited-for item in one round trip. Once
	// the service says the account's quota is spent, the writes not sent yet are not sent.
	const documents = new Map<number, IDataObject>();
	const answered = new Map<number, { at: number; held: number }>();
	let quota: ItemError | undefined;
	let notSent = 0;
	let quotaFailures = 0;
	const sync = requests.size <= SYNC_MAX_ITEMS;
	await mapConcurrent([...requests], CONCURRENCY, async ([i, request]) => {
		if (stop.signal.aborted) return;
		if (quota && request.generates) {
			notSent++;
			return fail(i, quotaNotSent(ctx, quota, i));
		}
		try {
			const viaSync = sync && request.sendSync && request.wait && request.generates;
			const document = viaSync ? await request.sendSync!() : await request.send();
			documents.set(i, document);
			answered.set(i, { at: Date.now(), held: heldByLimit(ctx) });
			made.set(i, { id: String(document.id), status: String(document.status) });
		} catch (error) {
			if (isQuotaSpent(error)) quota ??= asNodeError(ctx, error, i);
			fail(i, error);
		}
	});
	throwFirstError();

	// 3. Wait for every started generation together; fetch each file as soon as it is ready.
	const finished = new Map<number, IDataObject>();
	const binaries = new Map<number, IBinaryKeyData>();
	const queueTimes: number[] = [];
	const downloads: Array<Promise<void>> = [];
	const limit = createLimiter(CONCURRENCY);
	const targets: WaitTarget[] = [];
	for (const [i, document] of documents) {
		const request = requests.get(i)!;
		if (!request.wait || !request.generates) continue;
		const at = answered.get(i)!;
		targets.push({
			itemIndex: i,
			id: String(document.id),
			updatedAt: document.updated_at,
			templateId: (document.document_template_id as string | undefined) ?? request.templateId,
			startedAt: at.at,
			heldAtStart: at.held,
			timeoutSeconds: request.timeoutSeconds,
			// A sync create may answer with the finished card: no poll is needed then.
			known: isFinished(document.status) ? { card: document, fetchedAt: at.at } : undefined,
		});
	}
	if (targets.length) {
		await waitForDocuments(ctx, targets, {
			stop: stop.signal,
			onResult: (target, result) => {
				const i = target.itemIndex;
				if ('error' in result) {
					made.set(i, { id: target.id, status: result.status });
					if (isQuotaFailure(result.error)) quotaFailures++;
					return fail(i, result.error);
				}
				made.set(i, { id: target.id, status: String(result.card.status) });
				finished.set(i, result.card);
				queueTimes.push(result.queuedMs);
				const request = requests.get(i)!;
				if (!request.download) return;
				downloads.push(
					limit(async () => {
						if (stop.signal.aborted) return;
						try {
							const data = await downloadToBinary(ctx, result.card, i, {
								fetchedAt: result.fetchedAt,
							});
							binaries.set(i, { [request.binaryPropertyName]: data });
						} catch (error) {
							fail(i, error);
						}
					}),
				);
			},
		});
	}
	await Promise.all(downloads);
	reportBatch(ctx, {
		items: requests.size,
		queueTimes,
		timeoutSeconds: first?.timeoutSeconds ?? NO_WAIT.timeoutSeconds,
		quota,
		notSent,
		quotaFailures,
	});
	throwFirstError();

	// 4. Output in input order; an item whose document was made names it even when it failed.
	const keys = ctx.getNode().onError !== 'continueErrorOutput';
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		const error = errors.get(i);
		if (error) {
			out.push(errorItem(error, i, made.get(i), keys));
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
