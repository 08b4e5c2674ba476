// A document's payload: Payload Mode, and Files Into Payload (input files as data URIs).
import type { IBinaryData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputError, preview } from '../../shared/helpers/parse';
import type { DocumentGroup } from '../engine';
import { dataOf, readLines } from './lineItems';
import {
	checkPayloadSize,
	nameValueRows,
	PAYLOAD_BOUNDS,
	requirePayload,
	sizeText,
	withValueAt,
} from './payloadParts';

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

/** What the run knows of every document's payload. */
export interface PayloadPlan {
	lines: boolean;
	budget: FileBudget;
	/** The workflow keeps files in the items' JSON (Execution Logic v2). */
	filesInJson: boolean;
}

/** One document's payload: its first item's data, lines and files; never empty, within bounds. */
export async function documentPayload(
	ctx: IExecuteFunctions,
	group: DocumentGroup,
	plan: PayloadPlan,
): Promise<IDataObject> {
	const i = group.index;
	const chosen = ctx.getNodeParameter('payloadMode', i, 'json');
	const mode: PayloadMode = chosen === 'fields' || chosen === 'templateFields' ? chosen : 'json';
	let payload = dataOf(ctx, i, mode, 'payload', plan.filesInJson) ?? {};
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

export const payloadFiles: INodeProperties = {
	displayName: 'Files Into Payload',
	name: 'payloadFiles',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add File',
	default: {},
	description:
		'Files of the input item put into the payload as data URIs (data:image/png;base64,…), which a template shows with &lt;img src="{{ logo }}"&gt;. Each file may be 5 MB at most, the whole payload 20 MB.',
	options: [
		{
			displayName: 'File',
			name: 'files',
			values: [
				{
					displayName: 'Input Binary Field',
					name: 'binaryPropertyName',
					type: 'string',
					default: 'data',
					required: true,
					description:
						'The name of the input file, as the Binary tab of the previous node shows it',
					hint: 'In a workflow with Execution Logic v2 the file is in the item’s JSON: write its path, e.g. _files.data',
				},
				{
					displayName: 'Payload Path',
					name: 'path',
					type: 'string',
					default: '',
					required: true,
					placeholder: 'e.g. logo or company.logo',
					description:
						'Where the data URI goes in the payload (dots make nested objects); it replaces what is there',
				},
			],
		},
	],
};

/** Which input file goes where in the payload. */
export interface FileRow {
	property: string;
	path: string;
}

/** The rows of Files Into Payload, checked; rows left blank are skipped. */
export function readFileRows(value: unknown): FileRow[] {
	const rows = value && typeof value === 'object' ? (value as IDataObject).files : undefined;
	if (!Array.isArray(rows)) return [];
	const read: FileRow[] = [];
	rows.forEach((row: IDataObject, n) => {
		const property = String(row?.binaryPropertyName ?? '').trim();
		const path = String(row?.path ?? '').trim();
		if (property === '' && path === '') return;
		if (property === '' || path === '')
			throw new InputError(
				`Files Into Payload → file ${n + 1} has no ${property === '' ? 'Input Binary Field' : 'Payload Path'}`,
				'Give each file the name of the input file (e.g. data) and where it goes in the payload (e.g. logo)',
			);
		read.push({ property, path });
	});
	return read;
}

/** A MIME type fit for a data URI (`type/subtype`, no parameters), else the generic one. */
function mimeOf(binary: IBinaryData): string {
	const mime = String(binary.mimeType ?? '')
		.split(';', 1)[0]
		.trim()
		.toLowerCase();
	return /^[a-z0-9][a-z0-9.+-]{0,63}\/[a-z0-9][a-z0-9.+-]{0,127}$/.test(mime)
		? mime
		: 'application/octet-stream';
}

function tooLarge(row: FileRow, bytes: number): InputError {
	return new InputError(
		`The file "${row.property}" is ${sizeText(bytes)}, more than the ${sizeText(PAYLOAD_BOUNDS.fileBytes)} a file in the payload may be`,
		'Use a smaller file (resize or compress the image before this node), or put a link to it in the payload instead',
	);
}

function noFile(row: FileRow): InputError {
	return new InputError(
		`The input item has no file "${preview(row.property)}" for Files Into Payload`,
		'Write the name the Binary tab of the previous node shows (e.g. data); in a workflow with Execution Logic v2, the path of the file in the item, e.g. _files.data',
	);
}

/** The item's file, checked to exist and, when n8n knows its size, to be within the bound. */
function fileOf(ctx: IExecuteFunctions, itemIndex: number, row: FileRow): IBinaryData {
	let binary: IBinaryData;
	try {
		binary = ctx.helpers.assertBinaryData(itemIndex, row.property);
	} catch {
		throw noFile(row);
	}
	if (typeof binary.bytes === 'number' && binary.bytes > PAYLOAD_BOUNDS.fileBytes)
		throw tooLarge(row, binary.bytes);
	return binary;
}

export interface PayloadFile {
	property: string;
	path: string;
	uri: string;
}

/** What one run may still read of input files: all are read before anything is sent. */
export class FileBudget {
	constructor(private remaining = PAYLOAD_BOUNDS.runFileBytes) {}

	take(bytes: number): void {
		this.remaining -= bytes;
		if (this.remaining >= 0) return;
		throw new InputError(
			`The input files of this run are more than the ${sizeText(PAYLOAD_BOUNDS.runFileBytes)} one run reads into payloads`,
			'Send fewer items per run (Loop Over Items, e.g. 50 at a time) or smaller files',
		);
	}
}

function filesTooLarge(bytes: number): InputError {
	return new InputError(
		`The files of this document are ${sizeText(bytes)} as data URIs, more than the ${sizeText(PAYLOAD_BOUNDS.payloadBytes)} one payload accepts`,
		'Use fewer or smaller files (resize images before this node), or links to them instead',
	);
}

/** Each row's file of the item, read and checked, as a data URI. */
export async function readFiles(
	ctx: IExecuteFunctions,
	itemIndex: number,
	rows: FileRow[],
	budget: FileBudget,
): Promise<PayloadFile[]> {
	const files: PayloadFile[] = [];
	let total = 0;
	for (const row of rows) {
		const binary = fileOf(ctx, itemIndex, row);
		const buffer = await ctx.helpers.getBinaryDataBuffer(itemIndex, row.property);
		if (buffer.length > PAYLOAD_BOUNDS.fileBytes) throw tooLarge(row, buffer.length);
		const uri = `data:${mimeOf(binary)};base64,${buffer.toString('base64')}`;
		total += uri.length;
		if (total > PAYLOAD_BOUNDS.payloadBytes) throw filesTooLarge(total);
		budget.take(uri.length);
		files.push({ ...row, uri });
	}
	return files;
}

/** The payload with each file at its path; the payload given is not changed. */
export function withFiles(payload: IDataObject, files: PayloadFile[]): IDataObject {
	return files.reduce(
		(result, file) => withValueAt(result, file.path, file.uri, `file "${file.property}"`),
		payload,
	);
}
