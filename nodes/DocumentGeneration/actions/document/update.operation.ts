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
import { getDocumentCard, updateDocument } from '../../../shared/transport';
import { readFilename } from '../../descriptions/fileAndMeta';
import { waitOptions } from '../../descriptions/options';
import { metaObject } from '../../../shared/helpers/document';
import { readGenerationOptions, runGenerations } from '../../engine';
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
	waitOptions,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['update'] } },
	properties,
);

/** The changes of one item: the fields to send, and a file name to merge into the current meta. */
interface Changes {
	fields: IDataObject;
	/** A file name given without Meta: merged into the document's current meta when sent. */
	filenameOnly?: string;
}

/** The template of Update Fields, when one is given. */
function readTemplateChange(update: IDataObject): string | undefined {
	if (update.templateId === undefined || update.templateId === '') return undefined;
	const locator = update.templateId as IDataObject | string;
	const value = typeof locator === 'object' && locator !== null ? locator.value : locator;
	return value !== '' && value !== undefined ? parseId(value, 'template') : undefined;
}

/** Update Fields of one item, read and checked; never empty. */
function readChanges(update: IDataObject): Changes {
	const changes: Changes = { fields: {} };
	const fields = changes.fields;
	const templateId = readTemplateChange(update);
	if (templateId !== undefined) fields.document_template_id = templateId;
	if ('payload' in update) {
		const payload = parseJsonObject(update.payload, 'payload');
		if (payload) fields.payload = payload;
	}
	const filename = readFilename(update.filename);
	// The service replaces meta as a whole. Meta given here replaces it (the file name
	// merged in; an explicit {} clears it); a blank Meta counts as not given, so an empty
	// expression never wipes it. A file name alone is merged into the current meta.
	const givenMeta = 'meta' in update ? parseJsonObject(update.meta, 'meta') : undefined;
	if (givenMeta) {
		fields.meta = filename ? { ...givenMeta, _filename: filename } : { ...givenMeta };
	} else if (filename) {
		changes.filenameOnly = filename;
	}
	if ('status' in update) fields.status = parseWriteStatus(update.status);
	if (Object.keys(fields).length === 0 && changes.filenameOnly === undefined) {
		throw new InputError(
			'There is nothing to update',
			'Add at least one field under Update Fields (Payload, Meta, File Name, Status or Template)',
		);
	}
	return changes;
}

/**
 * The document's current meta with the file name merged in. The PDF password stays: it goes
 * back to the service only (outputs never show it), so the next generation is encrypted too.
 */
async function currentMetaWith(
	ctx: IExecuteFunctions,
	id: string,
	filename: string,
	itemIndex: number,
): Promise<IDataObject> {
	const meta = metaObject((await getDocumentCard(ctx, id, { itemIndex })).meta);
	return { ...meta, _filename: filename };
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await runGenerations(this, items, (i) => {
		const id = readDocumentId(this, i);
		const update = this.getNodeParameter('updateFields', i, {}) as IDataObject;
		const { fields, filenameOnly } = readChanges(update);
		const generation = readGenerationOptions(this, i);
		return {
			send: async () => {
				if (filenameOnly !== undefined)
					fields.meta = await currentMetaWith(this, id, filenameOnly, i);
				return await updateDocument(this, id, fields, { itemIndex: i });
			},
			generates: fields.status === 'pending',
			templateId: fields.document_template_id as string | undefined,
			...generation,
		};
	});
}
