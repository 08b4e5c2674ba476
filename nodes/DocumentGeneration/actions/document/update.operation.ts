import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { binaryPropertyName, documentIdLocator, maxFileSize } from '../../../shared/descriptions';
import { updateDocument } from '../../../shared/transport';
import {
	filesIntoCurrent,
	imageOptions,
	metaIntoCurrent,
	readChanges,
	readImageMeta,
	updateFields,
} from '../../descriptions/documentFields';
import { waitOptions } from '../../descriptions/documentOptions';
import { FileBudget, payloadFiles, readFileRows, readFiles } from '../../descriptions/payload';
import type { GenerationRequest } from '../../engine';
import { onePerItem, readGenerationOptions, runGenerations } from '../../engine';
import { readDocumentId, shownFor } from '../common';

export const properties: INodeProperties[] = [
	{ ...documentIdLocator },
	updateFields,
	{
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: true,
		description:
			'Whether to wait until the file is generated when the update sets the status to Pending. Many items are waited for together.',
	},
	{
		displayName: 'Download File',
		name: 'download',
		type: 'boolean',
		default: false,
		description:
			'Whether to put the regenerated file into the output as binary data (when the update sets status Pending)',
		displayOptions: { show: { waitForCompletion: [true] } },
	},
	binaryPropertyName({ waitForCompletion: [true], download: [true] }),
	maxFileSize({ waitForCompletion: [true], download: [true] }),
	payloadFiles,
	imageOptions,
	waitOptions,
];

export const description = shownFor('document', 'update', properties);

/** One item's update request, read and checked (its files read): nothing is written. */
async function prepareUpdate(
	ctx: IExecuteFunctions,
	i: number,
	budget: FileBudget,
): Promise<GenerationRequest> {
	const id = readDocumentId(ctx, i);
	const update = ctx.getNodeParameter('updateFields', i, {}) as IDataObject;
	const image = readImageMeta(ctx.getNodeParameter('imageOptions', i, {}));
	const rows = readFileRows(ctx.getNodeParameter('payloadFiles', i, {}));
	const changes = readChanges(update, image, await readFiles(ctx, i, rows, budget));
	const generation = readGenerationOptions(ctx, i);
	await filesIntoCurrent(ctx, id, changes, i);
	return {
		send: async () => {
			await metaIntoCurrent(ctx, id, changes, i);
			return await updateDocument(ctx, id, changes.fields, { itemIndex: i });
		},
		generates: changes.fields.status === 'pending',
		templateId: changes.fields.document_template_id as string | undefined,
		...generation,
	};
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const budget = new FileBudget();
	return await runGenerations(
		this,
		onePerItem(items.length),
		async (i) => await prepareUpdate(this, i, budget),
	);
}
