/** Create's resource mappers: the fields the editor lists (or why not), and the mapped payload. */
import {
	NodeOperationError,
	type FieldType,
	type IDataObject,
	type ILoadOptionsFunctions,
	type ResourceMapperField,
	type ResourceMapperFields,
} from 'n8n-workflow';

import { tryParseJson } from '../../shared/helpers/json';
import { asNodeError } from '../../shared/helpers/items';
import { InputError, parseId, preview } from '../../shared/helpers/parse';
import { getTemplate } from '../../shared/transport';
import { payloadFromFields } from '../descriptions/payloadParts';
import { TEMPLATE_BOUNDS, TemplateTooLarge } from './liquidReader';
import {
	lineFields,
	listFields,
	sourceOf,
	templateFields,
	type TemplateField,
} from './templateFields';

export const resourceMapping = { getTemplateFields, getTemplateLineFields };

/** Create's Template Fields: the picked template's fields. */
export async function getTemplateFields(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const fields = await loadTemplateFields(this, OR_JSON);
	if (!Array.isArray(fields)) return fields;
	if (!fields.length)
		return notice(
			`This template reads no variables and has no sample data, so there is nothing to map: add data with Payload Mode JSON or Fields if it needs any.`,
		);
	return { fields: mapperFields(fields) };
}

/** Create's Line Fields of the Template: the fields of each line of the template's list. */
export async function getTemplateLineFields(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const fields = await loadTemplateFields(this, OR_LINE_JSON);
	if (!Array.isArray(fields)) return fields;
	const path = pickedLinesPath(this);
	const lines = lineFields(fields, path);
	const lists = listFields(fields).map((field) => field.path);
	if (!lines) {
		const known = lists.length ? `Its lists: ${lists.join(', ')}.` : 'It has no list.';
		return notice(
			`This template has no list at "${path}": set Line Items Path to one of its lists. ${known} Or set Line Mode to JSON.`,
		);
	}
	if (!lines.length)
		return notice(
			`The template's list "${path}" shows no field of its lines: set Line Mode to JSON.`,
		);
	return { fields: mapperFields(lines) };
}

const OR_JSON = 'or set Payload Mode to JSON. Fields mapped below are still sent.';
const OR_LINE_JSON = 'or set Line Mode to JSON. Line fields mapped below are still sent.';

/** Nothing to list, and why: the editor shows it where the fields would be. */
const notice = (why: string): ResourceMapperFields => ({ fields: [], emptyFieldsNotice: why });

/** The picked template's fields, or the notice that says why there are none to list. */
async function loadTemplateFields(
	ctx: ILoadOptionsFunctions,
	orJson: string,
): Promise<TemplateField[] | ResourceMapperFields> {
	const picked = pickedTemplate(ctx);
	if (typeof picked === 'string' && picked.startsWith('='))
		return notice(
			`The template is given by an expression, so its fields cannot be listed here: pick it From List or By ID to see them, ${orJson}`,
		);
	if (picked === undefined || picked === null || String(picked).trim() === '')
		return notice(`Pick a template above to list its fields, ${orJson}`);
	let id: string;
	try {
		id = parseId(picked, 'template');
	} catch {
		return notice(
			`"${String(picked)}" is not a template ID: pick the template From List, ${orJson}`,
		);
	}
	let template;
	try {
		template = await getTemplate(ctx, id);
	} catch (error) {
		const { message } = asNodeError(ctx, error);
		return notice(
			`The template's fields could not be loaded (${message}): check the credential and the template, then reload, ${orJson}`,
		);
	}
	try {
		const { body, sampleData } = sourceOf(template, 'published');
		return templateFields(body, sampleData);
	} catch (error) {
		if (!(error instanceof TemplateTooLarge))
			throw new NodeOperationError(ctx.getNode(), error as Error);
		return notice(
			`This template's fields are not listed here: ${error.reason}. Map its data as JSON: ${orJson.slice('or '.length)}`,
		);
	}
}

/** The picked template, as the editor sends it (a locator, or plain text). */
function pickedTemplate(ctx: ILoadOptionsFunctions): unknown {
	try {
		const value = ctx.getCurrentNodeParameter('templateId');
		return value && typeof value === 'object' && 'value' in value
			? (value as { value: unknown }).value
			: value;
	} catch {
		return undefined;
	}
}

/** The Line Items Path the node has, as the editor sends it. */
function pickedLinesPath(ctx: ILoadOptionsFunctions): string {
	try {
		return String(ctx.getCurrentNodeParameter('linesPath') ?? '').trim();
	} catch {
		return '';
	}
}

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

/** A field's label: path, optional mark (first: the editor cuts long labels), items or example. */
export function fieldLabel(field: TemplateField): string {
	const parts = [field.path];
	if (field.sampleOnly) parts.push('· in the sample data only');
	else if (!field.printed && field.type !== 'array') parts.push('· optional');
	if (field.itemFields.length) parts.push(`(list of: ${field.itemFields.join(', ')})`);
	else if (field.sample !== undefined && field.type !== 'object' && field.type !== 'array')
		parts.push(`(e.g. ${preview(field.sample, 30)})`);
	return parts.join(' ');
}

/** A list or object field's value before the user types (the editor's linter flags ''). */
const EMPTY_JSON: Partial<Record<FieldType, string>> = { array: '[]', object: '{}' };

/** The payload from the values mapped (or auto-mapped), typed and nested; empty ones not sent. */
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

/** A mapped field's schema as n8n stores it beside the values. */
export interface MappedField {
	id: string;
	type?: FieldType;
	removed?: boolean;
}

/** Refuses mapped fields beyond the field list's bounds, naming the field. */
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

/** Nothing, an empty text in a typed field, or (`untouched`) a list or object field's `[]`/`{}`. */
function isLeftEmpty(value: unknown, type: FieldType | undefined, untouched: boolean): boolean {
	if (value === undefined || value === null) return true;
	if (typeof value !== 'string' || type === undefined || type === 'string') return false;
	return value === '' || (untouched && value.trim() === EMPTY_JSON[type]);
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
