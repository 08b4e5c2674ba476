import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { templateIdLocator } from '../../../shared/descriptions';
import { CONCURRENCY, paired, perItem } from '../../../shared/helpers/items';
import { InputError } from '../../../shared/helpers/parse';
import { getTemplate } from '../../../shared/transport';
import { readTemplateId, shownFor } from '../common';
import { TemplateTooLarge } from '../../templateFields/liquidReader';
import type { TemplateField, TemplateSource } from '../../templateFields/templateFields';
import { lineFields, sourceOf, templateFields } from '../../templateFields/templateFields';

export const properties: INodeProperties[] = [
	{
		...templateIdLocator,
		description: 'The template whose fields to list: pick it from the list, or enter its ID',
	},
	{
		displayName: 'Version',
		name: 'version',
		type: 'options',
		options: [
			{
				name: 'Published',
				value: 'published',
				description: 'What documents are generated with (the draft if never published)',
			},
			{ name: 'Draft', value: 'draft', description: 'What the dashboard is editing' },
		],
		default: 'published',
		description: 'Which body and sample data of the template to read',
	},
];

export const description = shownFor('template', 'getFields', properties);

/** A sample value worth showing beside its field: text, a number or a yes/no. */
const isExample = (value: unknown) => ['string', 'number', 'boolean'].includes(typeof value);

/** One field as the output lists it: its path and type, and whether the sample data has it. */
function fieldEntry(field: TemplateField, fields: TemplateField[]): IDataObject {
	const entry: IDataObject = {
		path: field.path,
		type: field.type,
		inSampleData: field.sample !== undefined,
	};
	if (isExample(field.sample)) entry.example = field.sample as string | number | boolean;
	if (field.type === 'array')
		entry.itemFields = (lineFields(fields, field.path) ?? [])
			.filter((line) => !line.sampleOnly)
			.map(({ path, type }) => ({ path, type }));
	return entry;
}

/** The refusal of a template beyond the bounds its fields are read within. */
function tooLargeToList(error: TemplateTooLarge): InputError {
	return new InputError(error.message, 'Read its fields in the dashboard instead');
}

/** The fields a template's body reads, typed from its sample data, and those the sample lacks. */
export const execute = perItem(
	(ctx, i) => ({
		id: readTemplateId(ctx, i),
		version: (ctx.getNodeParameter('version', i, 'published') === 'draft'
			? 'draft'
			: 'published') as TemplateSource['version'],
	}),
	async (ctx, asked, i) => {
		const template = await getTemplate(ctx, asked.id, { itemIndex: i });
		const { version, body, sampleData } = sourceOf(template, asked.version);
		let fields: TemplateField[];
		try {
			fields = templateFields(body, sampleData);
		} catch (error) {
			if (!(error instanceof TemplateTooLarge))
				throw new NodeOperationError(ctx.getNode(), error as Error);
			throw tooLargeToList(error);
		}
		const read = fields.filter((field) => !field.sampleOnly);
		return paired(
			{
				id: asked.id,
				identifier: template.identifier ?? null,
				version,
				fields: read.map((field) => fieldEntry(field, fields)),
				missingFromSampleData: read.filter((f) => f.sample === undefined).map((f) => f.path),
			},
			i,
		);
	},
	CONCURRENCY,
);
