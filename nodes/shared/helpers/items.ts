/**
 * Per-item plumbing shared by the operations: refusals that name the item, `continueOnFail`
 * error items, and `pairedItem` on every output item.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { InputError } from './parse';

/** A NodeOperationError for refused input, naming the item and how to fix it. */
export function refusal(ctx: IExecuteFunctions, error: InputError, itemIndex: number): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `${error.message} (item ${itemIndex})`, {
		description: error.hint,
		itemIndex,
	});
}

/** Any error thrown while handling one item, as an n8n error bound to that item. */
export function asItemError(ctx: IExecuteFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof InputError) return refusal(ctx, error, itemIndex);
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}

/** Output items for one input item, each paired with it. */
export function paired(json: IDataObject | IDataObject[], itemIndex: number): INodeExecutionData[] {
	const list = Array.isArray(json) ? json : [json];
	return list.map((entry) => ({ json: entry, pairedItem: { item: itemIndex } }));
}

/** The error item `continueOnFail` asks for. */
export function errorItem(error: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: error.message };
	if (error.description) json.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) json.httpCode = error.httpCode;
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * Runs `handle` for every item in order. A failing item becomes an error item under
 * `continueOnFail` and stops the node otherwise.
 */
export async function forEachItem(
	ctx: IExecuteFunctions,
	items: INodeExecutionData[],
	handle: (itemIndex: number) => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		try {
			out.push(...(await handle(i)));
		} catch (error) {
			const itemError = asItemError(ctx, error, i);
			if (!ctx.continueOnFail()) throw itemError;
			out.push(errorItem(itemError, i));
		}
	}
	return out;
}

/** Runs `task` over `inputs` with at most `limit` at a time; results keep input order. */
export async function mapConcurrent<I, O>(inputs: I[], limit: number, task: (input: I, index: number) => Promise<O>): Promise<O[]> {
	const results = new Array<O>(inputs.length);
	let next = 0;
	const workers = Array.from({ length: Math.min(limit, inputs.length) }, async () => {
		while (next < inputs.length) {
			const index = next++;
			results[index] = await task(inputs[index], index);
		}
	});
	await Promise.all(workers);
	return results;
}
