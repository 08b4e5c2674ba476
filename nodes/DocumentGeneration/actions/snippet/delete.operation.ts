import type { INodeProperties } from 'n8n-workflow';

import { snippetIdLocator } from '../../../shared/descriptions';
import { deleteSnippet } from '../../../shared/transport';
import { deleteById, readSnippetId, shownFor } from '../common';

export const properties: INodeProperties[] = [
	{
		...snippetIdLocator,
		description:
			'The snippet to delete: pick it from the list, or enter its ID. Templates that include it no longer find it.',
	},
];

export const description = shownFor('snippet', 'delete', properties);

export const execute = deleteById(readSnippetId, deleteSnippet);
