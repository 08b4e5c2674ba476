import type { INodeProperties } from 'n8n-workflow';

import { templateIdLocator } from '../../../shared/descriptions';
import { deleteTemplate } from '../../../shared/transport';
import { deleteById, readTemplateId, shownFor } from '../common';

export const properties: INodeProperties[] = [
	{
		...templateIdLocator,
		description: 'The template to delete: pick it from the list, or enter its ID',
	},
];

export const description = shownFor('template', 'delete', properties);

export const execute = deleteById(readTemplateId, deleteTemplate);
