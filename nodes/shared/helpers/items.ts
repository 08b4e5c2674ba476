/** Per-item plumbing: errors that name the item, error items, `pairedItem`, concurrency. */
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

type HasNode = Pick<IExecuteFunctions, 'getNode'>;

/** Any error as an n8n error: refused input with its hint and item, n8n's own bound to the item. */
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

/** Parameters read and checked by `read` where there is no item (triggers): refusals as errors. */
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
 * The error item of `continueOnFail`: `{ error, message }` (n8n 1.x's error output takes no other
 * key); a made document is named in the message, and with `keys` as `documentId` and `status`.
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
	if (made && keys) Object.assign(json, { documentId: made.id, status: made.status });
	return { json, pairedItem: { item: itemIndex } };
}

export type Operation = (
	this: IExecuteFunctions,
	items: INodeExecutionData[],
) => Promise<INodeExecutionData[]>;

/**
 * Every item checked first (`prepare`, sending nothing), then `run`, `concurrency` at a time, in
 * input order; a failure is an error item under `continueOnFail`, else it stops the node.
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

/** Runs `task` over `inputs`, at most `limit` at a time, in order; results keep input order. */
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

/** A gate that lets at most `limit` tasks run at once, for work that arrives over time. */
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

/** Where n8n keeps an item's file references in its JSON under `binaryMode: "combined"`. */
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
