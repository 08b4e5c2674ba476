/**
 * Update's fields: what an update sends (only what is given), read and checked, and what is
 * merged into the document's own meta and payload when given alone (a file name, image
 * options, files).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { templateIdLocator } from '../../shared/descriptions';
import { metaObject } from '../../shared/helpers/document';
import { parseJsonLoose } from '../../shared/helpers/json';
import { InputError, parseId, parseJsonObject, parseWriteStatus } from '../../shared/helpers/parse';
import { getDocument, getDocumentCard } from '../../shared/transport';
import { filenameField, readFilename } from './fileAndMeta';
import { checkImageMeta } from './imageOptions';
import type { PayloadFile } from './payloadFiles';
import { withFiles } from './payloadFiles';
import { checkPayloadSize } from './payloadParts';

export const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	description: 'Only the fields added here are sent; everything else stays as it is',
	options: [
		filenameField(
			'. With Meta it is merged into the new meta; alone it is added to the current meta.',
		),
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
};

/** The changes of one item: the fields to send, and what to merge into the document's own. */
export interface Changes {
	fields: IDataObject;
	/**
	 * Meta keys (File Name, Image Options) given without Meta: merged into the document's
	 * current meta (read when sent, or with the stored payload).
	 */
	metaAdditions?: IDataObject;
	/** Files given without Payload: put into the document's stored payload (read before any write). */
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
	if (givenMeta) {
		changes.fields.meta = { ...givenMeta, ...additions };
		checkImageMeta(changes.fields.meta as IDataObject);
	} else if (Object.keys(additions).length) changes.metaAdditions = additions;
}

/** Update Fields, Image Options and files of one item, read and checked; never empty. */
export function readChanges(
	update: IDataObject,
	image: IDataObject,
	files: PayloadFile[],
): Changes {
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
 * The document's stored payload with the files given without a Payload, read while the items
 * are checked (before anything is sent) and checked for size; its meta with the meta keys
 * given alone too, from the same read.
 */
export async function filesIntoCurrent(
	ctx: IExecuteFunctions,
	id: string,
	changes: Changes,
	itemIndex: number,
): Promise<void> {
	const { fields, metaAdditions, files } = changes;
	if (!files) return;
	const current = await getDocument(ctx, id, { itemIndex });
	const stored =
		current.payload === null || current.payload === '' ? {} : parseJsonLoose(current.payload);
	if (!stored || typeof stored !== 'object' || Array.isArray(stored)) {
		throw new InputError(
			`The stored payload of document ${id} is not one JSON object, so the files cannot be added to it`,
			'Give the whole payload under Update Fields → Payload (JSON) together with the files',
		);
	}
	fields.payload = withFiles(stored as IDataObject, files);
	checkPayloadSize(fields.payload as IDataObject);
	if (metaAdditions) fields.meta = { ...metaObject(current.meta), ...metaAdditions };
}

/**
 * The document's current meta with the meta keys given alone, read when sent. The PDF
 * password stays: it goes back to the service only (outputs never show it), so the next
 * generation is encrypted too.
 */
export async function metaIntoCurrent(
	ctx: IExecuteFunctions,
	id: string,
	changes: Changes,
	itemIndex: number,
): Promise<void> {
	const { fields, metaAdditions } = changes;
	if (!metaAdditions || fields.meta !== undefined) return;
	const card = await getDocumentCard(ctx, id, { itemIndex });
	fields.meta = { ...metaObject(card.meta), ...metaAdditions };
	checkImageMeta(fields.meta as IDataObject);
}
