import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { templateIdLocator } from '../../../shared/descriptions';
import { CONCURRENCY, paired, perItem } from '../../../shared/helpers/items';
import { deleteTemplate } from '../../../shared/transport';
import { readTemplateId } from '../ids';

export const properties: INodeProperties[] = [
	{
		...templateIdLocator,
		description: 'The template to delete: pick it from the list, or enter its ID',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['template'], operation: ['delete'] } },
	properties,
);

export const execute = perItem(
	readTemplateId,
	async (ctx, id, i) => {
		await deleteTemplate(ctx, id, { itemIndex: i });
		return paired({ deleted: true, id }, i);
	},
	CONCURRENCY,
);
