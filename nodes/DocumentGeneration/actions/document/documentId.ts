/** The Document parameter (`documentId`) of the get, update, delete and download operations. */
import type { IExecuteFunctions } from 'n8n-workflow';

import { parseId } from '../../../shared/helpers/parse';

/** Item `i`'s document ID, from the list, the ID field or an expression; checked as a UUID. */
export function readDocumentId(ctx: IExecuteFunctions, i: number): string {
	return parseId(
		ctx.getNodeParameter('documentId', i, undefined, { extractValue: true }),
		'document ID',
	);
}
