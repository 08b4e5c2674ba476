/** Building blocks: collections, name/value rows, values at dotted paths, size bounds (our own). */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { MAX_JSON_DEPTH } from '../../shared/helpers/json';
import { InputError, checkDepth, preview } from '../../shared/helpers/parse';

const MB = 1024 * 1024;

export const PAYLOAD_BOUNDS = {
	/** One input file, before it is encoded (base64 makes it a third larger). */
	fileBytes: 5 * MB,
	/** The whole payload as JSON text, files and lines included. */
	payloadBytes: 20 * MB,
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

function notAnObject(parts: string[], depth: number, what: string): InputError {
	const sofar = parts.slice(0, depth + 1).join('.');
	return new InputError(
		`The ${what} goes under "${sofar}", but the payload has a value there, not an object`,
		`Choose a path whose parts are objects or new names, e.g. "${parts[depth]}_${parts[depth + 1]}" at the top level`,
	);
}

/** A copy of `payload` with `value` at the dotted `path`, objects on the way copied or made. */
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

export function checkPayloadSize(payload: IDataObject): void {
	const bytes = Buffer.byteLength(JSON.stringify(payload), 'utf8');
	if (bytes <= PAYLOAD_BOUNDS.payloadBytes) return;
	throw new InputError(
		`The payload is ${sizeText(bytes)}, more than the ${sizeText(PAYLOAD_BOUNDS.payloadBytes)} one document accepts`,
		'Send less data: smaller or fewer files (resize images before this node), fewer line items per document (group by a finer key), or links to large files instead of the files',
	);
}

/** A collection parameter: optional fields the user adds one by one. */
export function collection(
	displayName: string,
	name: string,
	placeholder: string,
	options: INodeProperties[],
	description?: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'collection',
		placeholder,
		default: {},
		...(description === undefined ? {} : { description }),
		options,
	};
}

/** A list of name/value rows (dots in a name make nested objects), as n8n's fixedCollection. */
export function nameValueRows(spec: {
	displayName: string;
	name: string;
	placeholder: string;
	description: string;
	hint?: string;
	show: Record<string, string[]>;
	examples: { key: string; value: string };
}): INodeProperties {
	return {
		displayName: spec.displayName,
		name: spec.name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: spec.placeholder,
		default: {},
		description: spec.description,
		...(spec.hint ? { hint: spec.hint } : {}),
		displayOptions: { show: spec.show },
		options: [
			{
				displayName: 'Field',
				name: 'values',
				values: [
					{
						displayName: 'Name',
						name: 'key',
						type: 'string',
						default: '',
						placeholder: spec.examples.key,
						description: 'The variable name the template uses; dots make nested objects',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: spec.examples.value,
						description: 'The value; an expression may give a number, a list or an object',
					},
				],
			},
		],
	};
}

/** An own, enumerable key, whatever its name (`__proto__` included), never a prototype change. */
export function setOwn(target: IDataObject, key: string, value: unknown): void {
	Object.defineProperty(target, key, {
		value,
		enumerable: true,
		writable: true,
		configurable: true,
	});
}

/** A row's dotted name as its parts, checked: at most `MAX_JSON_DEPTH` of them, none empty. */
export function namePath(key: string, where: string): string[] {
	const path = key.split('.', MAX_JSON_DEPTH + 1).map((part) => part.trim());
	if (path.length > MAX_JSON_DEPTH)
		throw new InputError(
			`The payload ${where} has more than ${MAX_JSON_DEPTH} levels in its name`,
			`Use names of at most ${MAX_JSON_DEPTH} levels, such as customer.address.city`,
		);
	if (path.some((part) => part === ''))
		throw new InputError(
			`The payload ${where} has an empty part in its name`,
			'Write names such as customer.name: dots separate the levels, with a name between them',
		);
	return path;
}

interface PayloadUnderway {
	payload: IDataObject;
	/** Objects the dotted names made; anything else under a name is a value. */
	branches: WeakSet<object>;
}

/** Puts one row's value at its path, making the levels it needs; refuses a clash. */
function placeRow(built: PayloadUnderway, path: string[], value: unknown, where: string): void {
	let target = built.payload;
	path.forEach((part, depth) => {
		// Only an error needs the name so far: joined there, the loop stays linear.
		const sofar = () => path.slice(0, depth + 1).join('.');
		const existing = Object.prototype.hasOwnProperty.call(target, part) ? target[part] : undefined;
		if (depth === path.length - 1) {
			if (existing !== undefined)
				throw new InputError(
					`The payload ${where} sets "${sofar()}", which another field already sets`,
					'Give each name once; to build a list, put the whole list in one field with an expression',
				);
			setOwn(target, part, value);
		} else if (existing === undefined) {
			const child: IDataObject = {};
			built.branches.add(child);
			setOwn(target, part, child);
			target = child;
		} else if (built.branches.has(existing as object)) {
			target = existing as IDataObject;
		} else {
			// A value another row set (even an object from an expression) is not a level.
			throw new InputError(
				`The payload ${where} puts a name under "${sofar()}", which another field sets to a value`,
				`Use either "${sofar()}" or names under it such as "${sofar()}.name", not both`,
			);
		}
	});
}

/** The payload of key/value rows (dotted keys nest); a key twice, or value and object, fails. */
export function payloadFromFields(rows: unknown): IDataObject {
	const list = Array.isArray(rows) ? rows : [];
	const built: PayloadUnderway = { payload: {}, branches: new WeakSet<object>() };
	list.forEach((row, index) => {
		const entry = (row && typeof row === 'object' ? row : {}) as IDataObject;
		const key = typeof entry.key === 'string' ? entry.key.trim() : String(entry.key ?? '');
		if (key === '') return;
		const where = `field ${index + 1} ("${preview(key)}")`;
		placeRow(built, namePath(key, where), entry.value ?? '', where);
	});
	return built.payload;
}

/** A payload to create a document with: one object with at least one key. */
export function requirePayload(
	payload: IDataObject | undefined,
	mode: 'json' | 'fields' | 'templateFields',
) {
	if (payload && Object.keys(payload).length) {
		checkDepth(payload, 'payload');
		return payload;
	}
	const hints = {
		fields: 'Add the data the template needs under Payload Fields, e.g. customer.name = Ada',
		templateFields:
			'Map a value to at least one of the Template Fields (drag a field of the previous node onto it), or choose Map Automatically',
		json: 'Put the data the template needs into Payload (JSON), e.g. {"customer": "Ada", "total": 42}, or map the previous node’s data with {{ $json }}',
	};
	throw new InputError('The payload is empty, so the document would be blank', hints[mode]);
}
