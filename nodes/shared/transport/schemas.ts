/**
 * The shapes of the answers the node relies on (zod), checked before use: unknown keys pass and
 * optional fields may be missing or null; an answer lacking what the node needs is a clear error.
 */
import { z } from 'zod';

import { withLinkExpiry } from '../helpers/linkExpiry';

const nullableString = z.string().nullable().optional();
const jsonish = z.union([z.string(), z.record(z.unknown()), z.null()]).optional();

export const documentSchema = z
	.object({
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
	.passthrough()
	// Read now: its download link says when it ends (`download_url_expires_at`).
	.transform((document) => withLinkExpiry(document, Date.now()));

export const documentEnvelope = z.object({ document: documentSchema }).passthrough();
export const documentCardEnvelope = z.object({ document_card: documentSchema }).passthrough();
/** The answer of `documents/sync`: a card, or (tolerated) a document. */
export const syncEnvelope = z
	.object({ document_card: documentSchema.optional(), document: documentSchema.optional() })
	.passthrough()
	.refine((v) => v.document_card !== undefined || v.document !== undefined, {
		message: 'Required',
		path: ['document_card'],
	});

export const pageMetaSchema = z
	.object({
		current_page: z.number().nullable().optional(),
		next_page: z.number().nullable().optional(),
		total_pages: z.number().nullable().optional(),
	})
	.passthrough();

export const documentCardListEnvelope = z
	.object({
		document_cards: z.array(documentSchema),
		meta: pageMetaSchema.nullable().optional(),
	})
	.passthrough();

export const accountEnvelope = z
	.object({ current_user: z.object({ id: z.string() }).passthrough() })
	.passthrough();

export const templateCardListEnvelope = z
	.object({
		document_template_cards: z.array(
			z
				.object({ id: z.string(), identifier: nullableString, app_id: nullableString })
				.passthrough(),
		),
		meta: pageMetaSchema.nullable().optional(),
	})
	.passthrough();

export const templateEnvelope = z
	.object({ document_template: z.object({ id: z.string() }).passthrough() })
	.passthrough();

export const templateDebugEnvelope = z
	.object({ document_template_debug: z.object({ url: z.string().min(1) }).passthrough() })
	.passthrough();

export const restHookEnvelope = z
	.object({ rest_hook: z.object({ id: z.union([z.string(), z.number()]) }).passthrough() })
	.passthrough();

export const workspaceCardListEnvelope = z
	.object({
		workspace_cards: z.array(
			z.object({ id: z.string(), identifier: nullableString }).passthrough(),
		),
		meta: pageMetaSchema.nullable().optional(),
	})
	.passthrough();

/** A record of the workspace's library (a snippet, a template folder): an id and a name. */
const libraryRecord = z.object({ id: z.string().min(1), identifier: nullableString }).passthrough();

export const snippetEnvelope = z.object({ snippet: libraryRecord }).passthrough();
export const snippetListEnvelope = z
	.object({ snippets: z.array(libraryRecord), meta: pageMetaSchema.nullable().optional() })
	.passthrough();

export const templateFolderEnvelope = z.object({ template_folder: libraryRecord }).passthrough();
export const templateFolderListEnvelope = z
	.object({
		template_folders: z.array(libraryRecord),
		meta: pageMetaSchema.nullable().optional(),
	})
	.passthrough();

/** `GET /api/v1/pdf_engines`: not paged. `deprecated_on` is a date, or null while supported. */
export const pdfEngineListEnvelope = z
	.object({
		pdf_engines: z.array(
			z
				.object({
					id: z.union([z.string().min(1), z.number()]),
					name: nullableString,
					version: z.union([z.string(), z.number()]).nullable().optional(),
					deprecated_on: nullableString,
				})
				.passthrough(),
		),
	})
	.passthrough();
