/**
 * The Unique Key of Create (Options): each document is marked in `meta` with its item's key
 * (`n8n_key`) and a digest of the data it was made with (`n8n_digest`), so that running a
 * batch again finds it (`lookUp.ts`) instead of making a second one.
 */
import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { canonical, metaObject } from '../../shared/helpers/document';
import { InputError, parsePositiveInteger, preview } from '../../shared/helpers/parse';
import type { OnKeyConflict, ReuseRequest } from './plan';

/** The meta keys this node marks a keyed document with (never `_`: the service's own). */
export const KEY_FIELD = 'n8n_key';
export const DIGEST_FIELD = 'n8n_digest';

/** The default Reuse Window (hours). */
export const DEFAULT_REUSE_HOURS = 24;

/**
 * A short digest of a write's data: template, payload and meta, less this node's marks and the
 * PDF password (never hashed into something stored). Equal data gives an equal digest
 * whatever the order of keys.
 */
export function digestOf(fields: IDataObject): string {
	const meta = { ...((fields.meta as IDataObject | undefined) ?? {}) };
	delete meta[KEY_FIELD];
	delete meta[DIGEST_FIELD];
	delete meta._password;
	const data = { template: fields.document_template_id, payload: fields.payload ?? null, meta };
	return createHash('sha256').update(canonical(data)).digest('hex').slice(0, 24);
}

/** The Unique Key of an item: text or a number, trimmed, never empty. */
export function parseUniqueKey(value: unknown): string {
	const text =
		typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
	if (text === '') {
		const what =
			value === undefined || value === null || typeof value === 'string'
				? 'is empty'
				: `must be text or a number, not ${preview(value)}`;
		throw new InputError(
			`The Unique Key ${what}`,
			'Give every item a key that names its record, e.g. {{ $json.invoice_number }}; an item without one would make a new document on every run. Remove the option to create without keys.',
		);
	}
	if (text.length > 200) {
		throw new InputError(
			`The Unique Key is ${text.length} characters long`,
			'Use a short value that names the record (200 characters at most), e.g. {{ $json.invoice_number }}',
		);
	}
	return text;
}

/** One key under one template: a key is per template. */
export const keyOf = (templateId: unknown, key: unknown) =>
	JSON.stringify([String(templateId).toLowerCase(), String(key)]);

/** The key a card is marked with (`keyOf`), or undefined for a card without a mark. */
export function markedKey(card: IDataObject): string | undefined {
	const mark = metaObject(card.meta)[KEY_FIELD];
	return mark === undefined || mark === null ? undefined : keyOf(card.document_template_id, mark);
}

/** The digest a card is marked with, when it is text. */
export function markedDigest(card: IDataObject): string | undefined {
	const digest = metaObject(card.meta)[DIGEST_FIELD];
	return typeof digest === 'string' ? digest : undefined;
}

/**
 * What the look-up needs of one create; with a Unique Key, the write's meta is marked with
 * the key and the data's digest.
 */
export function readReuse(
	ctx: IExecuteFunctions,
	i: number,
	fields: IDataObject,
	generates: boolean,
): ReuseRequest {
	const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
	const digest = digestOf(fields);
	const templateId = String(fields.document_template_id);
	const onConflict: OnKeyConflict = options.keyConflict === 'regenerate' ? 'regenerate' : 'fail';
	const windowHours = parsePositiveInteger(
		options.reuseWindow ?? DEFAULT_REUSE_HOURS,
		'reuse window',
		'Set Options → Reuse Window to a number of hours, e.g. 24',
	);
	const reuse: ReuseRequest = { templateId, digest, windowHours, onConflict, fields, generates };
	if ('uniqueKey' in options) {
		reuse.key = parseUniqueKey(options.uniqueKey);
		fields.meta = {
			...((fields.meta as IDataObject | undefined) ?? {}),
			[KEY_FIELD]: reuse.key,
			[DIGEST_FIELD]: digest,
		};
	}
	return reuse;
}
