import type { INodeProperties } from 'n8n-workflow';

import { templateFolderIdLocator } from '../../../shared/descriptions';
import { withoutSecrets } from '../../../shared/helpers/document';
import { CONCURRENCY, paired, perItem } from '../../../shared/helpers/items';
import { updateTemplateFolder } from '../../../shared/transport';
import { readTemplateFolderId, shownFor } from '../common';
import { checkFolderName, folderName } from '../../descriptions/library';

export const properties: INodeProperties[] = [
	{
		...templateFolderIdLocator,
		description: 'The folder to rename: pick it from the list, or enter its ID',
	},
	folderName('The new name of the folder'),
];

export const description = shownFor('templateFolder', 'update', properties);

export const execute = perItem(
	(ctx, i) => ({
		id: readTemplateFolderId(ctx, i),
		fields: { identifier: checkFolderName(ctx.getNodeParameter('identifier', i, '')) },
	}),
	async (ctx, { id, fields }, i) =>
		paired(withoutSecrets(await updateTemplateFolder(ctx, id, fields, { itemIndex: i })), i),
	CONCURRENCY,
);
