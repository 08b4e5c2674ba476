import type { INodeProperties } from 'n8n-workflow';

import { returnAllAndLimit, workspaceIdLocator } from '../../../shared/descriptions';
import { listSnippets } from '../../../shared/transport';
import { shownFor, getManyInWorkspace } from '../common';

export const properties: INodeProperties[] = [
	{ ...workspaceIdLocator, description: 'The workspace whose snippets to list' },
	...returnAllAndLimit,
];

export const description = shownFor('snippet', 'getAll', properties);

export const execute = getManyInWorkspace(listSnippets);
