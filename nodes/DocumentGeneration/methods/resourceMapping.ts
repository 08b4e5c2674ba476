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
import { mapperFields, templateFields } from '../templateFields/mapping';

const OR_JSON = 'or set Payload Mode to JSON. Fields mapped below are still sent.';

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

export async function getTemplateFields(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const picked = pickedTemplate(this);
	if (typeof picked === 'string' && picked.trim().startsWith('='))
		return notice(
			`The template is given by an expression, so its fields cannot be listed here: pick it From List or By ID to see them, ${OR_JSON}`,
		);
	if (picked === undefined || picked === null || String(picked).trim() === '')
		return notice(`Pick a template above to list its fields, ${OR_JSON}`);
	let id: string;
	try {
		id = parseId(picked, 'template');
	} catch {
		return notice(
			`"${String(picked)}" is not a template ID: pick the template From List, ${OR_JSON}`,
		);
	}
	let template;
	try {
		template = await getTemplate(this, id);
	} catch (error) {
		const { message } = asNodeError(this, error);
		return notice(
			`The template's fields could not be loaded (${message}): check the credential and the template, then reload, ${OR_JSON}`,
		);
	}
	const body = template.body || template.body_draft;
	const sample = template.sample_data || template.sample_data_draft;
	let fields;
	try {
		fields = templateFields(body, sample);
	} catch (error) {
		if (!(error instanceof TemplateTooLarge))
			throw new NodeOperationError(this.getNode(), error as Error);
		return notice(
			`This template's fields are not listed here: ${error.reason}. Map its data as JSON: set Payload Mode to JSON. Fields mapped below are still sent.`,
		);
	}
	if (!fields.length)
		return notice(
			`This template reads no variables and has no sample data, so there is nothing to map: add data with Payload Mode JSON or Fields if it needs any.`,
		);
	return { fields: mapperFields(fields) };
}
