/**
 * The File Name and Meta fields of create and update, read and checked: the file name is kept
 * in the document's meta as `_filename`.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { InputError, parseJsonObject } from '../../shared/helpers/parse';
import { checkImageMeta } from './imageOptions';

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
	if (typeof value !== 'string' && typeof value !== 'number') {
		throw new InputError(
			'The file name must be text',
			'Enter a file name such as invoice-2026-001.pdf',
		);
	}
	const text = String(value).trim();
	return text === '' ? undefined : text;
}

/** What a document's meta is made of on create. */
export interface MetaFields {
	/** Meta (JSON): one object, or a string of one. */
	meta?: unknown;
	filename?: unknown;
	password?: unknown;
	/** The Image Options' meta keys (`readImageMeta`). */
	image?: IDataObject;
}

/**
 * Meta from the meta field plus the file name (stored as `_filename`), the PDF password
 * (`_password`) and the Image Options (`_type`, `_width`, `_height`, `_quality`), as one
 * object, or undefined when all are empty. Each dedicated setting wins over the same key in
 * the meta field; the other meta keys are kept.
 */
export function buildMeta(fields: MetaFields): IDataObject | undefined {
	const meta = { ...(parseJsonObject(fields.meta, 'meta') ?? {}), ...(fields.image ?? {}) };
	const name = readFilename(fields.filename);
	if (name) meta._filename = name;
	if (typeof fields.password === 'string' && fields.password !== '')
		meta._password = fields.password;
	checkImageMeta(meta);
	return Object.keys(meta).length ? meta : undefined;
}
