/**
 * Per-item plumbing shared by the operations: refusals that name the item, `continueOnFail`
 * error items, `pairedItem` on every output item, bounded concurrency, and n8n's file references
 * in an item's JSON.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { InputError } from './parse';

export type ItemError = NodeApiError | NodeOperationError;

/** Requests in flight at once, per node run: the one limit every node and operation uses. */
export const CONCURRENCY = 8;

/** An item as n8n's UI counts it (the first is item 1), for messages. */
export function itemLabel(itemIndex: number): string {
	return `item ${itemIndex + 1}`;
}

/** What an error needs of any n8n context: the node. */
type HasNode = Pick<IExecuteFunctions, 'getNode'>;

/**
 * Any error as an n8n error, the one way every node turns errors into n8n's: refused input
 * becomes a NodeOperationError with its hint (naming the item as n8n's UI counts it, when
 * there is one), n8n's own errors stay as they are (bound to the item), anything else is
 * wrapped.
 */
export function asNodeError(ctx: HasNode, error: unknown, itemIndex?: number): ItemError {
	if (error instanceof InputError) {
		const where = itemIndex === undefined ? '' : ` (${itemLabel(itemIndex)})`;
		return new NodeOperationError(ctx.getNode(), `${error.message}${where}`, {
			description: error.hint,
			itemIndex,
		});
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined && error.context.itemIndex === undefined)
			error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/**
 * A node's parameters read and checked by `read`, for code that has no item to name (trigger
 * activation, polls, webhook deliveries): refused input becomes the node's error, with its hint.
 */
export function readChecked<T>(ctx: HasNode, read: () => T): T {
	try {
		return read();
	} catch (error) {
		throw asNodeError(ctx, error);
	}
}

/** Output items for one input item, each paired with it. */
export function paired(json: IDataObject | IDataObject[], itemIndex: number): INodeExecutionData[] {
	const list = Array.isArray(json) ? json : [json];
	return list.map((entry) => ({ json: entry, pairedItem: { item: itemIndex } }));
}

/** A document an item made (or wrote to), with the last status seen of it. */
export interface DocumentRef {
	id: string;
	status: string;
}

/** Words that name an item's document in its error: it exists, and how to get it. */
export function describeMade(ref: DocumentRef): string {
	const next =
		ref.status === 'failure'
			? `Generate it again with Update and status "Pending" (Document ID ${ref.id})`
			: `Fetch it with Get or Download (Document ID ${ref.id})`;
	return `Its document was made: ${ref.id} (last status: ${ref.status}). ${next} rather than running this item again without a Unique Key (Create → Options), which would make a second one.`;
}

/**
 * The error item `continueOnFail` asks for: `{ error: <what happened>, message: <how to fix
 * it> }`. n8n 1.x and 2.x both send an item of exactly these keys to the error output when the
 * node's errors go there ("Continue (using error output)"); 1.x accepts no other key beside
 * `error` and `message`. With "Continue" it stays in the main output, in input order.
 *
 * An item whose document was made names it in the message, and, with `keys` (only for
 * "Continue": the error output would not take more keys), as `documentId` and its last
 * `status` too.
 */
export function errorItem(
	error: ItemError,
	itemIndex: number,
	made?: DocumentRef,
	keys = false,
): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	const message = [error.description, made && describeMade(made)].filter(Boolean).join(' ');
	if (message) json.message = message;
	if (made && keys) {
		json.documentId = made.id;
		json.status = made.status;
	}
	return { json, pairedItem: { item: itemIndex } };
}

/** An operation as the router runs it: the node's context, all input items in, items out. */
export type Operation = (
	this: IExecuteFunctions,
	items: INodeExecutionData[],
) => Promise<INodeExecutionData[]>;

/**
 * An operation that handles the input items in two phases. First every item's input is read
 * and checked (`prepare`: sends nothing; it may read the item's files), so malformed input stops the node
 * before any request. Then `run` handles the checked items, `concurrency` at a time, and the
 * output keeps input order. Under `continueOnFail` a failing item becomes one error item;
 * otherwise the first failure stops the node (nothing new is started after it).
 */
export function perItem<P>(
	prepare: (ctx: IExecuteFunctions, itemIndex: number) => P | Promise<P>,
	run: (ctx: IExecuteFunctions, input: P, itemIndex: number) => Promise<INodeExecutionData[]>,
	concurrency = 1,
): Operation {
	return async function execute(this: IExecuteFunctions, items: INodeExecutionData[]) {
		const continueOnFail = this.continueOnFail();
		const results: Array<INodeExecutionData[] | undefined> = new Array(items.length);
		const prepared: Array<[number, P]> = [];
		for (let i = 0; i < items.length; i++) {
			try {
				prepared.push([i, await prepare(this, i)]);
			} catch (error) {
				const itemError = asNodeError(this, error, i);
				if (!continueOnFail) throw itemError;
				results[i] = [errorItem(itemError, i)];
			}
		}
		let stopped: ItemError | undefined;
		await mapConcurrent(prepared, concurrency, async ([i, input]) => {
			if (stopped) return;
			try {
				results[i] = await run(this, input, i);
			} catch (error) {
				const itemError = asNodeError(this, error, i);
				if (continueOnFail) results[i] = [errorItem(itemError, i)];
				else stopped ??= itemError;
			}
		});
		if (stopped) throw stopped;
		return results.flatMap((result) => result ?? []);
	};
}

/** Runs `task` over `inputs` with at most `limit` at a time, started in order; results keep input order. */
export async function mapConcurrent<I, O>(
	inputs: I[],
	limit: number,
	task: (input: I, index: number) => Promise<O>,
): Promise<O[]> {
	const gate = createLimiter(limit);
	return await Promise.all(
		inputs.map(async (input, index) => await gate(async () => await task(input, index))),
	);
}

/**
 * A gate that lets at most `limit` tasks run at once; tasks given to it wait their turn.
 * For work that arrives over time (downloads started as documents finish).
 */
export function createLimiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
	limit = Math.max(1, limit);
	let active = 0;
	const queue: Array<() => void> = [];
	const next = () => {
		if (active >= limit) return;
		const start = queue.shift();
		if (!start) return;
		active++;
		start();
	};
	return async <T>(task: () => Promise<T>) =>
		await new Promise<T>((resolve, reject) => {
			queue.push(() => {
				task()
					.then(resolve, reject)
					.finally(() => {
						active--;
						next();
					});
			});
			next();
		});
}

/**
 * Where n8n keeps an item's files in its JSON when the workflow's `binaryMode` is "combined"
 * (Execution Logic v2): its references, never sent to the service as the user's data.
 */
export const FILES_IN_JSON = '_files';

/** Whether the workflow keeps files in the items' JSON (n8n 1.x has no such setting). */
export function filesLiveInJson(ctx: Pick<IExecuteFunctions, 'getWorkflowSettings'>): boolean {
	if (typeof ctx.getWorkflowSettings !== 'function') return false;
	return ctx.getWorkflowSettings()?.binaryMode === 'combined';
}

/** Data from an item's JSON without n8n's file references at its top level. */
export function withoutFileReferences(data: IDataObject, filesInJson: boolean): IDataObject {
	if (!filesInJson || !Object.prototype.hasOwnProperty.call(data, FILES_IN_JSON)) return data;
	const rest = { ...data };
	delete rest[FILES_IN_JSON];
	return rest;
}
