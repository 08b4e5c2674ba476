import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { templateFolderIdLocator } from '../../../shared/descriptions';
import { withoutSecrets } from '../../../shared/helpers/document';
import { CONCURRENCY, paired, perItem } from '../../../shared/helpers/items';
import { getTemplateFolder } from '../../../shared/transport';
import { readTemplateFolderId } from '../ids';

export const properties: INodeProperties[] = [
	{
		...templateFolderIdLocator,
		description: 'The folder to get: pick it from the list, or enter its ID',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['templateFolder'], operation: ['get'] } },
	properties,
);

export const execute = perItem(
	readTemplateFolderId,
	async (ctx, id, i) =>
		paired(withoutSecrets(await getTemplateFolder(ctx, id, { itemIndex: i })), i),
	CONCURRENCY,
);
