import type { INodeProperties } from 'n8n-workflow';

import { templateIdLocator } from '../../../shared/descriptions';
import { getTemplate } from '../../../shared/transport';
import { getById, readTemplateId, shownFor } from '../common';

export const properties: INodeProperties[] = [
	{
		...templateIdLocator,
		description: 'The template to get: pick it from the list, or enter its ID',
	},
];

export const description = shownFor('template', 'get', properties);

export const execute = getById(readTemplateId, getTemplate);
