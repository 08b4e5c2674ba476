import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { templateFolderIdLocator } from '../../../shared/descriptions';
import { CONCURRENCY, paired, perItem } from '../../../shared/helpers/items';
import { deleteTemplateFolder } from '../../../shared/transport';
import { readTemplateFolderId } from '../ids';

export const properties: INodeProperties[] = [
	{
		...templateFolderIdLocator,
		description: 'The folder to delete: pick it from the list, or enter its ID',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['templateFolder'], operation: ['delete'] } },
	properties,
);

export const execute = perItem(
	readTemplateFolderId,
	async (ctx, id, i) => {
		await deleteTemplateFolder(ctx, id, { itemIndex: i });
		return paired({ deleted: true, id }, i);
	},
	CONCURRENCY,
);
