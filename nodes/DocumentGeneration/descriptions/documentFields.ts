/** A document's fields beyond its payload: File Name, Meta, Image Options and Update Fields. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { templateIdLocator } from '../../shared/descriptions';
import { metaObject } from '../../shared/helpers/document';
import { parseJsonLoose } from '../../shared/helpers/json';
import {
	InputError,
	parseId,
	parseJsonObject,
	parseWriteStatus,
	preview,
} from '../../shared/helpers/parse';
import { getDocument, getDocumentCard } from '../../shared/transport';
import { type PayloadFile, withFiles } from './payload';
import { checkPayloadSize, collection } from './payloadParts';

/** The File Name field of create and update; `more` says how it meets the meta there. */
export function filenameField(more = ''): INodeProperties {
	return {
		displayName: 'File Name',
		name: 'filename',
		type: 'string',
		default: '',
		placeholder: 'e.g. invoice-2026-001.pdf',
		description: `Name of the generated file (stored as meta._filename)${more}`,
	};
}

/** The file name field, trimmed; undefined when empty. */
export function readFilename(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string' && typeof value !== 'number')
		throw new InputError(
			'The file name must be text',
			'Enter a file name such as invoice-2026-001.pdf',
		);
	const text = String(value).trim();
	return text === '' ? undefined : text;
}

/** What a document's meta is made of on create; `image` holds `readImageMeta`'s keys. */
export interface MetaFields {
	meta?: unknown;
	filename?: unknown;
	password?: unknown;
	/** The webhook channel an instant trigger filters on. */
	channel?: unknown;
	image?: IDataObject;
}

/** Meta (JSON) with `_filename`, `_password` and the Image Options over it, or undefined. */
export function buildMeta(fields: MetaFields): IDataObject | undefined {
	const meta = { ...(parseJsonObject(fields.meta, 'meta') ?? {}), ...(fields.image ?? {}) };
	const name = readFilename(fields.filename);
	if (name) meta._filename = name;
	if (typeof fields.password === 'string' && fields.password !== '')
		meta._password = fields.password;
	const channel = typeof fields.channel === 'string' ? fields.channel.trim() : '';
	if (channel !== '') meta._webhook_channel = channel;
	checkImageMeta(meta);
	return Object.keys(meta).length ? meta : undefined;
}

export const MAX_IMAGE_SIDE = 10_000;

export const IMAGE_FORMATS = ['webp', 'png', 'jpg'] as const;

/** The Width or Height option (meta._width, meta._height). */
const sideOption = (side: 'width' | 'height', pixels: number): INodeProperties => ({
	displayName: `${side === 'width' ? 'Width' : 'Height'} (Pixels)`,
	name: side,
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_IMAGE_SIDE },
	default: pixels,
	description: `The image's ${side} (meta._${side}); the template's own setting when not added`,
});

export const imageOptions: INodeProperties = collection(
	'Image Options',
	'imageOptions',
	'Add Image Option',
	[
		{
			displayName: 'Format',
			name: 'format',
			type: 'options',
			options: [
				{ name: 'WebP', value: 'webp', description: "The service's default" },
				{ name: 'PNG', value: 'png' },
				{ name: 'JPG', value: 'jpg' },
			],
			default: 'webp',
			description: 'The image format (meta._type)',
		},
		sideOption('width', 1200),
		sideOption('height', 630),
		{
			displayName: 'Quality',
			name: 'quality',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 100 },
			default: 100,
			description: 'WebP only: from 1 (smallest file) to 100 (best, the default) (meta._quality)',
		},
	],
	'For image templates only (a PDF template ignores them): the format and size of the image. Set here, an option wins over the same key (_type, _width, _height, _quality) in Meta (JSON).',
);

/** A whole number within `min`…`max`, named by its option when it is not one. */
function wholeNumber(value: unknown, option: string, min: number, max: number): number {
	const number = typeof value === 'string' && /^\s*\d{1,6}\s*$/.test(value) ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max)
		throw new InputError(
			`Image Options → ${option} must be a whole number from ${min} to ${max}, not ${preview(value)}`,
			`Set Image Options → ${option} to a number such as ${option === 'Quality' ? 80 : 1200}, or remove it to keep the template's setting`,
		);
	return number;
}

function imageFormat(value: unknown): string {
	const format = typeof value === 'string' ? value.trim().toLowerCase() : value;
	if (typeof format === 'string' && (IMAGE_FORMATS as readonly string[]).includes(format))
		return format;
	throw new InputError(
		`Image Options → Format must be webp, png or jpg, not ${preview(value)}`,
		'Pick WebP, PNG or JPG under Image Options → Format',
	);
}

/** The meta keys of the Image Options given (none: an empty object). */
export function readImageMeta(value: unknown): IDataObject {
	const options = (value && typeof value === 'object' ? value : {}) as IDataObject;
	const meta: IDataObject = {};
	if (options.format !== undefined) meta._type = imageFormat(options.format);
	if (options.width !== undefined)
		meta._width = wholeNumber(options.width, 'Width (Pixels)', 1, MAX_IMAGE_SIDE);
	if (options.height !== undefined)
		meta._height = wholeNumber(options.height, 'Height (Pixels)', 1, MAX_IMAGE_SIDE);
	if (options.quality !== undefined)
		meta._quality = wholeNumber(options.quality, 'Quality', 1, 100);
	return meta;
}

/** Refuses a Quality set for a format other than WebP, the only one it applies to. */
export function checkImageMeta(meta: IDataObject | undefined): void {
	const format = meta?._type;
	if (meta?._quality === undefined || format === undefined || format === 'webp') return;
	throw new InputError(
		`Image Options → Quality applies to WebP only, but the format is ${String(format).toUpperCase()}`,
		'Remove Image Options → Quality, or set Image Options → Format to WebP (a _type in Meta (JSON) counts too)',
	);
}

export const updateFields: INodeProperties = collection(
	'Update Fields',
	'updateFields',
	'Add Field',
	[
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
	'Only the fields added here are sent; everything else stays as it is',
);

/** The changes of one item: the fields to send, and what to merge into the document's own. */
export interface Changes {
	fields: IDataObject;
	/** File Name and Image Options given without Meta: merged into the current meta. */
	metaAdditions?: IDataObject;
	/** Files given without Payload: put into the stored payload. */
	files?: PayloadFile[];
}

function readTemplateChange(update: IDataObject): string | undefined {
	if (update.templateId === undefined || update.templateId === '') return undefined;
	const locator = update.templateId as IDataObject | string;
	const value = typeof locator === 'object' && locator !== null ? locator.value : locator;
	return value !== '' && value !== undefined ? parseId(value, 'template') : undefined;
}

/** Meta given replaces the meta ({} clears it); File Name and Image Options alone are merged. */
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
	if (!Object.keys(fields).length && !changes.metaAdditions && !changes.files)
		throw new InputError(
			'There is nothing to update',
			'Add at least one field under Update Fields (Payload, Meta, File Name, Status or Template), an Image Option or a file under Files Into Payload',
		);
	return changes;
}

/** Puts files given without Payload into the stored payload, and meta keys alone into its meta. */
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
	if (!stored || typeof stored !== 'object' || Array.isArray(stored))
		throw new InputError(
			`The stored payload of document ${id} is not one JSON object, so the files cannot be added to it`,
			'Give the whole payload under Update Fields → Payload (JSON) together with the files',
		);
	fields.payload = withFiles(stored as IDataObject, files);
	checkPayloadSize(fields.payload as IDataObject);
	if (metaAdditions) fields.meta = { ...metaObject(current.meta), ...metaAdditions };
}

/** Merges the meta keys given alone into the current meta; a PDF password there stays. */
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
