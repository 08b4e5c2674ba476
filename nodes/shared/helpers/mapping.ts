/**
 * A template's own fields, both ways: the fields Create's Template Fields lists for a template
 * (from the variables its body reads and its sample data), and the payload a run sends from
 * the values mapped onto them (nested by their dotted names, with their types). Pure.
 */
import type { FieldType, IDataObject, ResourceMapperField } from 'n8n-workflow';

import { tryParseJson } from './json';
import { checkSize, TEMPLATE_BOUNDS, tooDeep, tooManyFields } from './bounds';
import { variablesOf, type LiquidVariable } from './liquid';
import { InputError, preview } from './parse';
import { payloadFromFields } from './payload';

/** What the field list shows of one field, and what a run needs of it. */
export interface TemplateField {
	path: string;
	type: FieldType;
	/** Printed by the template without a `default` (left empty, it prints blank). */
	printed: boolean;
	/** Only in the sample data (read through a snippet, or not at all). */
	sampleOnly: boolean;
	/** A loop's collection: what the template reads of each item. */
	itemFields: string[];
	/** The sample data's value at the path, if any. */
	sample?: unknown;
}

/** The type of a JSON value as the resource mapper names it. */
function typeOf(value: unknown): FieldType {
	if (Array.isArray(value)) return 'array';
	if (value !== null && typeof value === 'object') return 'object';
	if (typeof value === 'number') return 'number';
	if (typeof value === 'boolean') return 'boolean';
	return 'string';
}

/** The proper prefixes of a dotted path: `a.b.c` → `a`, `a.b`. */
function parentsOf(path: string): string[] {
	const parents: string[] = [];
	for (let dot = path.indexOf('.'); dot >= 0; dot = path.indexOf('.', dot + 1))
		parents.push(path.slice(0, dot));
	return parents;
}

/** Refuses a path of more parts than the bound. */
function checkPathDepth(path: string): void {
	let parts = 1;
	for (let dot = path.indexOf('.'); dot >= 0; dot = path.indexOf('.', dot + 1))
		if (++parts > TEMPLATE_BOUNDS.depth) throw tooDeep(path);
}

/**
 * The sample data's values by dotted path: leaves, and lists whole (with their items' keys).
 * Walked without recursion, refused beyond the bounds of depth and number of paths.
 */
function samplePaths(sample: unknown): Map<string, unknown> {
	const paths = new Map<string, unknown>();
	const add = (path: string, value: unknown) => {
		if (paths.size >= TEMPLATE_BOUNDS.fields) throw tooManyFields('its sample data has');
		checkPathDepth(path);
		paths.set(path, value);
	};
	const stack: Array<{ value: unknown; prefix: string; depth: number }> = [
		{ value: sample, prefix: '', depth: 0 },
	];
	while (stack.length) {
		const { value, prefix, depth } = stack.pop() as (typeof stack)[number];
		if (value && typeof value === 'object' && !Array.isArray(value)) {
			if (depth > TEMPLATE_BOUNDS.depth) throw tooDeep(prefix);
			const entries = Object.entries(value as IDataObject);
			if (!entries.length && prefix) add(prefix, value);
			for (let i = entries.length - 1; i >= 0; i--) {
				const [key, child] = entries[i];
				stack.push({ value: child, prefix: prefix ? `${prefix}.${key}` : key, depth: depth + 1 });
			}
		} else if (prefix) add(prefix, value);
	}
	return paths;
}

/** The sample data of a template record: a JSON object in a string (or an object). */
export function parseSampleData(value: unknown): IDataObject | undefined {
	let data = value;
	if (typeof value === 'string') {
		const parsed = tryParseJson(value);
		data = 'value' in parsed ? parsed.value : undefined;
	}
	return data && typeof data === 'object' && !Array.isArray(data)
		? (data as IDataObject)
		: undefined;
}

/** The keys of a list's first item, when it is an object: what the list's items hold. */
function firstItemKeys(value: unknown): string[] {
	return Array.isArray(value) && value[0] && typeof value[0] === 'object'
		? Object.keys(value[0] as IDataObject)
		: [];
}

/** Every proper prefix of the given paths: the names some other path lies under. */
function parentSet(paths: Iterable<string>): Set<string> {
	const parents = new Set<string>();
	for (const path of paths) for (const parent of parentsOf(path)) parents.add(parent);
	return parents;
}

/** The fields of the variables a body reads, each typed and with its items from the sample. */
function variableFields(
	variables: LiquidVariable[],
	sample: Map<string, unknown>,
): TemplateField[] {
	return variables.map((variable) => {
		const value = sample.get(variable.path);
		// `items` when `items.sku` is read too: the parts are the item fields.
		const parents = parentSet(variable.itemFields);
		const itemFields = variable.itemFields.filter((field) => !parents.has(field));
		if (!itemFields.length) itemFields.push(...firstItemKeys(value));
		return {
			path: variable.path,
			type: variable.collection ? 'array' : typeOf(value ?? ''),
			printed: variable.printed,
			sampleOnly: false,
			itemFields,
			...(value === undefined ? {} : { sample: value }),
		};
	});
}

/** `customer` when `customer.name` is a field too: the parts are the fields (lists stay). */
function withoutParents(list: TemplateField[]): TemplateField[] {
	const parents = parentSet(list.map((field) => field.path));
	return list.filter((field) => field.type === 'array' || !parents.has(field.path));
}

/** The fields so far, with the look-ups the sample's paths need, each in constant time. */
class FieldIndex {
	private readonly paths = new Set<string>();
	private readonly parents = new Set<string>();
	private readonly lists = new Set<string>();

	constructor(readonly fields: TemplateField[]) {
		for (const field of fields) this.index(field);
	}

	push(field: TemplateField): void {
		this.fields.push(field);
		this.index(field);
	}

	private index(field: TemplateField): void {
		this.paths.add(field.path);
		if (field.type === 'array') this.lists.add(field.path);
		for (const parent of parentsOf(field.path)) this.parents.add(parent);
	}

	/** A field has this path, lies under it, or it lies under a field. */
	knows(path: string): boolean {
		return (
			this.paths.has(path) ||
			this.parents.has(path) ||
			parentsOf(path).some((parent) => this.paths.has(parent))
		);
	}

	/** It lies under a list field that is a path of the sample data too. */
	inList(path: string, sample: Map<string, unknown>): boolean {
		return parentsOf(path).some((parent) => this.lists.has(parent) && sample.has(parent));
	}
}

/**
 * The fields of a template: every variable its body reads (a loop's collection as one list
 * field), then the paths only its sample data has. A path another one lies under is left
 * out (`customer` when `customer.name` is read), unless it is a list. In time linear in the
 * body and the sample data; beyond `TEMPLATE_BOUNDS`, a `TemplateTooLarge` that says which.
 */
export function templateFields(body: unknown, sampleData: unknown): TemplateField[] {
	if (typeof body === 'string') checkSize('body', body, TEMPLATE_BOUNDS.bodyChars);
	if (typeof sampleData === 'string')
		checkSize('sample data', sampleData, TEMPLATE_BOUNDS.sampleChars);
	const variables: LiquidVariable[] = typeof body === 'string' ? variablesOf(body) : [];
	const sample = samplePaths(parseSampleData(sampleData) ?? {});
	const fields = new FieldIndex(withoutParents(variableFields(variables, sample)));
	for (const [path, value] of sample) {
		// Inside a list, or a name the body reads already (or reads parts of).
		if (fields.knows(path) || fields.inList(path, sample)) continue;
		fields.push({
			path,
			type: typeOf(value),
			printed: false,
			sampleOnly: true,
			itemFields: firstItemKeys(value),
			sample: value,
		});
	}
	const all = withoutParents(fields.fields);
	if (all.length > TEMPLATE_BOUNDS.fields) throw tooManyFields('the template has');
	return all;
}

/**
 * How the field list names a field: its path, whether it is optional (first: the editor cuts
 * long labels), then its items or an example.
 */
export function fieldLabel(field: TemplateField): string {
	const parts = [field.path];
	if (field.sampleOnly) parts.push('· in the sample data only');
	else if (!field.printed && field.type !== 'array') parts.push('· optional');
	if (field.itemFields.length) parts.push(`(list of: ${field.itemFields.join(', ')})`);
	else if (field.sample !== undefined && field.type !== 'object' && field.type !== 'array')
		parts.push(`(e.g. ${preview(field.sample, 30)})`);
	return parts.join(' ');
}

/**
 * What a list or object field holds before the user types: the empty list or object as JSON
 * text. n8n's editor shows these fields in a JSON editor whose linter marks an empty text as
 * an error; `[]` and `{}` are valid JSON, and a run does not send them (left empty).
 */
const EMPTY_JSON: Partial<Record<FieldType, string>> = { array: '[]', object: '{}' };

/** The resource mapper's fields for a template. */
export function mapperFields(fields: TemplateField[]): ResourceMapperField[] {
	return fields.map((field) => ({
		id: field.path,
		displayName: fieldLabel(field),
		type: field.type,
		required: false,
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: true,
		...(EMPTY_JSON[field.type] === undefined ? {} : { defaultValue: EMPTY_JSON[field.type] }),
	}));
}

/**
 * A value that leaves its field empty: nothing, an empty text in a typed field, and, as the
 * editor left it (`untouched`), a list or object field's `[]`/`{}` text.
 */
function isLeftEmpty(value: unknown, type: FieldType | undefined, untouched: boolean): boolean {
	if (value === undefined || value === null) return true;
	if (typeof value !== 'string' || type === undefined || type === 'string') return false;
	return value === '' || (untouched && value.trim() === EMPTY_JSON[type]);
}

/** A mapped field's schema as n8n stores it beside the values. */
export interface MappedField {
	id: string;
	type?: FieldType;
	removed?: boolean;
}

/** The value at a dotted path of an input item: a key with the dots first, then nested. */
export function valueAtPath(json: IDataObject, path: string): unknown {
	if (Object.prototype.hasOwnProperty.call(json, path)) return json[path];
	let value: unknown = json;
	for (const part of path.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as IDataObject)[part];
	}
	return value;
}

/** One mapped value in its field's type; refused (naming the field) when it cannot be. */
export function typedValue(id: string, type: FieldType | undefined, value: unknown): unknown {
	const refuse = (what: string, hint: string) =>
		new InputError(`The template field "${id}" ${what}, not ${preview(value)}`, hint);
	switch (type) {
		case 'number': {
			if (typeof value === 'number' && Number.isFinite(value)) return value;
			const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
			if (Number.isFinite(number)) return number;
			throw refuse('must be a number', `Map a number to ${id}, e.g. 42 or {{ $json.total }}`);
		}
		case 'boolean':
			if (typeof value === 'boolean') return value;
			if (value === 'true' || value === 'false') return value === 'true';
			throw refuse('must be true or false', `Map a boolean to ${id}, e.g. {{ $json.paid }}`);
		case 'array':
		case 'object': {
			const wanted = type === 'array' ? 'a list' : 'an object';
			let parsed = value;
			if (typeof value === 'string') {
				const json = tryParseJson(value);
				if (!('value' in json))
					throw new InputError(
						`The template field "${id}" must be ${wanted}, but its text is not valid JSON: ${json.problem}`,
						`Map ${wanted} to ${id} with an expression, e.g. {{ $json.${id} }}, or write it as JSON`,
					);
				parsed = json.value;
			}
			const ok =
				type === 'array'
					? Array.isArray(parsed)
					: parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
			if (ok) return parsed;
			throw refuse(
				`must be ${wanted}`,
				`Map ${wanted} to ${id} with an expression, e.g. {{ $json.${id} }}`,
			);
		}
		default:
			return value;
	}
}

/** The fields a run maps, within the bounds the field list has: refused naming the field. */
function checkMappedIds(ids: string[]): void {
	const { fields, depth } = TEMPLATE_BOUNDS;
	if (ids.length > fields)
		throw new InputError(
			`Template Fields maps ${ids.length.toLocaleString('en-US')} fields, more than the ${fields.toLocaleString('en-US')} a document is built from`,
			'Send this much data as one object: set Payload Mode to JSON, e.g. {{ $json }}',
		);
	for (const id of ids) {
		let parts = 1;
		for (let dot = id.indexOf('.'); dot >= 0 && parts <= depth; dot = id.indexOf('.', dot + 1))
			parts++;
		if (parts > depth)
			throw new InputError(
				`The template field "${preview(id, 60)}" is nested deeper than ${depth} levels`,
				'Map the object at a higher level as one field (an object field takes JSON), or set Payload Mode to JSON',
			);
	}
}

/**
 * The payload from Template Fields: the values mapped below (`defineBelow`), or the input
 * item's fields of the same names (`autoMapInputData`: a name with dots is looked up as it is,
 * then as a path into nested objects), each in its field's type, nested by the dotted names.
 * Fields left empty (mapped below, a list or object field still `[]`/`{}` as text) are not sent. At most `TEMPLATE_BOUNDS.fields` fields, each of at most
 * `TEMPLATE_BOUNDS.depth` levels.
 */
export function payloadFromMapping(
	mapping: IDataObject | undefined,
	input: IDataObject,
): IDataObject {
	const schema = (Array.isArray(mapping?.schema) ? mapping.schema : []) as MappedField[];
	const auto = mapping?.mappingMode === 'autoMapInputData';
	const values = (
		mapping?.value && typeof mapping.value === 'object' ? mapping.value : {}
	) as IDataObject;
	const typeOfField = new Map(schema.map((field) => [field.id, field.type]));
	const ids = auto
		? schema.filter((field) => !field.removed).map((field) => field.id)
		: Object.keys(values);
	checkMappedIds(ids);
	const rows: IDataObject[] = [];
	for (const id of ids) {
		const value = auto ? valueAtPath(input, id) : values[id];
		const type = typeOfField.get(id);
		if (isLeftEmpty(value, type, !auto)) continue;
		rows.push({ key: id, value: typedValue(id, type, value) as IDataObject[string] });
	}
	return payloadFromFields(rows);
}
