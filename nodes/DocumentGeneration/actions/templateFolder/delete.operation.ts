import type { INodeProperties } from 'n8n-workflow';

import { templateFolderIdLocator } from '../../../shared/descriptions';
import { deleteTemplateFolder } from '../../../shared/transport';
import { deleteById, readTemplateFolderId, shownFor } from '../common';

export const properties: INodeProperties[] = [
	{
		...templateFolderIdLocator,
		description: 'The folder to delete: pick it from the list, or enter its ID',
	},
];

export const description = shownFor('templateFolder', 'delete', properties);

export const execute = deleteById(readTemplateFolderId, deleteTemplateFolder);
