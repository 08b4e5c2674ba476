import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { templateIdLocator } from '../../../shared/descriptions';
import { withoutSecrets } from '../../../shared/helpers/document';
import { CONCURRENCY, paired, perItem } from '../../../shared/helpers/items';
import { InputError } from '../../../shared/helpers/parse';
import { updateTemplate } from '../../../shared/transport';
import { readTemplateId } from '../ids';
import { readTemplateFields, templateFields } from '../../descriptions/library';

export const properties: INodeProperties[] = [
	{
		...templateIdLocator,
		description: 'The template to change: pick it from the list, or enter its ID',
	},
	templateFields('Update Fields'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['template'], operation: ['update'] } },
	properties,
);

export const execute = perItem(
	(ctx, i) => {
		const id = readTemplateId(ctx, i);
		const fields = readTemplateFields(ctx, i);
		if (!Object.keys(fields).length)
			throw new InputError(
				'Nothing to update: no field is given',
				'Add at least one field under Update Fields (Name, Body, Styles, Sample Data, Output Type, PDF Engine or Folder)',
			);
		return { id, fields };
	},
	async (ctx, { id, fields }, i) =>
		paired(withoutSecrets(await updateTemplate(ctx, id, fields, { itemIndex: i })), i),
	CONCURRENCY,
);
