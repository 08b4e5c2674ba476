/**
 * Create's Template Fields: the fields of the picked template, for n8n's resource mapper. The
 * template record is read once (its body and sample data); when its fields cannot be listed,
 * the editor says why in one line and how to go on.
 */
import {
	NodeOperationError,
	type ILoadOptionsFunctions,
	type ResourceMapperFields,
} from 'n8n-workflow';

import { asNodeError } from '../../shared/helpers/items';
import { parseId } from '../../shared/helpers/parse';
import { getTemplate } from '../../shared/transport';
import { TemplateTooLarge } from '../templateFields/bounds';
import type { TemplateField } from '../templateFields/mapping';
import { lineFields, listFields, mapperFields, templateFields } from '../templateFields/mapping';

/** How to go on without the listed fields: the payload's mode, or the line's. */
const OR_JSON = 'or set Payload Mode to JSON. Fields mapped below are still sent.';
const OR_LINE_JSON = 'or set Line Mode to JSON. Line fields mapped below are still sent.';

/** Nothing to list, and why: the editor shows it where the fields would be. */
const notice = (why: string): ResourceMapperFields => ({ fields: [], emptyFieldsNotice: why });

/** The template the node has picked, as the editor sends it (a locator, or plain text). */
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
		return templateFields(
			template.body || template.body_draft,
			template.sample_data || template.sample_data_draft,
		);
	} catch (error) {
		if (!(error instanceof TemplateTooLarge))
			throw new NodeOperationError(ctx.getNode(), error as Error);
		return notice(
			`This template's fields are not listed here: ${error.reason}. Map its data as JSON: ${orJson.slice('or '.length)}`,
		);
	}
}

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

/** The Line Items Path the node has, as the editor sends it. */
function pickedLinesPath(ctx: ILoadOptionsFunctions): string {
	try {
		return String(ctx.getCurrentNodeParameter('linesPath') ?? '').trim();
	} catch {
		return '';
	}
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
