import type { INodeProperties } from 'n8n-workflow';

import { templateFolderIdLocator } from '../../../shared/descriptions';
import { getTemplateFolder } from '../../../shared/transport';
import { getById, readTemplateFolderId, shownFor } from '../common';

export const properties: INodeProperties[] = [
	{
		...templateFolderIdLocator,
		description: 'The folder to get: pick it from the list, or enter its ID',
	},
];

export const description = shownFor('templateFolder', 'get', properties);

export const execute = getById(readTemplateFolderId, getTemplateFolder);
