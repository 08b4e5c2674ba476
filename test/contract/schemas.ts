// Strict zod schemas of what the service answers (as described in
// docs/spec/*.md). Used to hold the sandbox to the contract; other
// tests may reuse them.
import { z } from 'zod';

/** ISO 8601 with milliseconds and a numeric offset: 2026-11-21T10:12:31.123+00:00 */
export const IsoTime = z
	.string()
	.regex(
		/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/,
		'ISO time with ms and offset',
	);
export const Uuid = z.string().uuid();
export const Status = z.enum(['draft', 'pending', 'generating', 'success', 'failure']);
export const OutputType = z.enum(['pdf', 'image']);

/** a string holding a JSON object */
export const JsonObjectString = z.string().refine((s) => {
	try {
		const v = JSON.parse(s);
		return v !== null && typeof v === 'object' && !Array.isArray(v);
	} catch {
		return false;
	}
}, 'string of a JSON object');

export const GenerationLog = z
	.object({
		type: z.enum(['info', 'error']),
		message: z.string(),
		timestamp: IsoTime,
	})
	.strict();

const documentCommon = {
	id: Uuid,
	app_id: Uuid,
	created_at: IsoTime,
	document_template_id: Uuid,
	download_url: z.string().url().nullable(),
	failure_cause: z.string().nullable(),
	filename: z.string().nullable(),
	meta: JsonObjectString.nullable(),
	public_share_link: z.string().url().nullable().optional(),
	status: Status,
	updated_at: IsoTime,
	output_type: OutputType,
};

/** The rules that tie fields to the status. */
function statusRules<
	T extends {
		status: string;
		download_url: string | null;
		filename: string | null;
		failure_cause: string | null;
		public_share_link?: string | null;
	},
>(d: T, ctx: z.RefinementCtx) {
	const ok = d.status === 'success';
	if (ok !== (d.download_url !== null))
		ctx.addIssue({ code: 'custom', message: 'download_url is set exactly when status is success' });
	if (ok !== (d.filename !== null))
		ctx.addIssue({ code: 'custom', message: 'filename is set exactly when status is success' });
	if ((d.status === 'failure') !== (d.failure_cause !== null)) {
		ctx.addIssue({
			code: 'custom',
			message: 'failure_cause is set exactly when status is failure',
		});
	}
	if (d.public_share_link !== undefined && d.public_share_link !== null && !ok) {
		ctx.addIssue({ code: 'custom', message: 'public_share_link is non-null only on success' });
	}
}

export const Document = z
	.object({
		...documentCommon,
		checksum: z.string(),
		generation_logs: z.array(GenerationLog),
		payload: JsonObjectString,
		preview_url: z.string().url(),
	})
	.strict()
	.superRefine(statusRules);

export const DocumentCard = z
	.object({
		...documentCommon,
		document_template_identifier: z.string(),
		preview_url: z.string().url(),
	})
	.strict()
	.superRefine(statusRules);

export const Account = z
	.object({
		id: Uuid,
		auth_token: z.string(),
		available_documents: z.number().int().nonnegative(),
		created_at: IsoTime,
		current_plan: z.string(),
		current_plan_interval: z.string(),
		desired_name: z.string(),
		email: z.string(),
		lang: z.string(),
		paying_customer: z.boolean(),
		trial_ends_on: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
		updated_at: IsoTime,
		block_resources: z.boolean(),
		share_links: z.boolean(),
	})
	.strict();

export const AccountEnvelope = z.object({ current_user: Account }).strict();
export const DocumentEnvelope = z.object({ document: Document }).strict();
export const DocumentCardEnvelope = z.object({ document_card: DocumentCard }).strict();

export const ListMeta = z
	.object({
		current_page: z.number().int().positive(),
		next_page: z.number().int().positive().nullable(),
		prev_page: z.number().int().positive().nullable(),
		total_pages: z.number().int().nonnegative(),
	})
	.strict();

export const DocumentCardList = z
	.object({ document_cards: z.array(DocumentCard).max(100), meta: ListMeta })
	.strict();

export const TemplateCard = z
	.object({
		id: Uuid,
		identifier: z.string(),
		app_id: Uuid,
		output_type: OutputType,
		is_draft: z.boolean(),
		template_folder_id: Uuid.nullable(),
		template_folder_identifier: z.string().nullable(),
		edition_mode: z.string(),
		pdf_engine_name: z.string(),
		pdf_engine_deprecated_on: z.string().nullable(),
		auth_token: z.string(),
		created_at: IsoTime,
		updated_at: IsoTime,
	})
	.strict();
export const TemplateCardList = z
	.object({ document_template_cards: z.array(TemplateCard), meta: ListMeta.optional() })
	.strict();

export const WorkspaceCard = z
	.object({ id: Uuid, identifier: z.string(), created_at: IsoTime, updated_at: IsoTime })
	.strict();
export const WorkspaceCardList = z
	.object({ workspace_cards: z.array(WorkspaceCard), meta: ListMeta.optional() })
	.strict();

/** shape 1: 401, 404 (and the sandbox's default fault bodies) */
export const ErrorList = z
	.object({
		errors: z
			.array(
				z
					.object({ status: z.string().regex(/^\d{3}$/), title: z.string(), detail: z.string() })
					.strict(),
			)
			.min(1),
	})
	.strict();
/** shape 2: 422, field -> messages */
export const ErrorHash = z
	.object({ errors: z.record(z.string(), z.array(z.string()).min(1)) })
	.strict();
/** shape 3: malformed JSON body */
export const ErrorText = z.object({ error: z.string() }).strict();
