'use strict';
// The sandbox's data: account, workspaces, templates, documents, their generation
// lifecycle, and how records are shown as API objects (Document, DocumentCard, ...).

const crypto = require('crypto');
const { uuidV4, isoTime, isoDay, amzDate, toMs } = require('./util');
const { buildPdf, buildLayoutPdf, buildPng } = require('./pdf');
const { newTemplate } = require('./templates');
const { SEEDED } = require('./seeded');
const { renderTemplate, isTemplated } = require('./render');

const DAY = 24 * 3600 * 1000;
const FAILING_TEMPLATE = 'always-fails';
const FAILING_CAUSE = "Template rendering failed: undefined variable 'customer'";
const QUOTA_CAUSE = 'Quota exceeded';
const QUOTA_REFUSAL =
	"You've reached your quota of documents for this month. Upgrade your plan or wait for the next month to generate more.";
const SYNC_LIMIT_MS = 30000;

const MIME_BY_EXT = {
	pdf: 'application/pdf',
	png: 'image/png',
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	webp: 'image/webp',
};

function mimeFor(filename) {
	const m = /\.([a-z0-9]+)$/i.exec(filename || '');
	return (m && MIME_BY_EXT[m[1].toLowerCase()]) || 'application/octet-stream';
}

class ValidationError extends Error {
	constructor(errors) {
		super(
			Object.entries(errors)
				.map(([k, v]) => `${k} ${v.join(', ')}`)
				.join('; '),
		);
		this.errors = errors;
	}
}

/**
 * Reads a payload/meta value given as an object or a string of a JSON object.
 * Returns the JSON string to store, or throws a message.
 */
function jsonObjectString(value) {
	let parsed = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value);
		} catch {
			throw new Error('must be a JSON object');
		}
	}
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
		throw new Error('must be a JSON object');
	return JSON.stringify(parsed);
}

function parseOrNull(json) {
	if (json === null || json === undefined) return null;
	try {
		return JSON.parse(json);
	} catch {
		return null;
	}
}

/** The file extension of a template's output: pdf, or the image format (png for "image"). */
function extensionFor(outputType) {
	if (outputType === 'jpg' || outputType === 'jpeg') return 'jpg';
	if (outputType === 'webp') return 'webp';
	if (outputType === 'png' || outputType === 'image') return 'png';
	return 'pdf';
}

/** What a document says its output is: "pdf" or "image" (the service's two values). */
function documentOutputType(templateOutputType) {
	return extensionFor(templateOutputType) === 'pdf' ? 'pdf' : 'image';
}

function createStore({ options, random, scheduler, clock, baseUrl, onFinished }) {
	const now = () => clock.now();
	const secret = random.bytes(32);
	const start = now();

	// ---- seed ----
	const workspaces = [
		{
			id: uuidV4(random),
			identifier: 'Acme Billing',
			created_at: start - 200 * DAY,
			updated_at: start - 20 * DAY,
		},
		{
			id: uuidV4(random),
			identifier: 'Acme HR',
			created_at: start - 150 * DAY,
			updated_at: start - 10 * DAY,
		},
	];
	const seedTemplates = [
		['invoice', 0, 'pdf', 'Billing'],
		['receipt', 0, 'pdf', 'Billing'],
		[FAILING_TEMPLATE, 0, 'pdf', null],
		['payslip', 1, 'pdf', 'Payroll'],
		['contract', 1, 'pdf', null],
		['badge', 1, 'image', null],
	];
	const templates = seedTemplates.map(([identifier, ws, outputType, folder], i) =>
		newTemplate({
			random,
			identifier,
			app_id: workspaces[ws].id,
			output_type: outputType,
			is_draft: false,
			template_folder_identifier: folder,
			...(SEEDED[identifier] ?? {}),
			created_at: start - (120 - i) * DAY,
			updated_at: start - (30 - i) * DAY,
		}),
	);
	const templateById = (id) => templates.find((t) => t.id === id);

	const account = {
		id: uuidV4(random),
		created_at: start - 365 * DAY,
		updated_at: start - 5 * DAY,
		available_documents: options.availableDocuments,
	};

	/** id -> record; records keep times as ms numbers. */
	const documents = new Map();
	/** id -> { epoch, handles[], file, shareToken } (kept off the record so assertions stay clean) */
	const internals = new Map();
	/** id -> Set of callbacks(record|null) waiting for a finished status */
	const finishWaiters = new Map();
	/**
	 * The generation queue when `options.workers` > 0: documents wait (pending) until one of
	 * that many workers is free, then generate for generatingMs each.
	 */
	const queue = [];
	let busyWorkers = 0;

	// ---- lifecycle ----

	function log(rec, at, message, type = 'info') {
		rec.generation_logs.push({ type, message, timestamp: at });
	}

	function cancelGeneration(id) {
		const inn = internals.get(id);
		if (!inn) return;
		inn.epoch++;
		for (const h of inn.handles) h.cancel();
		inn.handles = [];
		if (inn.worker) {
			// A cancelled generation frees its worker for the next document in the queue.
			inn.worker = false;
			busyWorkers--;
			scheduler.schedule(now(), dispatch);
		}
	}

	/** Hands queued documents to free workers (only with `options.workers` > 0). */
	function dispatch(at) {
		while (busyWorkers < options.workers && queue.length) {
			const start = queue.shift();
			if (start.alive()) start.run(at);
		}
	}

	function notifyFinished(rec) {
		if (onFinished) onFinished(rec);
		const waiters = finishWaiters.get(rec.id);
		if (!waiters) return;
		finishWaiters.delete(rec.id);
		for (const cb of waiters) cb(rec);
	}

	function filenameFor(rec, template) {
		const meta = parseOrNull(rec.meta);
		// An image template's format may be chosen per document (meta._type: webp, png, jpg).
		const chosen = meta && typeof meta === 'object' ? meta._type : undefined;
		const image = documentOutputType(template.output_type) === 'image';
		const ext =
			image && ['webp', 'png', 'jpg'].includes(chosen)
				? chosen
				: extensionFor(template.output_type);
		const wanted =
			meta && typeof meta === 'object' && typeof meta._filename === 'string'
				? meta._filename.trim()
				: '';
		if (wanted) {
			const clean = [...wanted]
				.map((c) => (c === '/' || c === '\\' || c.charCodeAt(0) < 0x20 ? '_' : c))
				.join('');
			return clean.toLowerCase().endsWith(`.${ext}`) ? clean : `${clean}.${ext}`;
		}
		return `${template.identifier}-${rec.id.slice(0, 8)}.${ext}`;
	}

	/** Puts a record into a finished state at instant `at`. */
	function finish(rec, at, outcome, cause) {
		const template = templateById(rec.document_template_id);
		rec.updated_at = at;
		if (outcome === 'success') {
			rec.status = 'success';
			rec.failure_cause = null;
			rec.filename = filenameFor(rec, template);
			const inn = internals.get(rec.id);
			inn.file = {
				filename: rec.filename,
				title: template.identifier,
				body: template.body,
				outputType: template.output_type,
				payload: parseOrNull(rec.payload) || {},
				documentId: rec.id,
			};
			log(rec, at, `Document generated successfully: ${rec.filename}`);
		} else {
			rec.status = 'failure';
			rec.filename = null;
			rec.failure_cause = cause;
			log(rec, at, `Generation failed: ${cause}`, 'error');
		}
		notifyFinished(rec);
	}

	function outcomeOf(rec) {
		const template = templateById(rec.document_template_id);
		if (!template || template.identifier === FAILING_TEMPLATE) return ['failure', FAILING_CAUSE];
		if (account.available_documents <= 0) return ['failure', QUOTA_CAUSE];
		return ['success', null];
	}

	/**
	 * Starts (or restarts) generation: pending now, generating after pendingMs (or, with
	 * `options.workers`, once a worker is free), done after generatingMs more.
	 */
	function startGeneration(rec, at, { fromStatus = 'pending' } = {}) {
		cancelGeneration(rec.id);
		const inn = internals.get(rec.id);
		const epoch = inn.epoch;
		const alive = () => documents.get(rec.id) === rec && inn.epoch === epoch;
		const queued = options.workers > 0;
		rec.filename = null;
		rec.failure_cause = null;
		const toFinal = (t) => {
			if (!alive()) return;
			if (inn.worker) {
				inn.worker = false;
				busyWorkers--;
			}
			const [outcome, cause] = outcomeOf(rec);
			if (outcome === 'success') account.available_documents -= 1;
			finish(rec, t, outcome, cause);
			if (queued) dispatch(t);
		};
		const generate = (t) => {
			if (queued) {
				inn.worker = true;
				busyWorkers++;
			}
			inn.handles.push(scheduler.schedule(t + options.generatingMs, toFinal));
		};
		const toGenerating = (t) => {
			if (!alive()) return;
			rec.status = 'generating';
			rec.updated_at = t;
			log(rec, t, 'Generation started');
			generate(t);
		};
		const enqueue = (t) => {
			if (!alive()) return;
			if (!queued) return toGenerating(t);
			queue.push({ alive, run: toGenerating });
			dispatch(t);
		};
		if (fromStatus === 'generating') {
			rec.status = 'generating';
			rec.generation_logs = [];
			log(rec, at, 'Generation started');
			generate(at);
		} else {
			rec.status = 'pending';
			rec.generation_logs = [];
			log(rec, at, 'Document queued for generation');
			inn.handles.push(scheduler.schedule(at + options.pendingMs, enqueue));
		}
	}

	/** Generations started and not finished: each will take one document of the quota. */
	function inProgress() {
		let n = 0;
		for (const rec of documents.values())
			if (rec.status === 'pending' || rec.status === 'generating') n++;
		return n;
	}

	/**
	 * With `quotaMode: 'refuse'` (the default, as the service does), a write that would start a
	 * generation past the quota is refused (422); with 'fail' it is accepted and the document
	 * fails with "Quota exceeded".
	 */
	function checkQuota(status) {
		if (status !== 'pending' || options.quotaMode === 'fail') return;
		if (account.available_documents - inProgress() <= 0)
			throw new ValidationError({ status: [QUOTA_REFUSAL] });
	}

	// ---- create / update (shared by the HTTP API and the server-side helpers) ----

	/**
	 * Validates a `document` body of create/update. Returns normalized changes.
	 * @param {object} doc  the value of the `document` key
	 * @param {boolean} creating
	 * @param {string[]} allowedStatuses
	 */
	function validate(doc, creating, allowedStatuses = ['draft', 'pending']) {
		const errors = {};
		const out = {};
		const add = (k, m) => (errors[k] = errors[k] || []).push(m);
		if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
			throw new ValidationError({ document: ['is missing'] });
		}
		if (creating || doc.document_template_id !== undefined) {
			const t =
				typeof doc.document_template_id === 'string'
					? templateById(doc.document_template_id)
					: undefined;
			if (!t) add('document_template', 'must exist');
			else out.template = t;
		}
		for (const key of ['payload', 'meta']) {
			if (doc[key] === undefined) continue;
			if (doc[key] === null) {
				out[key] = key === 'payload' ? '{}' : null;
				continue;
			}
			try {
				out[key] = jsonObjectString(doc[key]);
			} catch (e) {
				add(key, e.message);
			}
		}
		if (doc.status !== undefined && doc.status !== null) {
			if (!allowedStatuses.includes(doc.status)) add('status', 'is not included in the list');
			else out.status = doc.status;
		}
		if (Object.keys(errors).length) throw new ValidationError(errors);
		return out;
	}

	function checksumOf(rec) {
		return crypto
			.createHash('md5')
			.update(`${rec.document_template_id}\n${rec.payload}`)
			.digest('hex');
	}

	function newRecord({ id, template, payload, meta, at, createdAt }) {
		const rec = {
			id: id || uuidV4(random),
			app_id: template.app_id,
			checksum: '',
			created_at: createdAt === undefined ? at : createdAt,
			updated_at: at,
			document_template_id: template.id,
			document_template_identifier: template.identifier,
			output_type: documentOutputType(template.output_type),
			status: 'draft',
			payload: payload === undefined ? '{}' : payload,
			meta: meta === undefined ? null : meta,
			filename: null,
			failure_cause: null,
			generation_logs: [],
		};
		rec.checksum = checksumOf(rec);
		return rec;
	}

	function insert(rec) {
		if (documents.has(rec.id)) throw new Error(`sandbox: document ${rec.id} exists already`);
		documents.set(rec.id, rec);
		internals.set(rec.id, {
			epoch: 0,
			handles: [],
			file: null,
			shareToken: random.bytes(12).toString('hex'),
		});
	}

	/** HTTP create. `doc` = body.document. */
	function apiCreate(doc, { forceStatus } = {}) {
		const v = validate(doc, true);
		const status = forceStatus || v.status || 'draft';
		checkQuota(status);
		const at = now();
		const rec = newRecord({ template: v.template, payload: v.payload, meta: v.meta, at });
		insert(rec);
		if (status === 'pending') startGeneration(rec, at);
		return rec;
	}

	function applyChanges(rec, v) {
		if (v.template) {
			rec.document_template_id = v.template.id;
			rec.document_template_identifier = v.template.identifier;
			rec.app_id = v.template.app_id;
			rec.output_type = documentOutputType(v.template.output_type);
		}
		if (v.payload !== undefined) rec.payload = v.payload;
		if (v.meta !== undefined) rec.meta = v.meta;
		rec.checksum = checksumOf(rec);
	}

	/** HTTP update. Only given fields change; status 'pending' (re)starts generation. */
	function apiUpdate(rec, doc) {
		const v = validate(doc, false);
		checkQuota(v.status);
		const changed = Object.keys(v).length > 0;
		const at = now();
		applyChanges(rec, v);
		if (changed) rec.updated_at = at;
		if (v.status === 'pending') startGeneration(rec, at);
		else if (v.status === 'draft' && rec.status !== 'draft') {
			cancelGeneration(rec.id);
			rec.status = 'draft';
			rec.filename = null;
			rec.failure_cause = null;
		}
		return rec;
	}

	function remove(id) {
		const rec = documents.get(id);
		if (!rec) return false;
		cancelGeneration(id);
		documents.delete(id);
		internals.delete(id);
		const waiters = finishWaiters.get(id);
		finishWaiters.delete(id);
		if (waiters) for (const cb of waiters) cb(null);
		return true;
	}

	/** Waits until the document is finished (or deleted, or SYNC_LIMIT_MS of sandbox time). */
	function waitFinished(rec) {
		return new Promise((resolve) => {
			if (rec.status === 'success' || rec.status === 'failure') return resolve(rec);
			let set = finishWaiters.get(rec.id);
			if (!set) finishWaiters.set(rec.id, (set = new Set()));
			let handle = null;
			const done = (r) => {
				set.delete(done);
				if (handle) handle.cancel();
				resolve(r);
			};
			set.add(done);
			handle = scheduler.schedule(now() + (options.syncLimitMs ?? SYNC_LIMIT_MS), () =>
				done(documents.get(rec.id) || null),
			);
		});
	}

	/** Drops every sync waiter (on close). */
	function abandonWaiters() {
		finishWaiters.clear();
	}

	// ---- server-side helpers (no HTTP) ----

	function serverCreate(fields = {}) {
		const template = fields.document_template_id
			? templateById(fields.document_template_id)
			: templates[0];
		if (!template) throw new Error(`sandbox: unknown template ${fields.document_template_id}`);
		const v = validate({ payload: fields.payload, meta: fields.meta }, false);
		const at = now();
		const updatedAt = toMs(fields.updated_at);
		const createdAt = toMs(fields.created_at);
		const rec = newRecord({
			id: fields.id,
			template,
			payload: v.payload,
			meta: v.meta,
			at: updatedAt === undefined ? at : updatedAt,
			createdAt:
				createdAt === undefined
					? Math.min(at, updatedAt === undefined ? at : updatedAt)
					: createdAt,
		});
		insert(rec);
		setStatus(rec, fields.status || 'draft', fields, updatedAt === undefined ? at : updatedAt);
		if (updatedAt !== undefined) rec.updated_at = updatedAt;
		return rec;
	}

	function setStatus(rec, status, fields, at) {
		switch (status) {
			case 'draft':
				cancelGeneration(rec.id);
				rec.status = 'draft';
				rec.filename = null;
				rec.failure_cause = null;
				break;
			case 'pending':
			case 'generating':
				startGeneration(rec, now(), { fromStatus: status });
				break;
			case 'success':
				cancelGeneration(rec.id);
				rec.generation_logs = [];
				log(rec, at, 'Generation started');
				finish(rec, at, 'success');
				if (fields.filename) {
					rec.filename = fields.filename;
					internals.get(rec.id).file.filename = fields.filename;
				}
				break;
			case 'failure':
				cancelGeneration(rec.id);
				rec.generation_logs = [];
				log(rec, at, 'Generation started');
				finish(rec, at, 'failure', fields.failure_cause || FAILING_CAUSE);
				break;
			default:
				// any other status string is stored as is (to test unknown statuses)
				cancelGeneration(rec.id);
				rec.status = status;
		}
	}

	function serverUpdate(id, fields = {}) {
		const rec = documents.get(id);
		if (!rec) throw new Error(`sandbox: unknown document ${id}`);
		const doc = {};
		for (const k of ['document_template_id', 'payload', 'meta'])
			if (fields[k] !== undefined) doc[k] = fields[k];
		applyChanges(rec, validate(doc, false));
		const updatedAt = toMs(fields.updated_at);
		const at = updatedAt === undefined ? now() : updatedAt;
		if (fields.status !== undefined) setStatus(rec, fields.status, fields, at);
		else {
			if (fields.filename !== undefined) rec.filename = fields.filename;
			if (fields.failure_cause !== undefined) rec.failure_cause = fields.failure_cause;
		}
		rec.updated_at = at;
		return rec;
	}

	// ---- presentation ----

	function downloadUrlFor(rec) {
		const inn = internals.get(rec.id);
		if (!inn || !inn.file) return null;
		const path = `/files/${rec.id}/${encodeURIComponent(inn.file.filename)}`;
		const signedAt = now();
		const date = amzDate(signedAt);
		// X-Amz-Date has whole seconds: stretch X-Amz-Expires so the URL lives at least downloadTtlMs.
		const expires = Math.max(1, Math.ceil((options.downloadTtlMs + (signedAt % 1000)) / 1000));
		const signature = sign(path, date, expires);
		return (
			`${baseUrl()}${path}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=${date}` +
			`&X-Amz-Expires=${expires}&X-Amz-SignedHeaders=host&X-Amz-Signature=${signature}`
		);
	}

	function sign(path, date, expires) {
		return crypto.createHmac('sha256', secret).update(`${path}\n${date}\n${expires}`).digest('hex');
	}

	function shareLinkFor(rec) {
		const inn = internals.get(rec.id);
		if (rec.status !== 'success' || !inn || !inn.file) return null;
		return `${baseUrl()}/share/${inn.shareToken}/${encodeURIComponent(inn.file.filename)}`;
	}

	/**
	 * The file name a record shows: with `success`; with `earlyFilename`, also the name the
	 * file will have while it generates and on a quota failure, as the real service shows it.
	 */
	function shownFilename(rec) {
		if (rec.status === 'success') return rec.filename;
		if (!options.earlyFilename) return null;
		const early =
			rec.status === 'generating' ||
			(rec.status === 'failure' && rec.failure_cause === QUOTA_CAUSE);
		const template = templateById(rec.document_template_id);
		return early && template ? filenameFor(rec, template) : null;
	}

	function common(rec) {
		return {
			id: rec.id,
			app_id: rec.app_id,
			created_at: isoTime(rec.created_at),
			document_template_id: rec.document_template_id,
			download_url: rec.status === 'success' ? downloadUrlFor(rec) : null,
			failure_cause: rec.status === 'failure' ? rec.failure_cause : null,
			filename: shownFilename(rec),
			meta: rec.meta,
			// Always present (the service sends null when there is no link).
			public_share_link: options.shareLinks ? shareLinkFor(rec) : null,
			status: rec.status,
			updated_at: isoTime(rec.updated_at),
			output_type: rec.output_type,
		};
	}

	function asDocument(rec) {
		const c = common(rec);
		return {
			id: c.id,
			app_id: c.app_id,
			checksum: rec.checksum,
			created_at: c.created_at,
			document_template_id: c.document_template_id,
			download_url: c.download_url,
			failure_cause: c.failure_cause,
			filename: c.filename,
			generation_logs: rec.generation_logs.map((l) => ({
				type: l.type,
				message: l.message,
				timestamp: isoTime(l.timestamp),
			})),
			meta: c.meta,
			payload: rec.payload,
			preview_url: `${baseUrl()}/preview/${rec.id}`,
			public_share_link: c.public_share_link,
			status: c.status,
			updated_at: c.updated_at,
			output_type: c.output_type,
		};
	}

	function asCard(rec) {
		const c = common(rec);
		const t = templateById(rec.document_template_id);
		return {
			id: c.id,
			app_id: c.app_id,
			created_at: c.created_at,
			document_template_id: c.document_template_id,
			document_template_identifier: t ? t.identifier : rec.document_template_identifier,
			download_url: c.download_url,
			failure_cause: c.failure_cause,
			filename: c.filename,
			meta: c.meta,
			preview_url: `${baseUrl()}/preview/${rec.id}`,
			public_share_link: c.public_share_link,
			status: c.status,
			updated_at: c.updated_at,
			output_type: c.output_type,
		};
	}

	function asTemplateCard(t) {
		return {
			id: t.id,
			identifier: t.identifier,
			app_id: t.app_id,
			output_type: t.output_type,
			is_draft: t.is_draft,
			template_folder_id: t.template_folder_id,
			template_folder_identifier: t.template_folder_identifier,
			edition_mode: t.edition_mode,
			pdf_engine_name: t.pdf_engine_name,
			pdf_engine_deprecated_on: t.pdf_engine_deprecated_on ?? null,
			// Cards carry the template's token too (the official client's types say so).
			auth_token: t.auth_token,
			created_at: isoTime(t.created_at),
			updated_at: isoTime(t.updated_at),
		};
	}

	function asWorkspaceCard(w) {
		return {
			id: w.id,
			identifier: w.identifier,
			created_at: isoTime(w.created_at),
			updated_at: isoTime(w.updated_at),
		};
	}

	function asAccount() {
		return {
			id: account.id,
			auth_token: options.apiKey,
			available_documents: Math.max(0, account.available_documents),
			created_at: isoTime(account.created_at),
			current_plan: 'pro',
			current_plan_interval: 'month',
			desired_name: 'Sandbox Tester',
			email: 'sandbox@example.test',
			lang: 'en',
			paying_customer: true,
			trial_ends_on: isoDay(account.created_at + 14 * DAY),
			updated_at: isoTime(account.updated_at),
			block_resources: false,
			share_links: !!options.shareLinks,
		};
	}

	// ---- files ----

	/** The bytes behind a download: { filename, contentType, bytes } or null. */
	function fileOf(id) {
		const inn = internals.get(id);
		if (!inn || !inn.file) return null;
		const f = inn.file;
		if (!f.bytes) {
			f.bytes =
				f.outputType !== 'pdf'
					? buildPng(`${f.documentId}${JSON.stringify(f.payload)}`)
					: isTemplated(f.body)
						? buildLayoutPdf({ text: renderTemplate(f.body, f.payload), title: f.title })
						: buildPdf({
								title: f.title,
								payload: f.payload,
								subtitle: `Document ${f.documentId}`,
							});
		}
		return { filename: f.filename, contentType: mimeFor(f.filename), bytes: f.bytes };
	}

	function fileByShareToken(token) {
		for (const [id, inn] of internals)
			if (inn.shareToken === token) return { id, rec: documents.get(id), file: fileOf(id) };
		return null;
	}

	return {
		workspaces,
		templates,
		templateById,
		account,
		documents,
		apiCreate,
		apiUpdate,
		remove,
		waitFinished,
		abandonWaiters,
		serverCreate,
		serverUpdate,
		downloadUrlFor,
		sign,
		asDocument,
		asCard,
		asTemplateCard,
		asWorkspaceCard,
		asAccount,
		fileOf,
		fileByShareToken,
		ValidationError,
	};
}

module.exports = {
	createStore,
	ValidationError,
	FAILING_CAUSE,
	QUOTA_CAUSE,
	QUOTA_REFUSAL,
	mimeFor,
	extensionFor,
};
