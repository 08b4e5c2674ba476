/**
 * What create and update put into a payload beyond the data itself (a group's line items, an
 * input file as a data URI) and how large a payload may grow. The service publishes no size
 * limit; these bounds keep one request, and n8n's memory, to a size a document needs. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import { InputError } from '../../shared/helpers/parse';
import { namePath, setOwn } from '../templateFields/payload';

const MB = 1024 * 1024;

/** The bounds of what goes into one payload. */
export const PAYLOAD_BOUNDS = {
	/** One input file, before it is encoded (base64 makes it a third larger). */
	fileBytes: 5 * MB,
	/** The whole payload as JSON text, files and lines included. */
	payloadBytes: 20 * MB,
	/** Line items of one document. */
	lines: 10_000,
	/** Input files read into payloads by one node run, before any is sent (n8n's memory). */
	runFileBytes: 256 * MB,
};

/** A size in bytes for a message: `5.2 MB`, `812 KB`, `40 bytes`. */
export function sizeText(bytes: number): string {
	if (bytes >= MB) return `${(bytes / MB).toFixed(1)} MB`;
	if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
	return `${bytes} bytes`;
}

/** The refusal of a path that goes through a value (text, a number, a list, null). */
function notAnObject(parts: string[], depth: number, what: string): InputError {
	const sofar = parts.slice(0, depth + 1).join('.');
	return new InputError(
		`The ${what} goes under "${sofar}", but the payload has a value there, not an object`,
		`Choose a path whose parts are objects or new names, e.g. "${parts[depth]}_${parts[depth + 1]}" at the top level`,
	);
}

/**
 * A copy of `payload` with `value` at the dotted `path` (`company.logo`), the objects on the
 * way copied or made; the payload given is never changed (it may be the input item's own
 * data). Whatever stood at the path is replaced; a value on the way that is not an object is
 * refused, naming `what`.
 */
export function withValueAt(
	payload: IDataObject,
	path: string,
	value: unknown,
	what: string,
): IDataObject {
	const parts = namePath(path.trim(), what);
	const root: IDataObject = { ...payload };
	let target = root;
	parts.forEach((part, depth) => {
		if (depth === parts.length - 1) return setOwn(target, part, value);
		const existing = Object.prototype.hasOwnProperty.call(target, part) ? target[part] : undefined;
		const isObject = existing !== null && typeof existing === 'object' && !Array.isArray(existing);
		if (existing !== undefined && !isObject) throw notAnObject(parts, depth, what);
		const child: IDataObject = { ...((existing as IDataObject | undefined) ?? {}) };
		setOwn(target, part, child);
		target = child;
	});
	return root;
}

/** Refuses a payload larger than the bound as JSON text, saying what made it large. */
export function checkPayloadSize(payload: IDataObject): void {
	const bytes = Buffer.byteLength(JSON.stringify(payload), 'utf8');
	if (bytes <= PAYLOAD_BOUNDS.payloadBytes) return;
	throw new InputError(
		`The payload is ${sizeText(bytes)}, more than the ${sizeText(PAYLOAD_BOUNDS.payloadBytes)} one document accepts`,
		'Send less data: smaller or fewer files (resize images before this node), fewer line items per document (group by a finer key), or links to large files instead of the files',
	);
}
