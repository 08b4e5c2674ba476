/** Shaping API documents into output items. Pure. */
import type { IDataObject } from 'n8n-workflow';

import { parseJsonLoose } from './json';

/** Whether a status is final: a document in it no longer changes by itself. */
export function isFinished(status: unknown): boolean {
	return status === 'success' || status === 'failure';
}

/**
 * The API object as output item: `meta` (a string of JSON in API answers, an object in
 * webhook bodies) parsed into an object or null, and `payload` likewise on full Documents
 * (`null` there reads as `{}`).
 * A value that is not valid JSON is left as the string it was. The PDF password
 * (`meta._password`) is removed.
 */
export function normalizeDocument(document: IDataObject): IDataObject {
	const out: IDataObject = { ...document };
	if ('meta' in out) {
		const meta = out.meta === '' ? null : parseJsonLoose(out.meta);
		out.meta = (meta ?? null) as IDataObject | null;
		// The PDF password (meta._password) is a secret: never in an output item.
		if (out.meta && typeof out.meta === 'object' && '_password' in out.meta) {
			const rest = { ...(out.meta as IDataObject) };
			delete rest._password;
			out.meta = rest;
		}
	}
	if ('payload' in out) {
		// A document created without a payload has `null` (or, tolerated, empty text): it
		// reads as the empty object it stands for.
		if (out.payload === null || out.payload === '') out.payload = {};
		else if (typeof out.payload === 'string')
			out.payload = parseJsonLoose(out.payload) as IDataObject;
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

/**
 * MIME type of a downloaded file: from its name's extension; else from the file host's
 * Content-Type; else from the document's output type (PDF when unknown).
 */
export function mimeTypeFor(
	filename: string | null | undefined,
	outputType?: unknown,
	contentType?: unknown,
): string {
	const ext = knownExtension(filename);
	if (ext) return MIME_TYPES[ext];
	return knownContentType(contentType) ?? mimeOfOutputType(outputType);
}

/**
 * A file name for the binary: the document's (or one made from its id), ending in the
 * extension of its type (added when the name has none the service produces).
 */
export function fileNameFor(document: IDataObject, contentType?: unknown): string {
	const given =
		typeof document.filename === 'string' && document.filename.trim() !== ''
			? document.filename.trim()
			: String(document.id ?? 'document');
	if (knownExtension(given)) return given;
	return `${given}.${EXTENSIONS[mimeTypeFor(undefined, document.output_type, contentType)]}`;
}

/** JSON text of a value with object keys sorted, so equal data gives equal text. */
export function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.keys(value as IDataObject)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonical((value as IDataObject)[key])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/** Whether two JSON values hold the same data, whatever the order of their keys. */
export function sameJson(a: unknown, b: unknown): boolean {
	return canonical(a) === canonical(b);
}
