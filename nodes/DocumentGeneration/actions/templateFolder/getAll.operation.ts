import type { INodeProperties } from 'n8n-workflow';

import { returnAllAndLimit, workspaceIdLocator } from '../../../shared/descriptions';
import { listTemplateFolders } from '../../../shared/transport';
import { shownFor, getManyInWorkspace } from '../common';

export const properties: INodeProperties[] = [
	{ ...workspaceIdLocator, description: 'The workspace whose template folders to list' },
	...returnAllAndLimit,
];

export const description = shownFor('templateFolder', 'getAll', properties);

export const execute = getManyInWorkspace(listTemplateFolders);
