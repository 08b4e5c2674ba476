import type { INodeProperties } from 'n8n-workflow';

import { snippetIdLocator } from '../../../shared/descriptions';
import { getSnippet } from '../../../shared/transport';
import { getById, readSnippetId, shownFor } from '../common';

export const properties: INodeProperties[] = [
	{
		...snippetIdLocator,
		description: 'The snippet to get: pick it from the list, or enter its ID',
	},
];

export const description = shownFor('snippet', 'get', properties);

export const execute = getById(readSnippetId, getSnippet);
