/** The payload of a document to create: from field rows, and never empty. Pure. */
import type { IDataObject } from 'n8n-workflow';

import { MAX_JSON_DEPTH } from '../../shared/helpers/json';
import { InputError, checkDepth, preview } from '../../shared/helpers/parse';

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
	if (path.length > MAX_JSON_DEPTH) {
		throw new InputError(
			`The payload ${where} has more than ${MAX_JSON_DEPTH} levels in its name`,
			`Use names of at most ${MAX_JSON_DEPTH} levels, such as customer.address.city`,
		);
	}
	if (path.some((part) => part === '')) {
		throw new InputError(
			`The payload ${where} has an empty part in its name`,
			'Write names such as customer.name: dots separate the levels, with a name between them',
		);
	}
	return path;
}

/** The payload being built from the rows, and the levels its dotted names made. */
interface PayloadUnderway {
	payload: IDataObject;
	/** Objects the dotted names made; anything else under a name is a value. */
	branches: WeakSet<object>;
}

/** Puts one row's value at its path, making the levels it needs; refuses a clash with another row. */
function placeRow(built: PayloadUnderway, path: string[], value: unknown, where: string): void {
	let target = built.payload;
	path.forEach((part, depth) => {
		// Only an error needs the name so far: joined there, the loop stays linear.
		const sofar = () => path.slice(0, depth + 1).join('.');
		const existing = Object.prototype.hasOwnProperty.call(target, part) ? target[part] : undefined;
		if (depth === path.length - 1) {
			if (existing !== undefined) {
				throw new InputError(
					`The payload ${where} sets "${sofar()}", which another field already sets`,
					'Give each name once; to build a list, put the whole list in one field with an expression',
				);
			}
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

/**
 * The payload of the "Fields" mode: key/value rows, a dotted key (`customer.name`) building
 * nested objects. Rows with an empty key are skipped; a key given twice, or used both as a
 * value and as an object (`customer` and `customer.name`), is refused.
 */
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
