import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	binaryPropertyName,
	documentIdLocator,
	maxFileSize,
	templateIdLocator,
} from '../../../shared/descriptions';
import {
	InputError,
	parseId,
	parseJsonObject,
	parseWriteStatus,
} from '../../../shared/helpers/parse';
import { getDocument, getDocumentCard, updateDocument } from '../../../shared/transport';
import { readFilename } from '../../descriptions/fileAndMeta';
import { imageOptions, readImageMeta } from '../../descriptions/imageOptions';
import { waitOptions } from '../../descriptions/options';
import type { PayloadFile } from '../../descriptions/payloadFiles';
import { payloadFiles, readFileRows, readFiles, withFiles } from '../../descriptions/payloadFiles';
import { checkPayloadSize } from '../../descriptions/payloadParts';
import { metaObject } from '../../../shared/helpers/document';
import type { GenerationRequest } from '../../engine';
import { onePerItem, readGenerationOptions, runGenerations } from '../../engine';
import { readDocumentId } from '../ids';

export const properties: INodeProperties[] = [
	{ ...documentIdLocator },
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only the fields added here are sent; everything else stays as it is',
		options: [
			{
				displayName: 'File Name',
				name: 'filename',
				type: 'string',
				default: '',
				placeholder: 'e.g. invoice-2026-001.pdf',
				description:
					'Name of the generated file (stored as meta._filename). With Meta it is merged into the new meta; alone it is added to the current meta.',
			},
			{
				displayName: 'Meta (JSON)',
				name: 'meta',
				type: 'json',
				default: '{}',
				description:
					'Replaces the meta data of the document as a whole: one JSON object, e.g. {"order_id": "A-1001"} ({} clears it)',
			},
			{
				displayName: 'Payload (JSON)',
				name: 'payload',
				type: 'json',
				default: '{}',
				description: 'Replaces the data of the document: one JSON object (never a list)',
			},
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: [
					{
						name: 'Pending (Generate Now)',
						value: 'pending',
						description: 'Generate the file (again) now',
					},
					{ name: 'Draft', value: 'draft', description: 'Keep it as a draft' },
				],
				default: 'pending',
				description: 'Set to Pending to (re)generate the file',
			},
			{
				...templateIdLocator,
				required: false,
				description: 'Use another template for this document',
			},
		],
	},
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

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['update'] } },
	properties,
);

/** The changes of one item: the fields to send, and what to merge into the document's own. */
interface Changes {
	fields: IDataObject;
	/**
	 * Meta keys (File Name, Image Options) given without Meta: merged into the document's
	 * current meta when sent.
	 */
	metaAdditions?: IDataObject;
	/** Files given without Payload: put into the document's current payload when sent. */
	files?: PayloadFile[];
}

/** The template of Update Fields, when one is given. */
function readTemplateChange(update: IDataObject): string | undefined {
	if (update.templateId === undefined || update.templateId === '') return undefined;
	const locator = update.templateId as IDataObject | string;
	const value = typeof locator === 'object' && locator !== null ? locator.value : locator;
	return value !== '' && value !== undefined ? parseId(value, 'template') : undefined;
}

/**
 * The meta of Update Fields. The service replaces meta as a whole. Meta given here replaces
 * it (the file name and image options merged in; an explicit {} clears it); a blank Meta
 * counts as not given, so an empty expression never wipes it. Added alone, the file name and
 * image options are merged into the current meta.
 */
function readMetaChange(changes: Changes, update: IDataObject, image: IDataObject): void {
	const filename = readFilename(update.filename);
	const additions: IDataObject = { ...image, ...(filename ? { _filename: filename } : {}) };
	const givenMeta = 'meta' in update ? parseJsonObject(update.meta, 'meta') : undefined;
	if (givenMeta) changes.fields.meta = { ...givenMeta, ...additions };
	else if (Object.keys(additions).length) changes.metaAdditions = additions;
}

/** Update Fields, Image Options and files of one item, read and checked; never empty. */
function readChanges(update: IDataObject, image: IDataObject, files: PayloadFile[]): Changes {
	const changes: Changes = { fields: {} };
	const fields = changes.fields;
	const templateId = readTemplateChange(update);
	if (templateId !== undefined) fields.document_template_id = templateId;
	const payload = 'payload' in update ? parseJsonObject(update.payload, 'payload') : undefined;
	if (payload) {
		fields.payload = withFiles(payload, files);
		checkPayloadSize(fields.payload as IDataObject);
	} else if (files.length) changes.files = files;
	readMetaChange(changes, update, image);
	if ('status' in update) fields.status = parseWriteStatus(update.status);
	if (!Object.keys(fields).length && !changes.metaAdditions && !changes.files) {
		throw new InputError(
			'There is nothing to update',
			'Add at least one field under Update Fields (Payload, Meta, File Name, Status or Template), an Image Option or a file under Files Into Payload',
		);
	}
	return changes;
}

/**
 * What the document has now, merged with what was given alone: meta keys into its meta (the
 * PDF password stays: it goes back to the service only, outputs never show it, so the next
 * generation is encrypted too), files into its payload.
 */
async function mergeIntoCurrent(
	ctx: IExecuteFunctions,
	id: string,
	changes: Changes,
	itemIndex: number,
): Promise<void> {
	const { fields, metaAdditions, files } = changes;
	if (files) {
		const current = await getDocument(ctx, id, { itemIndex });
		const payload = parseJsonObject(current.payload ?? '{}', 'current payload') ?? {};
		fields.payload = withFiles(payload, files);
		checkPayloadSize(fields.payload as IDataObject);
		if (metaAdditions) fields.meta = { ...metaObject(current.meta), ...metaAdditions };
	} else if (metaAdditions) {
		const card = await getDocumentCard(ctx, id, { itemIndex });
		fields.meta = { ...metaObject(card.meta), ...metaAdditions };
	}
}

/** One item's update request, read and checked (its files read): nothing is sent. */
async function prepareUpdate(ctx: IExecuteFunctions, i: number): Promise<GenerationRequest> {
	const id = readDocumentId(ctx, i);
	const update = ctx.getNodeParameter('updateFields', i, {}) as IDataObject;
	const image = readImageMeta(ctx.getNodeParameter('imageOptions', i, {}));
	const rows = readFileRows(ctx.getNodeParameter('payloadFiles', i, {}));
	const changes = readChanges(update, image, await readFiles(ctx, i, rows));
	const generation = readGenerationOptions(ctx, i);
	return {
		send: async () => {
			await mergeIntoCurrent(ctx, id, changes, i);
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
	return await runGenerations(
		this,
		onePerItem(items.length),
		async (i) => await prepareUpdate(this, i),
	);
}
