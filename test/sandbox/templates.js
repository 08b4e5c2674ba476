'use strict';
// Templates of the sandbox: the full record as the service keeps it (with an auth_token, as
// the service has, which clients must never output), the document_templates routes, the
// template cards' list (folders, sort) and the draft's debug preview. The seeded templates'
// bodies and sample data are in seeded.js.

const crypto = require('crypto');
const { uuidV4, isoTime } = require('./util');
const {
	defaultSettings,
	settingsErrors,
	ttlErrors,
	DEFAULT_MAX_TTL,
} = require('./templateSettings');

const OUTPUT_TYPES = ['pdf', 'image', 'png', 'jpg', 'webp'];

/** A template record; times are ms numbers. Drafts start equal to the published fields. */
function newTemplate({ random, identifier, app_id, output_type = 'pdf', ...rest }) {
	const body = rest.body ?? `<h1>${identifier}</h1>`;
	const scss = rest.scss_style ?? 'body { font-family: Helvetica; }';
	const sample = rest.sample_data ?? '{}';
	return {
		id: uuidV4(random),
		identifier,
		app_id,
		output_type,
		is_draft: rest.is_draft ?? true,
		template_folder_identifier: rest.template_folder_identifier ?? null,
		template_folder_id: rest.template_folder_identifier ? uuidV4(random) : null,
		body,
		body_draft: body,
		scss_style: scss,
		scss_style_draft: scss,
		sample_data: sample,
		sample_data_draft: sample,
		settings: defaultSettings(output_type === 'pdf' ? 'pdf' : 'image'),
		settings_draft: defaultSettings(output_type === 'pdf' ? 'pdf' : 'image'),
		ttl: rest.ttl ?? DEFAULT_MAX_TTL,
		deleted_at: null,
		edition_mode: 'code',
		pdf_engine_name: 'v4',
		auth_token: random.bytes(16).toString('hex'),
		created_at: rest.created_at,
		updated_at: rest.updated_at ?? rest.created_at,
	};
}

/**
 * The full record, as GET /document_templates/:id answers it (auth_token included; the
 * engine's deprecation date is a card's field only), with its live `preview_url` and a
 * `checksum` of its draft.
 */
function asTemplate(t, previews) {
	const record = { ...t, created_at: isoTime(t.created_at), updated_at: isoTime(t.updated_at) };
	delete record.pdf_engine_deprecated_on;
	const drafts = [t.body_draft, t.scss_style_draft, t.sample_data_draft];
	record.checksum = crypto
		.createHash('md5')
		.update(JSON.stringify([...drafts, t.settings_draft]))
		.digest('hex');
	if (previews) record.preview_url = previews.previewUrlOf(t);
	return record;
}

/** Checks a create/update body's fields; returns the changes or throws ValidationError. */
function templateChanges(body, creating, { workspaces, ValidationError, catalog, maxTtl }) {
	const errors = {};
	const add = (k, m) => (errors[k] = errors[k] || []).push(m);
	if (body === null || typeof body !== 'object' || Array.isArray(body))
		throw new ValidationError({ document_template: ['is missing'] });
	const out = {};
	if (body.identifier !== undefined || creating) {
		if (typeof body.identifier !== 'string' || body.identifier.trim() === '')
			add('identifier', "can't be blank");
		else out.identifier = body.identifier.trim();
	}
	if (body.app_id !== undefined || creating) {
		if (!workspaces.some((w) => w.id === body.app_id)) add('app', 'must exist');
		else out.app_id = body.app_id;
	}
	for (const key of ['body_draft', 'scss_style_draft']) {
		if (body[key] === undefined) continue;
		if (typeof body[key] !== 'string') add(key, 'must be a text');
		else out[key] = body[key];
	}
	if (body.sample_data_draft !== undefined) {
		const value = body.sample_data_draft;
		if (value !== null && typeof value === 'object' && !Array.isArray(value))
			out.sample_data_draft = JSON.stringify(value);
		else if (typeof value === 'string') {
			try {
				JSON.parse(value);
				out.sample_data_draft = value;
			} catch {
				add('sample_data_draft', 'must be valid JSON');
			}
		} else add('sample_data_draft', 'must be a JSON object');
	}
	// A JSON field: the object sent replaces the draft settings whole (nothing is merged).
	if (body.settings_draft !== undefined) {
		const messages = settingsErrors(body.settings_draft);
		messages.forEach((m) => add('settings_draft', m));
		if (!messages.length) out.settings_draft = structuredClone(body.settings_draft);
	}
	if (body.ttl !== undefined) {
		const messages = ttlErrors(body.ttl, maxTtl);
		messages.forEach((m) => add('ttl', m));
		if (!messages.length) out.ttl = body.ttl;
	}
	if (body.pdf_engine_draft_id !== undefined) {
		if (!catalog.engineById(body.pdf_engine_draft_id)) add('pdf_engine_draft', 'must exist');
		else out.pdf_engine_draft_id = body.pdf_engine_draft_id;
	}
	if (body.template_folder_id !== undefined) {
		const folder =
			body.template_folder_id === null ? null : catalog.folderById(body.template_folder_id);
		if (folder === undefined) add('template_folder', 'must exist');
		else {
			out.template_folder_id = folder ? folder.id : null;
			out.template_folder_identifier = folder ? folder.identifier : null;
		}
	}
	if (body.output_type !== undefined) {
		if (!OUTPUT_TYPES.includes(body.output_type)) add('output_type', 'is not included in the list');
		else out.output_type = body.output_type;
	}
	if (Object.keys(errors).length) throw new ValidationError(errors);
	return out;
}

const SORTS = {
	identifier: (a, b) => a.identifier.localeCompare(b.identifier),
	updated_at: (a, b) => a.updated_at - b.updated_at,
	created_at: (a, b) => a.created_at - b.created_at,
};

/**
 * Narrows template cards by `q[folders]` (`all`, `none` for templates in no folder, or
 * comma-joined folder IDs) and orders them by `sort` (`identifier`, `-updated_at`, ...; by
 * identifier when absent). Answers { list } or { refused } (400) for a form it does not know.
 */
function foldersAndSort(list, query, queryValue) {
	const refuse = (detail) => ({ refused: { status: 400, title: 'Bad Request', detail } });
	if (query['q[folders][]'] !== undefined)
		return refuse(
			'q[folders][] is not a form the service knows: send q[folders]=all, none or ID1,ID2',
		);
	if (query['q[sort]'] !== undefined)
		return refuse(
			'q[sort] is not a parameter the service knows: send sort=identifier or sort=-updated_at',
		);
	const folders = queryValue(query, 'q[folders]');
	let out = list;
	if (folders !== undefined && folders !== 'all') {
		const ids = String(folders)
			.split(',')
			.map((id) => id.trim())
			.filter(Boolean);
		out = list.filter((t) =>
			folders === 'none' ? !t.template_folder_id : ids.includes(t.template_folder_id),
		);
	}
	const sort = String(queryValue(query, 'sort') ?? 'identifier');
	const compare = SORTS[sort.replace(/^-/, '')];
	if (!compare)
		return refuse(`sort=${sort} is not an order the service knows: sort=identifier or -updated_at`);
	const sign = sort.startsWith('-') ? -1 : 1;
	return { list: out.slice().sort((a, b) => sign * compare(a, b)) };
}

/**
 * The document_templates and document_template_cards routes, and the draft's debug
 * preview: [methods, pattern, handler(ctx, id)]. `deps` gives the store, the clock, the
 * random source, the previews and the response helpers of the sandbox.
 */
function templateRoutes(deps) {
	const { store, catalog, random, now, json, notFound, withBody, paginate, queryValue } = deps;
	const { previews, errorList, options } = deps;
	const checks = {
		workspaces: store.workspaces,
		ValidationError: store.ValidationError,
		catalog,
		maxTtl: options.maxTemplateTtl,
	};
	const record = (t) => asTemplate(t, previews);
	return [
		[
			'GET',
			/^\/api\/v1\/document_template_cards$/,
			(ctx) => {
				const workspaceId = queryValue(ctx.query, 'q[workspace_id]');
				const search = String(queryValue(ctx.query, 'q[search]') || '')
					.trim()
					.toLowerCase();
				const found = store.templates.filter(
					(t) =>
						(!workspaceId || t.app_id === workspaceId) &&
						(!search || t.identifier.toLowerCase().includes(search)),
				);
				const { list, refused } = foldersAndSort(found, ctx.query, queryValue);
				if (refused) return errorList(refused.status, refused.title, refused.detail);
				if (queryValue(ctx.query, 'page') === 'all')
					return json(200, { document_template_cards: list.map(store.asTemplateCard) });
				const { items, meta } = paginate(list, ctx.query);
				return json(200, { document_template_cards: items.map(store.asTemplateCard), meta });
			},
		],
		[
			'GET',
			/^\/api\/v1\/document_template_cards\/([^/]+)$/,
			(ctx, id) => {
				const t = store.templateById(id);
				return t
					? json(200, { document_template_card: store.asTemplateCard(t) })
					: notFound('DocumentTemplate', id);
			},
		],
		[
			// The draft rendered with its sample data, as the official CLI previews it.
			'GET',
			/^\/api\/v1\/document_template_debugs\/([^/]+)$/,
			(ctx, id) => {
				const t = store.templateById(id);
				return t
					? json(200, { document_template_debug: { url: previews.debugUrlOf(t) } })
					: notFound('DocumentTemplate', id);
			},
		],
		[
			// The full records, 24 a page (the service's own n8n node tests its credential here).
			'GET',
			/^\/api\/v1\/document_templates$/,
			(ctx) => {
				const workspaceId = queryValue(ctx.query, 'q[workspace_id]');
				const list = store.templates.filter((t) => !workspaceId || t.app_id === workspaceId);
				const { items, meta } = paginate(list, ctx.query);
				return json(200, { document_templates: items.map(record), meta });
			},
		],
		[
			'GET',
			/^\/api\/v1\/document_templates\/([^/]+)$/,
			(ctx, id) => {
				const t = store.templateById(id);
				return t ? json(200, { document_template: record(t) }) : notFound('DocumentTemplate', id);
			},
		],
		[
			'POST',
			/^\/api\/v1\/document_templates$/,
			(ctx) =>
				withBody(ctx, 'document_template', (body) => {
					const changes = templateChanges(body, true, checks);
					const at = now();
					const t = newTemplate({
						random,
						identifier: changes.identifier,
						app_id: changes.app_id,
						output_type: changes.output_type ?? 'pdf',
						ttl: Math.min(DEFAULT_MAX_TTL, options.maxTemplateTtl),
						created_at: at,
					});
					// A new template renders with the current engine unless its draft names one.
					const engine = catalog.engines.find((e) => !e.deprecated_on);
					Object.assign(t, {
						pdf_engine_id: engine.id,
						pdf_engine_name: engine.name,
						pdf_engine_deprecated_on: engine.deprecated_on,
						pdf_engine_draft_id: engine.id,
					});
					Object.assign(t, changes);
					store.templates.push(t);
					return json(201, { document_template: record(t) });
				}),
		],
		[
			['PUT', 'PATCH'],
			/^\/api\/v1\/document_templates\/([^/]+)$/,
			(ctx, id) => {
				const t = store.templateById(id);
				if (!t) return notFound('DocumentTemplate', id);
				return withBody(ctx, 'document_template', (body) => {
					Object.assign(t, templateChanges(body, false, checks), { updated_at: now() });
					return json(200, { document_template: record(t) });
				});
			},
		],
		[
			'DELETE',
			/^\/api\/v1\/document_templates\/([^/]+)$/,
			(ctx, id) => {
				const index = store.templates.findIndex((t) => t.id === id);
				if (index < 0) return notFound('DocumentTemplate', id);
				store.templates.splice(index, 1);
				return { status: 204, headers: {}, body: '' };
			},
		],
	];
}

module.exports = {
	newTemplate,
	asTemplate,
	templateRoutes,
	OUTPUT_TYPES,
};
