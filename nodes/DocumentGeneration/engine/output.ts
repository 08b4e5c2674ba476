/**
 * Stage 5 of the engine: one output item per input item, in input order, paired with it,
 * read from the run's records; a failed item names its document, a follower outputs its
 * leader's document.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { normalizeDocument } from '../../shared/helpers/document';
import { asNodeError, errorItem } from '../../shared/helpers/items';
import type { ItemRecord, Run } from './record';

/** One record's output item; `origins`: whether items say where their document came from. */
function itemOf(
	ctx: IExecuteFunctions,
	run: Run,
	record: ItemRecord,
	origins: boolean,
): INodeExecutionData {
	const i = record.index;
	const source = run.records[record.follows ?? i];
	const error = record.error ?? source.error;
	if (error) {
		const own = source === record ? error : asNodeError(ctx, error, i);
		const keys = ctx.getNode().onError !== 'continueErrorOutput';
		return errorItem(own, i, source.made, keys);
	}
	const { document, origin } = source.sent!;
	const json = normalizeDocument(source.finished ?? document);
	if (origins) json.origin = source === record ? origin : 'reused';
	const item: INodeExecutionData = { json, pairedItem: { item: i } };
	if (source.binary) item.binary = source.binary;
	return item;
}

/** Stage 5: every record's output item, in input order. */
export function output(ctx: IExecuteFunctions, run: Run, origins: boolean): INodeExecutionData[] {
	return run.records.map((record) => itemOf(ctx, run, record, origins));
}
