import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { binaryPropertyName, maxFileSize, templateIdLocator } from '../../../shared/descriptions';
import { parseJsonObject, parseWriteStatus } from '../../../shared/helpers/parse';
import { payloadFromMapping } from '../../templateFields/mapping';
import { payloadFromFields, requirePayload } from '../../templateFields/payload';
import { createDocument } from '../../../shared/transport';
import { buildMeta } from '../../descriptions/fileAndMeta';
import { imageOptions, readImageMeta } from '../../descriptions/imageOptions';
import {
	groupingProperties,
	groupsItems,
	readGrouping,
	readLines,
} from '../../descriptions/lineItems';
import { createOptions } from '../../descriptions/options';
import { payloadFiles, readFileRows, readFiles, withFiles } from '../../descriptions/payloadFiles';
import { checkPayloadSize, withValueAt } from '../../descriptions/payloadParts';
import type { DocumentGroup, GenerationRequest } from '../../engine';
import {
	NO_WAIT,
	createSync,
	readGenerationOptions,
	readReuse,
	runGenerations,
} from '../../engine';
import { readTemplateId } from '../ids';

export const properties: INodeProperties[] = [
	{ ...templateIdLocator },
	{
		displayName: 'Payload Mode',
		name: 'payloadMode',
		type: 'options',
		options: [
			{
				name: 'JSON',
				value: 'json',
				description: 'Write the data as one JSON object, or map it from the previous node',
			},
			{
				name: 'Fields',
				value: 'fields',
				description: 'Enter the data as name/value rows, without writing JSON',
			},
			{
				name: 'Template Fields',
				value: 'templateFields',
				description:
					"Map data onto the fields the picked template prints, listed from the template's own body and sample data",
			},
		],
		default: 'json',
		description: 'How to give the data the template is filled with',
	},
	{
		displayName: 'Payload (JSON)',
		name: 'payload',
		type: 'json',
		default: '{}',
		description:
			'The data to fill the template with: one JSON object (never a list) whose keys are the variables the template uses',
		hint: 'To send the previous node’s data as it is, use {{ $json }}; for one of its fields, {{ $json.invoice }}',
		displayOptions: { show: { payloadMode: ['json'] } },
	},
	{
		displayName: 'Payload Fields',
		name: 'payloadFields',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: 'Add Field',
		default: {},
		description: 'The data to fill the template with, one variable per row',
		hint: 'A dotted name such as customer.name builds nested data: {"customer": {"name": …}}',
		displayOptions: { show: { payloadMode: ['fields'] } },
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
						placeholder: 'e.g. customer.name',
						description: 'The variable name the template uses; dots make nested objects',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: 'e.g. Ada Lovelace',
						description: 'The value; an expression may give a number, a list or an object',
					},
				],
			},
		],
	},
	{
		displayName: 'Template Fields',
		name: 'mappedFields',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		typeOptions: {
			loadOptionsDependsOn: ['templateId.value'],
			resourceMapper: {
				resourceMapperMethod: 'getTemplateFields',
				mode: 'add',
				valuesLabel: 'Fields of the Template',
				fieldWords: { singular: 'field', plural: 'fields' },
				addAllFields: true,
				multiKeyMatch: false,
				supportAutoMap: true,
			},
		},
		hint: 'Fields marked optional have a default in the template or only decide what it shows; every other field is printed as given, and left empty it prints blank',
		displayOptions: { show: { payloadMode: ['templateFields'] } },
	},
	...groupingProperties,
	payloadFiles,
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: [
			{
				name: 'Pending (Generate Now)',
				value: 'pending',
				description: 'Store the document and generate the file at once',
			},
			{ name: 'Draft', value: 'draft', description: 'Store the document without generating it' },
		],
		default: 'pending',
		description: 'Whether to generate the file now or keep the document as a draft',
	},
	{
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: true,
		description:
			'Whether to wait until the file is generated (success or failure) before going on. Many items are waited for together.',
		displayOptions: { show: { status: ['pending'] } },
	},
	{
		displayName: 'Download File',
		name: 'download',
		type: 'boolean',
		default: true,
		description: 'Whether to put the generated file (PDF or image) into the output as binary data',
		displayOptions: { show: { status: ['pending'], waitForCompletion: [true] } },
	},
	binaryPropertyName({ status: ['pending'], waitForCompletion: [true], download: [true] }),
	maxFileSize({ status: ['pending'], waitForCompletion: [true], download: [true] }),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'File Name',
				name: 'filename',
				type: 'string',
				default: '',
				placeholder: 'e.g. invoice-2026-001.pdf',
				description: 'Name of the generated file (stored as meta._filename)',
			},
			{
				displayName: 'PDF Password',
				name: 'password',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description:
					'Encrypts the PDF with this password (stored as meta._password; left out of every output of this package)',
			},
			{
				displayName: 'Meta (JSON)',
				name: 'meta',
				type: 'json',
				default: '{}',
				description:
					'Data kept with the document for later steps, as one JSON object, e.g. {"order_id": "A-1001"}. Returned as a parsed object in the meta field by this node and the trigger.',
			},
		],
	},
	imageOptions,
	createOptions,
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['create'] } },
	properties,
);

type PayloadMode = 'json' | 'fields' | 'templateFields';

/** The payload an item gives, from the JSON field, the field rows or the Template Fields. */
function itemPayload(
	ctx: IExecuteFunctions,
	i: number,
	mode: PayloadMode,
): IDataObject | undefined {
	if (mode === 'templateFields') {
		const mapping = ctx.getNodeParameter('mappedFields', i, {}) as IDataObject;
		const input = ctx.getInputData()[i]?.json ?? {};
		return payloadFromMapping(mapping, input);
	}
	if (mode === 'fields')
		return payloadFromFields(ctx.getNodeParameter('payloadFields.values', i, []));
	return parseJsonObject(ctx.getNodeParameter('payload', i, ''), 'payload');
}

/**
 * The payload of one document: its (first) item's data, the group's lines at the Line Items
 * Path, the item's files; never empty, within the size bound. Sends nothing.
 */
async function documentPayload(ctx: IExecuteFunctions, group: DocumentGroup): Promise<IDataObject> {
	const i = group.index;
	const chosen = ctx.getNodeParameter('payloadMode', i, 'json');
	const mode: PayloadMode = chosen === 'fields' || chosen === 'templateFields' ? chosen : 'json';
	let payload = itemPayload(ctx, i, mode) ?? {};
	if (groupsItems(ctx, i)) {
		const { path, lines } = readLines(ctx, group);
		payload = withValueAt(payload, path, lines, 'line items');
	}
	const rows = readFileRows(ctx.getNodeParameter('payloadFiles', i, {}));
	payload = requirePayload(withFiles(payload, await readFiles(ctx, i, rows)), mode);
	checkPayloadSize(payload);
	return payload;
}

/** The meta of one document: Meta (JSON), File Name, PDF Password and Image Options. */
function documentMeta(ctx: IExecuteFunctions, i: number): IDataObject | undefined {
	const additional = ctx.getNodeParameter('additionalFields', i, {}) as IDataObject;
	return buildMeta({
		meta: additional.meta,
		filename: additional.filename,
		password: additional.password,
		image: readImageMeta(ctx.getNodeParameter('imageOptions', i, {})),
	});
}

/** One document's create request, read and checked: nothing is sent. */
async function prepareCreate(
	ctx: IExecuteFunctions,
	group: DocumentGroup,
): Promise<GenerationRequest> {
	const i = group.index;
	const templateId = readTemplateId(ctx, i);
	const status = parseWriteStatus(ctx.getNodeParameter('status', i, 'pending'));
	const meta = documentMeta(ctx, i);
	const generation = status === 'pending' ? readGenerationOptions(ctx, i) : NO_WAIT;
	const payload = await documentPayload(ctx, group);
	const fields: IDataObject = { document_template_id: templateId, status, payload };
	if (meta) fields.meta = meta;
	const reuse = readReuse(ctx, i, fields, status === 'pending');
	return {
		send: async () => await createDocument(ctx, fields, { itemIndex: i }),
		sendSync: async () => await createSync(ctx, fields, i, generation.timeoutSeconds),
		generates: status === 'pending',
		templateId,
		reuse,
		...generation,
	};
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const { groups, refused } = readGrouping(this, items.length);
	const byIndex = new Map(groups.map((group) => [group.index, group]));
	return await runGenerations(this, groups, async (i) => {
		if (refused.has(i)) throw refused.get(i);
		return await prepareCreate(this, byIndex.get(i)!);
	});
}
