import type { INodeProperties } from 'n8n-workflow';

import { documentIdLocator } from '../../../shared/descriptions';
import { deleteDocument } from '../../../shared/transport';
import { deleteById, readDocumentId, shownFor } from '../common';

export const properties: INodeProperties[] = [
	{
		...documentIdLocator,
		description:
			'The document to delete, with its file: pick it from the list, or enter its ID (a UUID)',
	},
];

export const description = shownFor('document', 'delete', properties);

export const execute = deleteById(readDocumentId, deleteDocument);
