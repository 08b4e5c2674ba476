'use strict';
// Webhooks of the sandbox, as the service sends them through Svix: `rest_hooks` registration
// and removal, and a signed delivery to every matching hook when a document finishes
// (success or failure), `meta` as a string of JSON as the service's newest clients expect;
// quota warnings (a body that is not a document). Tests can also send forged, stale,
// unsigned and repeated deliveries.

const crypto = require('crypto');
const http = require('http');

/** The signing secret of every hook in the sandbox (the dashboard shows it per endpoint). */
const DEFAULT_WEBHOOK_SECRET = `whsec_${Buffer.from('sandbox-webhook-signing-key-0001').toString('base64')}`;
const EVENTS = ['documents.generation.success', 'documents.generation.failure', 'quota.warning'];

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` with the key after `whsec_`. */
function sign(secret, id, timestamp, body) {
	const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
	const mac = crypto
		.createHmac('sha256', key)
		.update(`${id}.${timestamp}.${body}`)
		.digest('base64');
	return `v1,${mac}`;
}

/** POSTs a body to a URL with the given headers; resolves with the answer's status and body. */
function post(url, body, headers) {
	return new Promise((resolve) => {
		const req = http.request(
			url,
			{ method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
			(res) => {
				const chunks = [];
				res.on('data', (c) => chunks.push(c));
				res.on('end', () =>
					resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }),
				);
			},
		);
		req.on('error', (error) => resolve({ status: 0, body: String(error.message) }));
		req.setTimeout(15_000, () => req.destroy(new Error('timeout')));
		req.end(body);
	});
}

function createWebhooks({ store, random, clock, options }) {
	const hooks = new Map();
	const deliveries = [];
	let nextDelivery = 1;
	const secret = () => options.webhookSecret;

	/**
	 * A delivery: signed unless told otherwise. `tamper` changes the body after signing;
	 * `rawBody` replaces the body (a quota warning's, say); `headers` are sent besides the
	 * signature's (a `content-type` replaces `application/json`).
	 */
	async function send(url, document, opts = {}) {
		const body = opts.rawBody ?? JSON.stringify({ document });
		// Unique like the service's own (msg_ and a random key), across sandboxes too: a
		// receiver that remembers ids must not mistake another sandbox's delivery for a repeat.
		const id =
			opts.id ??
			`msg_${String(nextDelivery++).padStart(4, '0')}${crypto.randomBytes(10).toString('hex')}`;
		const timestamp = String(
			opts.timestamp ?? Math.floor(clock.now() / 1000) + (opts.ageSeconds ? -opts.ageSeconds : 0),
		);
		const headers = { ...opts.headers };
		if (!opts.unsigned) {
			headers['svix-id'] = id;
			headers['svix-timestamp'] = timestamp;
			headers['svix-signature'] =
				opts.signature ?? sign(opts.secret ?? secret(), id, timestamp, body);
		}
		const sentBody = opts.tamper ? opts.tamper(body) : body;
		const answer = await post(url, sentBody, headers);
		const entry = {
			id,
			url,
			status: answer.status,
			answer: answer.body,
			documentId: document && document.id,
			at: clock.now(),
		};
		deliveries.push(entry);
		return entry;
	}

	/**
	 * The card of a document as a webhook carries it: `meta` as a string of JSON (as the API
	 * answers it; the docs page shows an object, which `{ metaAsObject: true }` gives).
	 */
	function documentOf(rec, opts = {}) {
		const card = store.asCard(rec);
		if (!opts.metaAsObject) return card;
		try {
			return { ...card, meta: JSON.parse(card.meta) };
		} catch {
			return card;
		}
	}

	function channelOf(meta) {
		let value = meta;
		if (typeof value === 'string') {
			try {
				value = JSON.parse(value);
			} catch {
				return undefined;
			}
		}
		return value && typeof value === 'object' ? value._webhook_channel : undefined;
	}

	function matching(document, event) {
		const channel = channelOf(document.meta);
		return [...hooks.values()].filter(
			(h) =>
				h.event
					.split(',')
					.map((e) => e.trim())
					.includes(event) &&
				h.workspace_id === document.app_id &&
				(!h.document_template_ids ||
					!h.document_template_ids.length ||
					h.document_template_ids.includes(document.document_template_id)) &&
				(!h.custom_channel || h.custom_channel === channel),
		);
	}

	/** Called by the store when a document reaches success or failure. */
	function onFinished(rec) {
		if (options.webhooks === false) return;
		const document = documentOf(rec);
		for (const hook of matching(document, `documents.generation.${rec.status}`))
			void send(hook.url, document);
	}

	/** A quota warning (`quota.warning`) to every hook registered for it: its figures only. */
	function quotaWarning(figures = {}, opts = {}) {
		const body = JSON.stringify({
			period_start: '2026-10-01T00:00:00Z',
			period_end: '2026-11-01T00:00:00Z',
			available_documents: 100,
			threshold: 80,
			...figures,
		});
		const targets = [...hooks.values()].filter((h) =>
			h.event
				.split(',')
				.map((e) => e.trim())
				.includes('quota.warning'),
		);
		return Promise.all(targets.map((h) => send(h.url, undefined, { ...opts, rawBody: body })));
	}

	function routes({ json, notFound, withBody, unprocessable }) {
		return [
			[
				'POST',
				/^\/api\/v1\/rest_hooks$/,
				(ctx) =>
					withBody(ctx, 'rest_hook', (body) => {
						const errors = {};
						const add = (k, m) => (errors[k] = errors[k] || []).push(m);
						if (typeof body.url !== 'string' || !/^https?:\/\//.test(body.url))
							add('url', 'is invalid');
						// One event, or several separated by commas (the official client joins them so).
						const events =
							typeof body.event === 'string' ? body.event.split(',').map((e) => e.trim()) : [];
						if (!events.length || events.some((e) => !EVENTS.includes(e)))
							add('event', 'is not included in the list');
						if (!store.workspaces.some((w) => w.id === body.workspace_id))
							add('workspace', 'must exist');
						const templates = body.document_template_ids;
						if (
							templates !== undefined &&
							(!Array.isArray(templates) || templates.some((t) => !store.templateById(t)))
						)
							add('document_templates', 'must exist');
						if (Object.keys(errors).length) return unprocessable(errors);
						const id = crypto.randomUUID ? crypto.randomUUID() : random.bytes(16).toString('hex');
						const hook = {
							id,
							url: body.url,
							event: body.event,
							workspace_id: body.workspace_id,
							document_template_ids: templates ?? null,
							custom_channel: body.custom_channel ?? null,
							platform: body.platform ?? null,
							created_at: new Date(clock.now()).toISOString(),
							updated_at: new Date(clock.now()).toISOString(),
						};
						hooks.set(id, hook);
						return json(201, { rest_hook: hook });
					}),
			],
			[
				'DELETE',
				/^\/api\/v1\/rest_hooks\/([^/]+)$/,
				(ctx, id) =>
					hooks.delete(id) ? { status: 204, headers: {}, body: '' } : notFound('RestHook', id),
			],
		];
	}

	return {
		documentOf,
		hooks,
		deliveries,
		send,
		sign: (id, ts, body) => sign(secret(), id, ts, body),
		onFinished,
		quotaWarning,
		routes,
		secret,
	};
}

module.exports = { createWebhooks, DEFAULT_WEBHOOK_SECRET, sign };
