import type { INodeProperties } from 'n8n-workflow';

import { workspaceIdLocator } from '../../../shared/descriptions';
import { withoutSecrets } from '../../../shared/helpers/document';
import { CONCURRENCY, paired, perItem } from '../../../shared/helpers/items';
import { createTemplateFolder } from '../../../shared/transport';
import { readWorkspaceId, shownFor } from '../common';
import { checkFolderName, folderName } from '../../descriptions/library';

export const properties: INodeProperties[] = [
	{ ...workspaceIdLocator, description: 'The workspace to create the folder in' },
	folderName('The name of the folder, as the dashboard and the template lists show it'),
];

export const description = shownFor('templateFolder', 'create', properties);

export const execute = perItem(
	(ctx, i) => ({
		app_id: readWorkspaceId(ctx, i),
		identifier: checkFolderName(ctx.getNodeParameter('identifier', i, '')),
	}),
	async (ctx, fields, i) =>
		paired(withoutSecrets(await createTemplateFolder(ctx, fields, { itemIndex: i })), i),
	CONCURRENCY,
);
