'use strict';
// A template's draft rendered with its sample data: the debug file that
// `GET /api/v1/document_template_debugs/:id` points to (a snapshot of the draft, PDF or PNG,
// served with no key), and the live preview page a template's `preview_url` opens.

const { buildPdf, buildLayoutPdf, buildPng } = require('./pdf');
const { renderTemplate, isTemplated } = require('./render');
const { extensionFor, mimeFor } = require('./store');

const NOT_FOUND = {
	status: 404,
	headers: { 'content-type': 'text/plain; charset=utf-8' },
	body: 'Not Found',
};

/** The sample data of a draft as an object ({} when it is not one JSON object). */
function sampleOf(t) {
	try {
		const parsed = JSON.parse(t.sample_data_draft);
		return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
	} catch {
		return {};
	}
}

/** The bytes of a draft rendered with its sample data, as a document of it would be. */
function renderDraft(t) {
	const sample = sampleOf(t);
	if (t.output_type !== 'pdf') return buildPng(`${t.id}${t.body_draft}${t.sample_data_draft}`);
	if (isTemplated(t.body_draft))
		return buildLayoutPdf({ text: renderTemplate(t.body_draft, sample), title: t.identifier });
	return buildPdf({ title: t.identifier, payload: sample, subtitle: `Draft of ${t.identifier}` });
}

const escapeHtml = (s) => String(s).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function createTemplatePreviews({ store, random, baseUrl }) {
	/** Debug snapshots by token: { filename, contentType, bytes }. */
	const debugs = new Map();

	/** The template's live preview page (what `preview_url` opens). */
	const previewUrlOf = (t) => `${baseUrl()}/template_previews/${t.id}`;

	/** Renders the draft now and answers the URL of that file. */
	function debugUrlOf(t) {
		const token = random.bytes(12).toString('hex');
		const filename = `${t.identifier.replace(/[^\w.-]+/g, '-')}-draft.${extensionFor(t.output_type)}`;
		debugs.set(token, { filename, contentType: mimeFor(filename), bytes: renderDraft(t) });
		return `${baseUrl()}/template_debugs/${token}/${encodeURIComponent(filename)}`;
	}

	/** Serves `/template_debugs/...` and `/template_previews/...`, or answers undefined. */
	function serve(ctx) {
		if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return undefined;
		let m = /^\/template_debugs\/([^/]+)\/[^/]+$/.exec(ctx.path);
		if (m) {
			const file = debugs.get(m[1]);
			if (!file) return NOT_FOUND;
			return {
				status: 200,
				headers: { 'content-type': file.contentType, 'content-length': String(file.bytes.length) },
				body: ctx.method === 'HEAD' ? '' : file.bytes,
			};
		}
		m = /^\/template_previews\/([^/]+)$/.exec(ctx.path);
		if (!m) return undefined;
		const t = store.templateById(m[1]);
		if (!t) return NOT_FOUND;
		const body =
			`<!doctype html><title>${escapeHtml(t.identifier)}</title>` +
			`<style>${t.scss_style_draft}</style>${renderTemplate(t.body_draft, sampleOf(t))}`;
		return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body };
	}

	return { previewUrlOf, debugUrlOf, serve, debugs };
}

module.exports = { createTemplatePreviews, renderDraft };
