/** A template's typed fields, from its body and sample data, and the fields of its lists' lines. */
import type { FieldType, IDataObject } from 'n8n-workflow';

import { tryParseJson } from '../../shared/helpers/json';
import {
	checkSize,
	TEMPLATE_BOUNDS,
	tooDeep,
	tooManyFields,
	variablesOf,
	type LiquidVariable,
} from './liquidReader';

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
	sample?: unknown;
}

/** The type of a JSON value as the resource mapper names it. */
export function typeOf(value: unknown): FieldType {
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

function checkPathDepth(path: string): void {
	let parts = 1;
	for (let dot = path.indexOf('.'); dot >= 0; dot = path.indexOf('.', dot + 1))
		if (++parts > TEMPLATE_BOUNDS.depth) throw tooDeep(path);
}

/** The sample data's leaves and whole lists by dotted path, walked without recursion, bounded. */
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

/** The keys of a list's first item, when it is an object (bounded). */
function firstItemKeys(value: unknown, path: string): string[] {
	if (!Array.isArray(value) || !value[0] || typeof value[0] !== 'object') return [];
	const keys = Object.keys(value[0] as IDataObject);
	if (keys.length > TEMPLATE_BOUNDS.fields) throw tooManyFields(`the list "${path}" has`);
	return keys;
}

function parentSet(paths: Iterable<string>): Set<string> {
	const parents = new Set<string>();
	for (const path of paths) for (const parent of parentsOf(path)) parents.add(parent);
	return parents;
}

/** The fields of the variables a body reads, typed and with item fields from the sample. */
function variableFields(
	variables: LiquidVariable[],
	sample: Map<string, unknown>,
): TemplateField[] {
	return variables.map((variable) => {
		const value = sample.get(variable.path);
		// `items` when `items.sku` is read too: the parts are the item fields.
		const parents = parentSet(variable.itemFields);
		const itemFields = variable.itemFields.filter((field) => !parents.has(field));
		if (!itemFields.length) itemFields.push(...firstItemKeys(value, variable.path));
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

/** The fields so far, with constant-time look-ups for the sample's paths. */
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

/** The body's variables, then the sample data's other paths (parents only as lists); linear. */
export function templateFields(body: unknown, sampleData: unknown): TemplateField[] {
	if (typeof body === 'string') checkSize('body', body, TEMPLATE_BOUNDS.bodyChars);
	if (typeof sampleData === 'string')
		checkSize('sample data', sampleData, TEMPLATE_BOUNDS.sampleChars);
	const variables: LiquidVariable[] = typeof body === 'string' ? variablesOf(body) : [];
	const sample = samplePaths(parseSampleData(sampleData) ?? {});
	const fields = new FieldIndex(withoutParents(variableFields(variables, sample)));
	for (const [path, value] of sample) {
		if (fields.knows(path) || fields.inList(path, sample)) continue;
		fields.push({
			path,
			type: typeOf(value),
			printed: false,
			sampleOnly: true,
			itemFields: firstItemKeys(value, path),
			sample: value,
		});
	}
	const all = withoutParents(fields.fields);
	if (all.length > TEMPLATE_BOUNDS.fields) throw tooManyFields('the template has');
	return all;
}

/** The list fields of a template (what Line Items Path can name). */
export function listFields(fields: TemplateField[]): TemplateField[] {
	return fields.filter((field) => field.type === 'array');
}

/** The fields of each line of the list at `path`, typed from its first sample item. */
export function lineFields(fields: TemplateField[], path: string): TemplateField[] | undefined {
	const list = listFields(fields).find((field) => field.path === path);
	if (!list) return undefined;
	const first: unknown = Array.isArray(list.sample) ? list.sample[0] : undefined;
	const sample = (first && typeof first === 'object' ? first : {}) as IDataObject;
	const names = new Set([...list.itemFields, ...Object.keys(sample)]);
	return [...names].map((name) => ({
		path: name,
		type: typeOf(sample[name]),
		printed: list.itemFields.includes(name),
		sampleOnly: !list.itemFields.includes(name),
		itemFields: [],
		...(sample[name] === undefined ? {} : { sample: sample[name] }),
	}));
}

/** What a template's fields are read from: its published body and sample data, or its draft's. */
export interface TemplateSource {
	version: 'published' | 'draft';
	body: unknown;
	sampleData: unknown;
}

/** A template's published body and sample data (the draft's where unpublished), or the draft's. */
export function sourceOf(template: IDataObject, version: 'published' | 'draft'): TemplateSource {
	if (version === 'draft' || !template.body)
		return { version: 'draft', body: template.body_draft, sampleData: template.sample_data_draft };
	return {
		version: 'published',
		body: template.body,
		sampleData: template.sample_data || template.sample_data_draft,
	};
}
