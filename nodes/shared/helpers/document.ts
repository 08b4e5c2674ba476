/** Shaping API documents into output items. Pure. */
import type { IDataObject } from 'n8n-workflow';

import { parseJsonLoose } from './parse';

/** Whether a status is final: a document in it no longer changes by itself. */
export function isFinished(status: unknown): boolean {
	return status === 'success' || status === 'failure';
}

/**
 * The API object as output item: `meta` (a string of JSON in API answers, an object in
 * webhook bodies) parsed into an object or null, and `payload` likewise on full Documents.
 * A value that is not valid JSON is left as the string it was.
 */
export function normalizeDocument(document: IDataObject): IDataObject {
	const out: IDataObject = { ...document };
	if ('meta' in out) {
		const meta = out.meta === '' ? null : parseJsonLoose(out.meta);
		out.meta = (meta ?? null) as IDataObject | null;
	}
	if ('payload' in out && typeof out.payload === 'string') {
		out.payload = parseJsonLoose(out.payload) as IDataObject;
	}
	return out;
}

const MIME_TYPES: Record<string, string> = {
	pdf: 'application/pdf',
	png: 'image/png',
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	webp: 'image/webp',
};

/** MIME type from the file name's extension (PDF when unknown). */
export function mimeTypeFor(filename: string | null | undefined, outputType?: unknown): string {
	const ext = /\.([a-z0-9]+)$/i.exec(filename ?? '')?.[1]?.toLowerCase();
	if (ext && MIME_TYPES[ext]) return MIME_TYPES[ext];
	return outputType === 'image' ? 'image/png' : 'application/pdf';
}

/** A file name for the binary: the document's, or one made from its id. */
export function fileNameFor(document: IDataObject): string {
	if (typeof document.filename === 'string' && document.filename.trim() !== '')
		return document.filename;
	return `${String(document.id ?? 'document')}.${document.output_type === 'image' ? 'png' : 'pdf'}`;
}
