/** The fields of templates, snippets and template folders, as create and update read them. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputError, parseId, parseJsonObject, preview } from '../../shared/helpers/parse';
import { collection } from './payloadParts';
import { readTtl, retentionFields } from './templateSettings';

export const OUTPUT_TYPES = ['pdf', 'png', 'jpg', 'webp'];

/** The fields of the Template Fields collection, in the order the editor lists them. */
const TEMPLATE_FIELD_OPTIONS: INodeProperties[] = [
	{
		displayName: 'Body (HTML)',
		name: 'body',
		type: 'string',
		typeOptions: { rows: 8 },
		default: '',
		placeholder: 'e.g. <h1>Invoice {{ number }}</h1>',
		description: 'The HTML of the template, with Liquid variables such as {{ customer.name }}',
	},
	{
		displayName: 'Body From File',
		name: 'bodyFromFile',
		type: 'string',
		default: 'data',
		placeholder: 'e.g. data',
		description:
			"The file of an earlier node (e.g. Read/Write Files from Disk) whose text is the template's body (HTML): the name its Binary tab shows",
	},
	{
		displayName: 'Folder Name or ID',
		name: 'folderId',
		type: 'options',
		typeOptions: {
			loadOptionsMethod: 'getTemplateFolders',
			loadOptionsDependsOn: ['workspaceId.value'],
		},
		default: '',
		description:
			'The template folder to keep the template in (its ID is a UUID), or No Folder to take it out of its folder. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	{
		displayName: 'Name',
		name: 'identifier',
		type: 'string',
		default: '',
		placeholder: 'e.g. invoice',
		description: 'The name of the template, as the dashboard and the lists show it',
	},
	{
		displayName: 'Output Type',
		name: 'outputType',
		type: 'options',
		options: [
			{ name: 'PDF', value: 'pdf' },
			{ name: 'PNG Image', value: 'png' },
			{ name: 'JPG Image', value: 'jpg' },
			{ name: 'WebP Image', value: 'webp' },
		],
		default: 'pdf',
		description: 'What documents of this template are: a PDF, or an image',
	},
	{
		displayName: 'PDF Engine Name or ID',
		name: 'pdfEngineId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getPdfEngines' },
		default: '',
		description:
			'The engine the draft renders with (a deprecated one shows its date: move templates off it before then). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
	...retentionFields,
	{
		displayName: 'Sample Data (JSON)',
		name: 'sampleData',
		type: 'json',
		default: '{}',
		description: 'Example data for the preview in the dashboard, as one JSON object',
	},
	{
		displayName: 'Styles (SCSS)',
		name: 'styles',
		type: 'string',
		typeOptions: { rows: 6 },
		default: '',
		placeholder: 'e.g. h1 { color: #333; }',
		description: 'The styles of the template, in SCSS or CSS',
	},
	{
		displayName: 'Styles From File',
		name: 'stylesFromFile',
		type: 'string',
		default: 'data',
		placeholder: 'e.g. data',
		description:
			"The file of an earlier node (e.g. Read/Write Files from Disk) whose text is the template's styles (SCSS): the name its Binary tab shows",
	},
];

export const templateFields = (displayName: string): INodeProperties =>
	collection(
		displayName,
		'templateFields',
		'Add Field',
		TEMPLATE_FIELD_OPTIONS.map((option) => ({ ...option })),
	);

/** The Template Fields given, checked, under the service's names (an empty text clears one). */
export function readTemplateFields(ctx: IExecuteFunctions, i: number): IDataObject {
	const raw = ctx.getNodeParameter('templateFields', i, {}) as IDataObject;
	const fields: IDataObject = {};
	if (raw.identifier !== undefined) {
		const name = String(raw.identifier).trim();
		if (name === '')
			throw new InputError(
				'The template name is empty',
				'Enter a name such as "invoice" under Template Fields → Name, or remove the field',
			);
		fields.identifier = name;
	}
	if (raw.body !== undefined) fields.body_draft = String(raw.body);
	if (raw.styles !== undefined) fields.scss_style_draft = String(raw.styles);
	if (raw.sampleData !== undefined) {
		// Checked as one object, sent as JSON text: the service keeps sample data as text.
		fields.sample_data_draft = JSON.stringify(parseJsonObject(raw.sampleData, 'sample data') ?? {});
	}
	if (raw.outputType !== undefined) {
		if (!OUTPUT_TYPES.includes(String(raw.outputType)))
			throw new InputError(
				`The output type "${preview(raw.outputType)}" is not one the service knows`,
				'Choose PDF, PNG, JPG or WebP under Template Fields → Output Type',
			);
		fields.output_type = String(raw.outputType);
	}
	// The lists' empty entry: the default engine (nothing sent), no folder (null).
	if (raw.pdfEngineId !== undefined && raw.pdfEngineId !== '')
		fields.pdf_engine_draft_id = readEngineId(raw.pdfEngineId);
	const ttl = readTtl(raw);
	if (ttl !== undefined) fields.ttl = ttl;
	if (raw.folderId !== undefined)
		fields.template_folder_id =
			raw.folderId === '' ? null : parseId(raw.folderId, 'template folder');
	return fields;
}

/** An engine's ID as the list gives it (the service's own; not assumed to be a UUID). */
function readEngineId(value: unknown): string | number {
	if (typeof value === 'number' && Number.isInteger(value)) return value;
	const id = typeof value === 'string' ? value.trim() : '';
	if (id === '' || id.length > 100 || /[\s/?#]/.test(id))
		throw new InputError(
			id === ''
				? 'The PDF engine is empty'
				: `The PDF engine "${preview(value)}" is not an engine ID`,
			'Choose an engine under Template Fields → PDF Engine, or remove the field',
		);
	return id;
}

const NAME_HINT = "e.g. company-footer: templates include it with {% include 'company-footer' %}";

export const snippetName: INodeProperties = {
	displayName: 'Name',
	name: 'identifier',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. company-footer',
	description: `The name templates include the snippet by, ${NAME_HINT}`,
};

export const snippetCode: INodeProperties = {
	displayName: 'Code (Liquid)',
	name: 'code',
	type: 'string',
	required: true,
	typeOptions: { rows: 8 },
	default: '',
	placeholder: 'e.g. <footer>{{ seller.name }}</footer>',
	description:
		'The HTML and Liquid of the snippet. Variables it reads come from the document’s payload.',
};

export const snippetFields: INodeProperties = collection(
	'Update Fields',
	'snippetFields',
	'Add Field',
	[
		{ ...snippetCode, required: false },
		{ ...snippetName, required: false },
	],
	'Only the fields added here are sent; everything else stays as it is',
);

/** A name given for a snippet, trimmed; an empty one is refused. */
export function checkSnippetName(value: unknown): string {
	const name = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
	if (name === '')
		throw new InputError('The snippet name is empty', `Enter a name under Name, ${NAME_HINT}`);
	return name;
}

export function checkSnippetCode(value: unknown, required: boolean): string {
	const code = typeof value === 'string' ? value : value == null ? '' : String(value);
	if (required && code.trim() === '')
		throw new InputError(
			'The snippet code is empty',
			'Enter the HTML and Liquid of the snippet under Code, e.g. <footer>{{ seller.name }}</footer>',
		);
	return code;
}

/** A snippet's Update Fields under the service's names. */
export function readSnippetChanges(ctx: IExecuteFunctions, i: number): IDataObject {
	const raw = ctx.getNodeParameter('snippetFields', i, {}) as IDataObject;
	const fields: IDataObject = {};
	if (raw.identifier !== undefined) fields.identifier = checkSnippetName(raw.identifier);
	if (raw.code !== undefined) fields.code = checkSnippetCode(raw.code, false);
	if (!Object.keys(fields).length)
		throw new InputError(
			'Nothing to update: no field is given',
			'Add at least one field under Update Fields (Name or Code)',
		);
	return fields;
}

/** A template folder's one field: its name (`identifier`). */
export const folderName = (description: string): INodeProperties => ({
	displayName: 'Name',
	name: 'identifier',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. Billing',
	description,
});

/** A folder name, trimmed; an empty one is refused. */
export function checkFolderName(value: unknown): string {
	const name = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
	if (name === '')
		throw new InputError('The folder name is empty', 'Enter a name under Name, e.g. "Billing"');
	return name;
}
