// Types of the sandbox's public API (the implementation is plain CommonJS in index.js).

export type ListOrder = 'newest' | 'oldest' | 'random';

export interface SandboxOptions {
	/** 0 (default) picks a free port. */
	port?: number;
	/** default '127.0.0.1' */
	host?: string;
	/** the valid Bearer key; default 'sk_test_sandbox_0123456789abcdef' */
	apiKey?: string;
	/** time spent in `pending` before `generating`; default 100 */
	pendingMs?: number;
	/** time spent in `generating` before `success`/`failure`; default 1500 */
	generatingMs?: number;
	/** account has share links: documents carry `public_share_link`; default false */
	shareLinks?: boolean;
	/** life of a signed download_url; default 900000 (15 min) */
	downloadTtlMs?: number;
	/** q[updated_since] keeps floor(updated_at/1000) >= since (true, default) or > since (false) */
	updatedSinceInclusive?: boolean;
	/** order of list results; 'random' reshuffles on every request. Default 'newest'. */
	listOrder?: ListOrder;
	/** a document changed at updated_at shows up in LIST results only once now >= updated_at + lag. Default 0. */
	visibilityLagMs?: number;
	/** 'real' (default) or 'manual' (nothing moves until clock.advance/set) */
	clock?: 'real' | 'manual';
	/** initial sandbox time in ms (manual clock; with the real clock it offsets the clock) */
	startTime?: number;
	/**
	 * The month's document quota left: each success takes one. Past it, a write that starts a
	 * generation answers 422 "You've reached your quota…" (`quotaMode: 'refuse'`, the
	 * default), or is accepted and fails with 'Quota exceeded' (`'fail'`). Default 1000.
	 */
	availableDocuments?: number;
	quotaMode?: 'refuse' | 'fail';
	/** The generation queue: at most this many documents generate at once (0: no limit, the default). */
	workers?: number;
	/** Files are padded with spaces to this size (bytes), streamed as sent; default 0. */
	fileSizeBytes?: number;
	/** the plan's longest template retention (`ttl`, seconds): a longer one is 422; a new
	 * template starts with it; default 2592000 (30 days) */
	maxTemplateTtl?: number;
	/** makes ids and randomness deterministic */
	seed?: number;
	/** how long documents/sync holds the request before answering with the document as it is; default 30000 */
	syncLimitMs?: number;
	/** the whsec_ secret every delivery is signed with; default DEFAULT_WEBHOOK_SECRET */
	webhookSecret?: string;
	/** false: registered hooks receive nothing when documents finish; default true */
	webhooks?: boolean;
	/** the document list honours page[size] (1–100, else 24); default true; false: always 24 */
	honourPageSize?: boolean;
	/** documents show `filename` before success too, as the real service may: while
	 * `generating`, and on a "Quota exceeded" failure; default false (only with success) */
	earlyFilename?: boolean;
	/** snippets and template folders answer `page=all` with pages of 24 and their meta, as a
	 * service that ignored it would; default false */
	ignorePageAll?: boolean;
	/** A request limit on API calls; default none (see RateLimit). */
	rateLimit?: RateLimit | null;
}

/** At most `requests` API calls per window of `perMs`, then 429. */
export interface RateLimit {
	requests: number;
	perMs: number;
	/**
	 * 'fixed' (default): windows on multiples of perMs; 'sliding': the last perMs; 'bucket': a
	 * token bucket refilled at `requests` per perMs, holding at most `burst` tokens.
	 */
	window?: 'fixed' | 'sliding' | 'bucket';
	/** The bucket's size (`window: 'bucket'`); default `requests`. */
	burst?: number;
	/** false: a 429 without Retry-After; default true (whole seconds to the window's end). */
	retryAfter?: boolean;
	/** 'x': X-RateLimit-Limit/Remaining/Reset; 'ietf': RateLimit and RateLimit-Policy; default none. */
	headers?: 'none' | 'x' | 'ietf';
	/** Whether refused calls count against the limit; default false. */
	countRefused?: boolean;
}

export interface RestHook {
	id: string;
	url: string;
	event: string;
	workspace_id: string;
	document_template_ids: string[] | null;
	custom_channel: string | null;
	platform: string | null;
}

export interface Delivery {
	/** the svix-id sent */
	id: string;
	url: string;
	/** status code of the receiver's answer; 0 when it could not be reached */
	status: number;
	answer: string;
	documentId?: string;
	at: number;
}

export interface DeliveryOptions {
	/** svix-id (default: a new one); give an old one to repeat a delivery */
	id?: string;
	/** svix-timestamp in seconds (default: now) */
	timestamp?: number;
	/** seconds to subtract from now for svix-timestamp (a stale delivery) */
	ageSeconds?: number;
	/** sign with this secret instead (a forged delivery) */
	secret?: string;
	/** the svix-signature header as given */
	signature?: string;
	/** no svix-* headers at all */
	unsigned?: boolean;
	/** the body to send instead of {document} */
	rawBody?: string;
	/** changes the body after it was signed */
	tamper?: (body: string) => string;
	/** Headers sent besides the signature's (`content-type` replaces `application/json`). */
	headers?: Record<string, string>;
}

export const DEFAULT_WEBHOOK_SECRET: string;

export interface LoggedRequest {
	/** 'req-N' (also sent back as the x-request-id header) */
	id: string;
	method: string;
	/** path without the query string */
	path: string;
	/** parsed query; raw keys ('q[status]'); keys ending in [] are always arrays, repeated keys become arrays */
	query: Record<string, string | string[]>;
	rawQuery: string;
	/** lower-cased header names */
	headers: Record<string, string | string[] | undefined>;
	authorization: string | undefined;
	/** parsed JSON, or the raw string when not JSON, or undefined when empty */
	body: unknown;
	/** status code answered; null while still in flight; 0 when the socket was destroyed (drop / reset-after-handling / the client went away first) */
	status: number | null;
	/** sandbox clock (ms) when the request arrived */
	at: number;
	/** type of the fault applied to this request, if any */
	fault?: FaultType;
}

export interface RequestFilter {
	method?: string;
	/** string prefix of the path, or a RegExp tested against the path */
	path?: string | RegExp;
}

export type FaultType = 'status' | 'drop' | 'delay' | 'reset-after-handling' | 'cut';

export interface Fault extends RequestFilter {
	type: FaultType;
	/** how many matching requests it applies to; default 1; Infinity allowed */
	times?: number;
	/** how many matching requests pass untouched before it applies; default 0 */
	after?: number;
	/** for type 'status' */
	status?: number;
	/** Retry-After header value (seconds or HTTP date), for type 'status' */
	retryAfter?: string;
	/** for type 'status': Retry-After as the HTTP date this many ms after the fault answers
	 * (sandbox clock; whole seconds, floored); takes precedence over `retryAfter` */
	retryAfterDateInMs?: number;
	/** response body for type 'status' (object -> JSON; string -> text/html when it starts with '<', else text/plain).
	 * Default: error shape 1 with the status. */
	body?: object | string;
	/** for type 'delay': how long the request is held (real milliseconds) before it is handled;
	 * on the other types, held that long before the fault acts. `faults.release(id)` ends the
	 * holds sooner. */
	delayMs?: number;
	/** for type 'status': handle the request first (e.g. really create the document), then answer the status */
	afterHandling?: boolean;
	/** for type 'cut': bytes of the body sent before the connection breaks; default half */
	afterBytes?: number;
}

export interface SandboxClock {
	now(): number;
	/** moves time forward, running every transition due by then (each stamped with its due instant) */
	advance(ms: number): number;
	set(ms: number): number;
	readonly mode: 'real' | 'manual';
}

export type DocumentStatus = 'draft' | 'pending' | 'generating' | 'success' | 'failure';

export interface GenerationLogRecord {
	type: 'info' | 'error';
	message: string;
	/** ms */
	timestamp: number;
}

/** The internal record (times are ms numbers; payload/meta are JSON strings as the API shows them). */
export interface DocumentRecord {
	id: string;
	app_id: string;
	checksum: string;
	created_at: number;
	updated_at: number;
	document_template_id: string;
	document_template_identifier: string;
	output_type: 'pdf' | 'image';
	status: DocumentStatus | string;
	payload: string;
	meta: string | null;
	filename: string | null;
	failure_cause: string | null;
	generation_logs: GenerationLogRecord[];
}

export interface TemplateRecord {
	id: string;
	identifier: string;
	app_id: string;
	output_type: 'pdf' | 'image';
	is_draft: boolean;
	template_folder_identifier: string | null;
	template_folder_id?: string | null;
	/** the engine it renders with (published), and the one its draft names */
	pdf_engine_id?: string;
	pdf_engine_draft_id?: string;
	pdf_engine_name?: string;
	pdf_engine_deprecated_on?: string | null;
	body: string;
	body_draft: string;
	scss_style: string;
	scss_style_draft: string;
	/** strings of JSON, as the API shows them */
	sample_data: string;
	sample_data_draft: string;
	/** JSON fields (objects): an update's `settings_draft` replaces the draft settings whole */
	settings: TemplateSettings;
	settings_draft: TemplateSettings;
	/** seconds a document of the template is kept (capped by `maxTemplateTtl`) */
	ttl: number;
	deleted_at: string | null;
	created_at: number;
	updated_at: number;
}

/** A template's settings: page settings of a PDF template, or an image template's size. */
export interface TemplateSettings {
	paper_format?: 'a3' | 'a4' | 'a5' | 'letter' | 'legal' | 'custom';
	paper_width?: number;
	paper_height?: number;
	orientation?: 'portrait' | 'landscape';
	margin?: number | { top?: number; right?: number; bottom?: number; left?: number };
	header?: { left?: string; center?: string; right?: string; content?: string };
	footer?: { left?: string; center?: string; right?: string; content?: string };
	inject_javascript?: boolean | string;
	use_emojis?: boolean;
	use_paged?: boolean;
	width?: number;
	height?: number;
	transparent?: boolean;
}

/** A snippet or a template folder as the sandbox keeps it (times as ms numbers). */
export interface LibraryRecord {
	id: string;
	identifier: string;
	/** snippets */
	code?: string;
	workspace_id?: string;
	/** folders */
	app_id?: string;
	created_at: number;
	updated_at: number;
}

export interface PdfEngineRecord {
	id: string;
	name: string;
	version: number;
	deprecated_on: string | null;
}

export interface WorkspaceRecord {
	id: string;
	identifier: string;
	created_at: number;
	updated_at: number;
}

export interface CreateDocumentFields {
	id?: string;
	/** default: the first template ('invoice') */
	document_template_id?: string;
	payload?: object | string;
	meta?: object | string | null;
	/** default 'draft'; 'pending'/'generating' start the lifecycle; 'success'/'failure' are set at once
	 * (no quota used); any other string is stored as is */
	status?: DocumentStatus | string;
	/** ms, Date or ISO string */
	updated_at?: number | string | Date;
	created_at?: number | string | Date;
	/** with status 'success': overrides the file name */
	filename?: string;
	/** with status 'failure': the cause (default the always-fails cause) */
	failure_cause?: string;
}

export type UpdateDocumentFields = Omit<CreateDocumentFields, 'id' | 'created_at'>;

export interface Sandbox {
	/** 'http://127.0.0.1:PORT' (host root, no /api/v1) */
	readonly url: string;
	readonly port: number;
	/** the valid Bearer key (follows setOptions({apiKey})) */
	readonly apiKey: string;
	close(): Promise<void>;
	requests: LoggedRequest[];
	/** 429 answers sent by the request limit (`rateLimit`). */
	readonly limited: number;
	resetRequests(): void;
	count(filter?: RequestFilter): number;
	faults: {
		add(fault: Fault): number;
		remove(id: number): boolean;
		clear(): void;
		list(): Array<Fault & { id: number; remaining: number; hits: number }>;
		/** Ends now the holds (`delayMs`) of the requests this fault holds; answers how many. */
		release(id: number): number;
	};
	clock: SandboxClock;
	documents: Map<string, DocumentRecord>;
	/** seeded: invoice, receipt, always-fails (workspace 'Acme Billing'); payslip, contract, badge (image) ('Acme HR') */
	templates: TemplateRecord[];
	/** seeded: 'Acme Billing', 'Acme HR' */
	workspaces: WorkspaceRecord[];
	/** snippets (seeded: 'company-footer' in 'Acme Billing'), template folders (from the seeded
	 * templates: 'Billing', 'Payroll') and PDF engines ('v3' deprecated on 2025-06-30, 'v4') */
	library: { snippets: LibraryRecord[]; folders: LibraryRecord[]; engines: PdfEngineRecord[] };
	/** account state (available_documents is the remaining quota) */
	account: { id: string; available_documents: number; created_at: number; updated_at: number };
	webhooks: {
		hooks: Map<string, RestHook>;
		deliveries: Delivery[];
		readonly secret: string;
		send(url: string, document: unknown, opts?: DeliveryOptions): Promise<Delivery>;
		sign(id: string, timestamp: string, body: string): string;
		/** the card a delivery carries: meta as a string of JSON, or an object on request */
		documentOf(id: string, opts?: { metaAsObject?: boolean }): Record<string, unknown>;
		/** a quota warning (default figures, overridable) to every hook registered for it */
		quotaWarning(figures?: Record<string, unknown>, opts?: DeliveryOptions): Promise<Delivery[]>;
	};
	/** current options (live object; change them with setOptions) */
	readonly options: Readonly<Required<Omit<SandboxOptions, 'startTime' | 'seed'>>> &
		Pick<SandboxOptions, 'startTime' | 'seed'>;
	createDocument(fields?: CreateDocumentFields): DocumentRecord;
	updateDocument(id: string, fields: UpdateDocumentFields): DocumentRecord;
	deleteDocument(id: string): boolean;
	setOptions(
		partial: Partial<Omit<SandboxOptions, 'clock' | 'port' | 'host' | 'seed' | 'startTime'>>,
	): void;
	/** a freshly signed download URL, or null when the document never succeeded */
	downloadUrlFor(id: string): string | null;
	/** the Document JSON the API would answer now */
	documentJson(id: string): Record<string, unknown>;
	/** the DocumentCard JSON the API would answer now */
	cardJson(id: string): Record<string, unknown>;
}

export function startSandbox(options?: SandboxOptions): Promise<Sandbox>;
export const DEFAULT_API_KEY: string;
export const PAGE_SIZE: number;
