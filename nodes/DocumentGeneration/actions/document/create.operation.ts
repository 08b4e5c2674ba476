import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { binaryPropertyName, maxFileSize, templateIdLocator } from '../../../shared/descriptions';
import { parseWriteStatus } from '../../../shared/helpers/parse';
import { createDocument } from '../../../shared/transport';
import {
	buildMeta,
	filenameField,
	imageOptions,
	readImageMeta,
} from '../../descriptions/documentFields';
import { createOptions } from '../../descriptions/documentOptions';
import { groupingProperties, readGrouping } from '../../descriptions/lineItems';
import type { PayloadPlan } from '../../descriptions/payload';
import {
	documentPayload,
	FileBudget,
	payloadFiles,
	payloadProperties,
} from '../../descriptions/payload';
import { filesLiveInJson } from '../../../shared/helpers/items';
import type { DocumentGroup, GenerationRequest } from '../../engine';
import { createSync, readGenerationOptions, readReuse, runGenerations } from '../../engine';
import { readTemplateId, shownFor } from '../common';
import { collection } from '../../descriptions/payloadParts';

export const properties: INodeProperties[] = [
	{ ...templateIdLocator },
	...payloadProperties,
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
	collection('Additional Fields', 'additionalFields', 'Add Field', [
		{
			displayName: 'Channel',
			name: 'channel',
			type: 'string',
			default: '',
			placeholder: 'e.g. invoices',
			description:
				'The webhook channel of the document (stored as meta._webhook_channel): an instant trigger with this Channel receives it',
		},
		filenameField(),
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
	]),
	imageOptions,
	createOptions,
];

export const description = shownFor('document', 'create', properties);

/** The meta of one document: Meta (JSON), File Name, PDF Password and Image Options. */
function documentMeta(ctx: IExecuteFunctions, i: number): IDataObject | undefined {
	const additional = ctx.getNodeParameter('additionalFields', i, {}) as IDataObject;
	return buildMeta({
		...additional,
		image: readImageMeta(ctx.getNodeParameter('imageOptions', i, {})),
	});
}

/** One document's create request, read and checked: nothing is sent. */
async function prepareCreate(
	ctx: IExecuteFunctions,
	group: DocumentGroup,
	plan: PayloadPlan,
): Promise<GenerationRequest> {
	const i = group.index;
	const templateId = readTemplateId(ctx, i);
	const status = parseWriteStatus(ctx.getNodeParameter('status', i, 'pending'));
	const meta = documentMeta(ctx, i);
	const generation = readGenerationOptions(ctx, i, status === 'pending');
	const payload = await documentPayload(ctx, group, plan);
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
	const { groups, lines, refused } = readGrouping(this, items.length);
	const plan: PayloadPlan = { lines, budget: new FileBudget(), filesInJson: filesLiveInJson(this) };
	const byIndex = new Map(groups.map((group) => [group.index, group]));
	return await runGenerations(this, groups, async (i) => {
		if (refused.has(i)) throw refused.get(i);
		return await prepareCreate(this, byIndex.get(i)!, plan);
	});
}
