/**
 * The File Name and Meta fields of create and update, read and checked: the file name is kept
 * in the document's meta as `_filename`.
 */
import type { IDataObject } from 'n8n-workflow';

import { InputError, parseJsonObject } from '../../shared/helpers/parse';

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

/**
 * Meta from the meta field plus the file name (stored as `_filename`; the other meta keys
 * are kept), as one object, or undefined when both are empty.
 */
export function buildMeta(
	metaValue: unknown,
	filename: unknown,
	password?: unknown,
): IDataObject | undefined {
	const meta = { ...(parseJsonObject(metaValue, 'meta') ?? {}) };
	const name = readFilename(filename);
	if (name) meta._filename = name;
	if (typeof password === 'string' && password !== '') meta._password = password;
	return Object.keys(meta).length ? meta : undefined;
}
