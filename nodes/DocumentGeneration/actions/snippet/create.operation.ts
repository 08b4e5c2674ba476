import type { INodeProperties } from 'n8n-workflow';

import { workspaceIdLocator } from '../../../shared/descriptions';
import { withoutSecrets } from '../../../shared/helpers/document';
import { CONCURRENCY, paired, perItem } from '../../../shared/helpers/items';
import { createSnippet } from '../../../shared/transport';
import { readWorkspaceId, shownFor } from '../common';
import {
	checkSnippetCode,
	checkSnippetName,
	snippetCode,
	snippetName,
} from '../../descriptions/library';

export const properties: INodeProperties[] = [
	{ ...workspaceIdLocator, description: 'The workspace to create the snippet in' },
	snippetName,
	snippetCode,
];

export const description = shownFor('snippet', 'create', properties);

export const execute = perItem(
	(ctx, i) => ({
		workspace_id: readWorkspaceId(ctx, i),
		identifier: checkSnippetName(ctx.getNodeParameter('identifier', i, '')),
		code: checkSnippetCode(ctx.getNodeParameter('code', i, ''), true),
	}),
	async (ctx, fields, i) =>
		paired(withoutSecrets(await createSnippet(ctx, fields, { itemIndex: i })), i),
	CONCURRENCY,
);
