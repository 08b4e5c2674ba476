/** The PDF engines a template can render with (`GET /api/v1/pdf_engines`, not paged). */
import type { IDataObject } from 'n8n-workflow';

import type { CallOptions, TransportContext } from '../types';
import { apiRequest } from './request';
import { pdfEngineListEnvelope } from './schemas';

export async function listPdfEngines(
	ctx: TransportContext,
	options: CallOptions = {},
): Promise<IDataObject[]> {
	const answer = await apiRequest(
		ctx,
		{ method: 'GET', path: '/api/v1/pdf_engines', what: 'list PDF engines', ...options },
		pdfEngineListEnvelope,
	);
	return answer.pdf_engines as IDataObject[];
}
