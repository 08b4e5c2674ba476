/** Create's Documents: one per item, for all, or per Group By key, each item adding a line. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { asNodeError, withoutFileReferences } from '../../shared/helpers/items';
import { InputError, parseJsonObject, preview } from '../../shared/helpers/parse';
import type { DocumentGroup } from '../engine';
import { payloadFromMapping } from '../templateFields/resourceMapper';
import { nameValueRows, PAYLOAD_BOUNDS, payloadFromFields } from './payloadParts';

const GROUPED = { grouping: ['all', 'byKey'] };

export const groupingProperties: INodeProperties[] = [
	{
		displayName: 'Documents',
		name: 'grouping',
		type: 'options',
		options: [
			{
				name: 'One per Item',
				value: 'perItem',
				description: 'Each input item makes its own document',
			},
			{
				name: 'One for All Items',
				value: 'all',
				description:
					'All input items make one document: the first gives its data, each item adds a line',
			},
			{
				name: 'One per Group of Items',
				value: 'byKey',
				description:
					'Items with the same Group By value make one document together, each adding a line',
			},
		],
		default: 'perItem',
		description:
			'How many documents the input items make: line items of an invoice or a statement come from many items',
	},
	{
		displayName: 'Group By',
		name: 'groupKey',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. {{ $json.order_id }}',
		description:
			'A value of each item: items with the same value make one document. Groups keep the order of their first items.',
		displayOptions: { show: { grouping: ['byKey'] } },
	},
	{
		displayName: 'Line Items Path',
		name: 'linesPath',
		type: 'string',
		default: 'lines',
		required: true,
		placeholder: 'e.g. lines or invoice.items',
		description:
			"Where the list of lines goes in the payload (dots make nested objects); it replaces whatever the first item's payload has there",
		displayOptions: { show: GROUPED },
	},
	{
		displayName: 'Line Mode',
		name: 'lineMode',
		type: 'options',
		options: [
			{ name: 'JSON', value: 'json', description: 'Each line as one JSON object' },
			{ name: 'Fields', value: 'fields', description: 'Each line as name/value rows' },
			{
				name: 'Template Fields',
				value: 'templateFields',
				description:
					"The fields of the template's own list at the Line Items Path, typed from its sample data",
			},
		],
		default: 'json',
		description: 'How each item gives its line',
		displayOptions: { show: GROUPED },
	},
	{
		displayName: 'Line (JSON)',
		name: 'line',
		type: 'json',
		default: '={{ $json }}',
		description:
			'The line each item adds, as one JSON object; evaluated for every item of the group',
		hint: 'e.g. {{ { "description": $json.product, "qty": $json.qty, "price": $json.price } }}',
		displayOptions: { show: { ...GROUPED, lineMode: ['json'] } },
	},
	nameValueRows({
		displayName: 'Line Fields',
		name: 'lineFields',
		placeholder: 'Add Line Field',
		description:
			'The line each item adds, one value per row; evaluated for every item of the group',
		show: { ...GROUPED, lineMode: ['fields'] },
		examples: { key: 'e.g. description', value: 'e.g. {{ $json.product }}' },
	}),
	{
		displayName: 'Line Fields of the Template',
		name: 'mappedLineFields',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		typeOptions: {
			loadOptionsDependsOn: ['templateId.value', 'linesPath'],
			resourceMapper: {
				resourceMapperMethod: 'getTemplateLineFields',
				mode: 'add',
				valuesLabel: 'Fields of Each Line',
				fieldWords: { singular: 'line field', plural: 'line fields' },
				addAllFields: true,
				multiKeyMatch: false,
				supportAutoMap: true,
			},
		},
		displayOptions: { show: { ...GROUPED, lineMode: ['templateFields'] } },
	},
];

/** The Group By value of one item, as text; refused when empty or neither text nor a number. */
function groupKeyOf(value: unknown): string {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	throw new InputError(
		`The Group By value ${typeof value === 'string' || value === undefined || value === null ? 'is empty' : `must be text or a number, not ${preview(value)}`}`,
		'Give every item the value that names its document, e.g. {{ $json.order_id }}',
	);
}

/** The documents the items make: groups in the order of their first items. */
export interface Grouping {
	groups: DocumentGroup[];
	/** Each item adds a line. */
	lines: boolean;
	/** Items whose Group By could not be read: each is a group of its own that fails. */
	refused: Map<number, unknown>;
}

/** How Create's items make documents, read from the first item (the setting is the node's). */
export function readGrouping(ctx: IExecuteFunctions, count: number): Grouping {
	const mode = count ? ctx.getNodeParameter('grouping', 0, 'perItem') : 'perItem';
	const all = Array.from({ length: count }, (_, i) => i);
	const refused = new Map<number, unknown>();
	if (mode === 'all')
		return { groups: count ? [{ index: 0, members: all }] : [], lines: true, refused };
	if (mode !== 'byKey')
		return { groups: all.map((i) => ({ index: i, members: [i] })), lines: false, refused };
	const byKey = new Map<string, DocumentGroup>();
	const groups: DocumentGroup[] = [];
	for (const i of all) {
		try {
			const key = groupKeyOf(ctx.getNodeParameter('groupKey', i, ''));
			const group = byKey.get(key);
			if (group) group.members.push(i);
			else {
				const made = { index: i, members: [i] };
				byKey.set(key, made);
				groups.push(made);
			}
		} catch (error) {
			refused.set(i, error);
			groups.push({ index: i, members: [i] });
		}
	}
	return { groups, lines: true, refused };
}

/** The parameters a payload's or a line's object is read from, in each mode. */
const PARAMETERS = {
	payload: { fields: 'payloadFields.values', mapped: 'mappedFields', json: 'payload' },
	line: { fields: 'lineFields.values', mapped: 'mappedLineFields', json: 'line' },
};

/** The object an item gives in its mode: rows, mapped fields, or JSON (anything else). */
export function dataOf(
	ctx: IExecuteFunctions,
	i: number,
	mode: unknown,
	of: keyof typeof PARAMETERS,
	filesInJson: boolean,
): IDataObject | undefined {
	const names = PARAMETERS[of];
	if (mode === 'fields') return payloadFromFields(ctx.getNodeParameter(names.fields, i, []));
	if (mode === 'templateFields') {
		const mapping = ctx.getNodeParameter(names.mapped, i, {}) as IDataObject;
		return payloadFromMapping(mapping, ctx.getInputData()[i]?.json ?? {});
	}
	const json = parseJsonObject(ctx.getNodeParameter(names.json, i, ''), names.json);
	return json && withoutFileReferences(json, filesInJson);
}

function lineOf(
	ctx: IExecuteFunctions,
	i: number,
	mode: unknown,
	filesInJson: boolean,
): IDataObject {
	const line = dataOf(ctx, i, mode, 'line', filesInJson);
	if (line && Object.keys(line).length) return line;
	throw new InputError(
		'The line is empty',
		mode === 'json'
			? 'Give each item a line as one JSON object, e.g. {{ { "description": $json.product, "qty": $json.qty } }}'
			: 'Map at least one value of each line',
	);
}

/** Where a group's lines go in its payload, and the lines, one per item in input order. */
export function readLines(
	ctx: IExecuteFunctions,
	group: DocumentGroup,
	filesInJson: boolean,
): { path: string; lines: IDataObject[] } {
	const count = group.members.length;
	if (count > PAYLOAD_BOUNDS.lines)
		throw new InputError(
			`This document would have ${count} line items, more than the ${PAYLOAD_BOUNDS.lines} one document takes`,
			'Make smaller documents: One per Group of Items with a finer Group By, or split the items first (Loop Over Items)',
		);
	const path = String(ctx.getNodeParameter('linesPath', group.index, 'lines') ?? '').trim();
	if (path === '')
		throw new InputError(
			'The Line Items Path is empty',
			'Name where the lines go in the payload, e.g. lines',
		);
	const mode = ctx.getNodeParameter('lineMode', group.index, 'json');
	const lines = group.members.map((i) => {
		try {
			return lineOf(ctx, i, mode, filesInJson);
		} catch (error) {
			throw asNodeError(ctx, error, i);
		}
	});
	return { path, lines };
}
