/** Shaping API documents into output items. Pure. */
import type { IDataObject } from 'n8n-workflow';

import { MAX_JSON_DEPTH, jsonDepth, parseJsonLoose } from './json';

/** Whether a status is final: a document in it no longer changes by itself. */
export function isFinished(status: unknown): boolean {
	return status === 'success' || status === 'failure';
}

/** A `meta` (JSON text, an object or null) parsed; empty text is null, invalid JSON stays text. */
export function parsedMeta(value: unknown): unknown {
	return (value === '' ? null : parseJsonLoose(value)) ?? null;
}

/** A document's or card's `meta` as a plain object; `{}` when it is not one. */
export function metaObject(value: unknown): IDataObject {
	const meta = parsedMeta(value);
	return meta && typeof meta === 'object' && !Array.isArray(meta) ? (meta as IDataObject) : {};
}

/**
 * The API object as output item: `meta` and `payload` parsed (a null payload is `{}`; invalid
 * JSON, or a payload deeper than MAX_JSON_DEPTH, stays text); `meta._password` removed.
 */
export function normalizeDocument(document: IDataObject): IDataObject {
	const out: IDataObject = { ...document };
	if ('meta' in out) {
		out.meta = parsedMeta(out.meta) as IDataObject | null;
		// The PDF password (meta._password) is a secret: never in an output item.
		if (out.meta && typeof out.meta === 'object' && '_password' in out.meta) {
			const rest = { ...(out.meta as IDataObject) };
			delete rest._password;
			out.meta = rest;
		}
	}
	if ('payload' in out) {
		// No payload (null, or empty text) reads as the empty object it stands for.
		if (out.payload === null || out.payload === '') out.payload = {};
		else if (typeof out.payload === 'string') {
			const payload = parseJsonLoose(out.payload);
			if (jsonDepth(payload) <= MAX_JSON_DEPTH) out.payload = payload as IDataObject;
		}
	}
	return out;
}

/** Keys that hold a secret (an API token, a password): never put into an output item. */
const SECRET_KEY = /(^|_)(auth_?)?token$|secret|password|api_?key/i;

/** A copy of an API record without its secret-like fields (at any depth). */
export function withoutSecrets<T>(value: T): T {
	if (Array.isArray(value)) return value.map((v) => withoutSecrets(v as unknown)) as T;
	if (!value || typeof value !== 'object') return value;
	const out: IDataObject = {};
	for (const [key, v] of Object.entries(value as IDataObject)) {
		if (SECRET_KEY.test(key)) continue;
		out[key] = withoutSecrets(v);
	}
	return out as T;
}

const MIME_TYPES: Record<string, string> = {
	pdf: 'application/pdf',
	png: 'image/png',
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	webp: 'image/webp',
};
const EXTENSIONS: Record<string, string> = {
	'application/pdf': 'pdf',
	'image/png': 'png',
	'image/jpeg': 'jpg',
	'image/webp': 'webp',
};

function knownExtension(filename: string | null | undefined): string | undefined {
	const ext = /\.([a-z0-9]+)$/i.exec(filename ?? '')?.[1]?.toLowerCase();
	return ext && MIME_TYPES[ext] ? ext : undefined;
}

/** The MIME type a Content-Type header names, when it is one of the service's outputs. */
function knownContentType(contentType: unknown): string | undefined {
	const type = String(contentType ?? '')
		.split(';')[0]
		.trim()
		.toLowerCase();
	return EXTENSIONS[type] ? type : undefined;
}

/** What the document's output type says (`pdf`, `image`, or an image format). */
function mimeOfOutputType(outputType: unknown): string {
	const type = String(outputType ?? '').toLowerCase();
	if (MIME_TYPES[type]) return MIME_TYPES[type];
	return type === 'image' ? 'image/png' : 'application/pdf';
}

/** A file's MIME type: from its extension, else the Content-Type, else the output type. */
export function mimeTypeFor(
	filename: string | null | undefined,
	outputType?: unknown,
	contentType?: unknown,
): string {
	const ext = knownExtension(filename);
	if (ext) return MIME_TYPES[ext];
	return knownContentType(contentType) ?? mimeOfOutputType(outputType);
}

/** Characters never kept in a file name: controls, and the marks that reverse its reading. */
// eslint-disable-next-line no-control-regex -- control characters are what it removes
const UNSAFE_NAME_CHARS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Half of a surrogate pair without its other half: not a character, never kept. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Longest file name kept, in UTF-16 units and in UTF-8 bytes (most file systems allow 255). */
const MAX_NAME_LENGTH = 200;
const MAX_NAME_BYTES = 255;

/** The longest start of `text` in whole code points within `units` UTF-16 units and `bytes`. */
function headOf(text: string, units: number, bytes: number): string {
	let [length, size] = [0, 0];
	for (const char of text) {
		size += Buffer.byteLength(char);
		if (length + char.length > units || size > bytes) break;
		length += char.length;
	}
	return text.slice(0, length);
}

/** A name cut to MAX_NAME_LENGTH units and MAX_NAME_BYTES bytes when longer, extension kept. */
function cutName(name: string): string {
	if (headOf(name, MAX_NAME_LENGTH, MAX_NAME_BYTES) === name) return name;
	const ext = /\.[a-z0-9]{1,8}$/i.exec(name)?.[0] ?? '';
	const stem = name.slice(0, name.length - ext.length);
	return headOf(stem, MAX_NAME_LENGTH - ext.length, MAX_NAME_BYTES - ext.length).trimEnd() + ext;
}

/**
 * The base name of a name the service gave: its last part after any `/` or `\`, without
 * control characters or lone surrogates, trimmed, cut between code points when long;
 * `''` for nothing usable (`..`, a trailing slash). So a name never becomes a directory.
 */
export function baseName(name: string): string {
	const clean = name.replace(UNSAFE_NAME_CHARS, '').replace(LONE_SURROGATE, '');
	const kept = cutName((clean.split(/[\\/]/).pop() ?? '').trim());
	return /^\.+$/.test(kept) ? '' : kept;
}

/**
 * A file name for the binary: the base name of the document's (or one made from its id),
 * ending in the extension of its type (added when the name has none the service produces).
 */
export function fileNameFor(document: IDataObject, contentType?: unknown): string {
	const given =
		(typeof document.filename === 'string' ? baseName(document.filename) : '') ||
		baseName(String(document.id ?? '')) ||
		'document';
	if (knownExtension(given)) return given;
	return baseName(
		`${given}.${EXTENSIONS[mimeTypeFor(undefined, document.output_type, contentType)]}`,
	);
}

/** What is left to write of a value: a value still to turn into text, or text made already. */
type Pending = { value: unknown } | { text: string };

/** The parts of an object or list in the order they are written, sorted keys for an object. */
function partsOf(value: object): Pending[] {
	if (Array.isArray(value)) {
		const parts: Pending[] = [{ text: '[' }];
		value.forEach((item: unknown, index) => {
			if (index) parts.push({ text: ',' });
			parts.push({ value: item });
		});
		parts.push({ text: ']' });
		return parts;
	}
	const parts: Pending[] = [{ text: '{' }];
	Object.keys(value)
		.sort()
		.forEach((key, index) => {
			parts.push({ text: `${index ? ',' : ''}${JSON.stringify(key)}:` });
			parts.push({ value: (value as IDataObject)[key] });
		});
	parts.push({ text: '}' });
	return parts;
}

/** JSON text with object keys sorted (equal data, equal text), walked with a stack: any depth. */
export function canonical(value: unknown): string {
	const out: string[] = [];
	const stack: Pending[] = [{ value }];
	while (stack.length) {
		const next = stack.pop()!;
		if ('text' in next) out.push(next.text);
		else if (next.value && typeof next.value === 'object') {
			const parts = partsOf(next.value);
			for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]);
		} else out.push(JSON.stringify(next.value) ?? 'null');
	}
	return out.join('');
}

/** Whether two JSON values hold the same data, whatever the order of their keys. */
export function sameJson(a: unknown, b: unknown): boolean {
	return canonical(a) === canonical(b);
}
