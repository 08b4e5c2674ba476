import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { templateIdLocator } from '../../../shared/descriptions';
import { withoutSecrets } from '../../../shared/helpers/document';
import { CONCURRENCY, paired, perItem } from '../../../shared/helpers/items';
import { getTemplate } from '../../../shared/transport';
import { readTemplateId } from '../ids';

export const properties: INodeProperties[] = [
	{
		...templateIdLocator,
		description: 'The template to get: pick it from the list, or enter its ID',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['template'], operation: ['get'] } },
	properties,
);

export const execute = perItem(
	readTemplateId,
	async (ctx, id, i) => paired(withoutSecrets(await getTemplate(ctx, id, { itemIndex: i })), i),
	CONCURRENCY,
);
