/** The shapes of the answers the node relies on: unknown keys pass, optional fields may be null. */
import { z } from 'zod';

import { withLinkExpiry } from '../helpers/linkExpiry';

const nullableString = z.string().nullable().optional();
const jsonish = z.union([z.string(), z.record(z.unknown()), z.null()]).optional();
/** An object whose unknown keys pass through. */
const loose = <T extends z.ZodRawShape>(shape: T) => z.object(shape).passthrough();

export const documentSchema = loose({
	id: z.string().min(1),
	status: z.string().min(1),
	app_id: nullableString,
	document_template_id: nullableString,
	download_url: nullableString,
	filename: nullableString,
	failure_cause: nullableString,
	created_at: nullableString,
	updated_at: nullableString,
	meta: jsonish,
	payload: jsonish,
})
	// Read now: its download link says when it ends (`download_url_expires_at`).
	.transform((document) => withLinkExpiry(document, Date.now()));

export const documentEnvelope = loose({ document: documentSchema });
export const documentCardEnvelope = loose({ document_card: documentSchema });
/** The answer of `documents/sync`: a card, or (tolerated) a document. */
export const syncEnvelope = loose({
	document_card: documentSchema.optional(),
	document: documentSchema.optional(),
}).refine((v) => v.document_card !== undefined || v.document !== undefined, {
	message: 'Required',
	path: ['document_card'],
});

export const pageMetaSchema = loose({
	current_page: z.number().nullable().optional(),
	next_page: z.number().nullable().optional(),
	total_pages: z.number().nullable().optional(),
});
const pageMeta = pageMetaSchema.nullable().optional();

export const documentCardListEnvelope = loose({
	document_cards: z.array(documentSchema),
	meta: pageMeta,
});
export const accountEnvelope = loose({ current_user: loose({ id: z.string() }) });

export const templateCardListEnvelope = loose({
	document_template_cards: z.array(
		loose({ id: z.string(), identifier: nullableString, app_id: nullableString }),
	),
	meta: pageMeta,
});
export const templateEnvelope = loose({ document_template: loose({ id: z.string() }) });
export const templateDebugEnvelope = loose({
	document_template_debug: loose({ url: z.string().min(1) }),
});
export const restHookEnvelope = loose({
	rest_hook: loose({ id: z.union([z.string(), z.number()]) }),
});
export const workspaceCardListEnvelope = loose({
	workspace_cards: z.array(loose({ id: z.string(), identifier: nullableString })),
	meta: pageMeta,
});

/** A record of the workspace's library (a snippet, a template folder): an id and a name. */
const libraryRecord = loose({ id: z.string().min(1), identifier: nullableString });
export const snippetEnvelope = loose({ snippet: libraryRecord });
export const snippetListEnvelope = loose({ snippets: z.array(libraryRecord), meta: pageMeta });
export const templateFolderEnvelope = loose({ template_folder: libraryRecord });
export const templateFolderListEnvelope = loose({
	template_folders: z.array(libraryRecord),
	meta: pageMeta,
});

/** `GET /api/v1/pdf_engines`: not paged. `deprecated_on` is a date, or null while supported. */
export const pdfEngineListEnvelope = loose({
	pdf_engines: z.array(
		loose({
			id: z.union([z.string().min(1), z.number()]),
			name: nullableString,
			version: z.union([z.string(), z.number()]).nullable().optional(),
			deprecated_on: nullableString,
		}),
	),
});
