/**
 * Create's payload: its Payload Mode (JSON, Fields, Template Fields) and the payload of one
 * document built from it, with the group's lines and the item's files, never empty and within
 * the size bound.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { withoutFileReferences } from '../../shared/helpers/items';
import { parseJsonObject } from '../../shared/helpers/parse';
import type { DocumentGroup } from '../engine';
import { payloadFromMapping } from '../templateFields/mapping';
import { payloadFromFields, requirePayload } from '../templateFields/payload';
import { readLines } from './lineItems';
import type { FileBudget } from './payloadFiles';
import { readFileRows, readFiles, withFiles } from './payloadFiles';
import { checkPayloadSize, withValueAt } from './payloadParts';
import { nameValueRows } from './rows';

export const payloadProperties: INodeProperties[] = [
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
	nameValueRows({
		displayName: 'Payload Fields',
		name: 'payloadFields',
		placeholder: 'Add Field',
		description: 'The data to fill the template with, one variable per row',
		hint: 'A dotted name such as customer.name builds nested data: {"customer": {"name": …}}',
		show: { payloadMode: ['fields'] },
		examples: { key: 'e.g. customer.name', value: 'e.g. Ada Lovelace' },
	}),
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
];

type PayloadMode = 'json' | 'fields' | 'templateFields';

/** What the run knows of every document's payload: whether groups add lines, the file budget. */
export interface PayloadPlan {
	lines: boolean;
	budget: FileBudget;
	/** Whether the workflow keeps files in the items' JSON (Execution Logic v2). */
	filesInJson: boolean;
}

/** The payload an item gives, from the JSON field, the field rows or the Template Fields. */
function itemPayload(
	ctx: IExecuteFunctions,
	i: number,
	mode: PayloadMode,
	filesInJson: boolean,
): IDataObject | undefined {
	if (mode === 'templateFields') {
		const mapping = ctx.getNodeParameter('mappedFields', i, {}) as IDataObject;
		const input = ctx.getInputData()[i]?.json ?? {};
		return payloadFromMapping(mapping, input);
	}
	if (mode === 'fields')
		return payloadFromFields(ctx.getNodeParameter('payloadFields.values', i, []));
	const payload = parseJsonObject(ctx.getNodeParameter('payload', i, ''), 'payload');
	return payload && withoutFileReferences(payload, filesInJson);
}

/**
 * The payload of one document: its (first) item's data, the group's lines at the Line Items
 * Path, the (first) item's files; never empty, within the size bound. Sends nothing.
 */
export async function documentPayload(
	ctx: IExecuteFunctions,
	group: DocumentGroup,
	plan: PayloadPlan,
): Promise<IDataObject> {
	const i = group.index;
	const chosen = ctx.getNodeParameter('payloadMode', i, 'json');
	const mode: PayloadMode = chosen === 'fields' || chosen === 'templateFields' ? chosen : 'json';
	let payload = itemPayload(ctx, i, mode, plan.filesInJson) ?? {};
	if (plan.lines) {
		const { path, lines } = readLines(ctx, group, plan.filesInJson);
		payload = withValueAt(payload, path, lines, 'line items');
	}
	const rows = readFileRows(ctx.getNodeParameter('payloadFiles', i, {}));
	const files = await readFiles(ctx, i, rows, plan.budget);
	payload = requirePayload(withFiles(payload, files), mode);
	checkPayloadSize(payload);
	return payload;
}
