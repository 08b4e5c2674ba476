/**
 * Stage 5 of the engine: one output item per document (per input item, or per group of
 * items), in input order, paired with its items,
 * read from the run's records; a failed item names its document, a follower outputs its
 * leader's document.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { normalizeDocument } from '../../shared/helpers/document';
import { errorItem } from '../../shared/helpers/items';
import type { ItemRecord, Run } from './record';

/** The input items an output item pairs with: its item, or every item of its group. */
function pairing(record: ItemRecord): INodeExecutionData['pairedItem'] {
	return record.members.length === 1
		? { item: record.index }
		: record.members.map((item) => ({ item }));
}

/** One record's output item; `origins`: whether items say where their document came from. */
function itemOf(
	ctx: IExecuteFunctions,
	run: Run,
	record: ItemRecord,
	origins: boolean,
): INodeExecutionData {
	const i = record.index;
	const source = run.record(record.follows ?? i);
	const error = record.error ?? source.error;
	if (error) {
		// A follower's item carries its leader's error (made a node error with an item by
		// Run.fail), under its own item.
		const keys = ctx.getNode().onError !== 'continueErrorOutput';
		return { ...errorItem(error, i, source.made, keys), pairedItem: pairing(record) };
	}
	const { document, origin } = source.sent!;
	const json = normalizeDocument(source.finished ?? document);
	if (origins) json.origin = source === record ? origin : 'reused';
	const item: INodeExecutionData = { json, pairedItem: pairing(record) };
	if (source.binary) item.binary = source.binary;
	return item;
}

/** Stage 5: every record's output item, in input order. */
export function output(ctx: IExecuteFunctions, run: Run, origins: boolean): INodeExecutionData[] {
	return run.records.map((record) => itemOf(ctx, run, record, origins));
}
