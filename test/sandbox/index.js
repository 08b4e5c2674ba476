'use strict';
// A local stand-in for the PDFMonkey v1 API (see test/sandbox/README.md).
//
//   const { startSandbox } = require('./test/sandbox');
//   const sb = await startSandbox({ pendingMs: 50, generatingMs: 150 });
//   ... point clients at sb.url with `Authorization: Bearer ${sb.apiKey}` ...
//   await sb.close();

const http = require('http');
const { createClock } = require('./clock');
const { createStore, ValidationError } = require('./store');
const { templateRoutes } = require('./templates');
const { createTemplatePreviews } = require('./templatePreviews');
const { DEFAULT_MAX_TTL } = require('./templateSettings');
const { createWebhooks, DEFAULT_WEBHOOK_SECRET } = require('./webhooks');
const { createCatalog } = require('./catalog');
const { createFiles } = require('./files');
const { createRandom, shuffled, parseQuery, queryValue, queryValues } = require('./util');

const DEFAULT_API_KEY = 'sk_test_sandbox_0123456789abcdef';
const PAGE_SIZE = 24;
const LIST_STATUSES = ['draft', 'pending', 'generating', 'success', 'failure'];
const MAX_BODY = 20 * 1024 * 1024;
const JSON_TYPE = 'application/json; charset=utf-8';
const UNAUTHORIZED_DETAIL =
	'We were unable to authenticate you with the provided API key. Please verify that your API key is correct.';

const DEFAULT_OPTIONS = {
	port: 0,
	host: '127.0.0.1',
	apiKey: DEFAULT_API_KEY,
	pendingMs: 100,
	generatingMs: 1500,
	shareLinks: false,
	downloadTtlMs: 900000,
	updatedSinceInclusive: true,
	listOrder: 'newest',
	visibilityLagMs: 0,
	clock: 'real',
	startTime: undefined,
	availableDocuments: 1000,
	syncLimitMs: 30000,
	webhookSecret: DEFAULT_WEBHOOK_SECRET,
	webhooks: true,
	honourPageSize: true,
	earlyFilename: false,
	ignorePageAll: false,
	rateLimit: null,
	workers: 0,
	quotaMode: 'refuse',
	fileSizeBytes: 0,
	maxTemplateTtl: DEFAULT_MAX_TTL,
	seed: undefined,
};

const LIST_ORDERS = ['newest', 'oldest', 'random'];

// ---- responses ----

function json(status, body, headers = {}) {
	return { status, headers: { 'content-type': JSON_TYPE, ...headers }, body: JSON.stringify(body) };
}

function errorList(status, title, detail) {
	return json(status, { errors: [{ status: String(status), title, detail }] });
}

function notFound(kind, id) {
	return errorList(404, 'Not Found', `We couldn't find any ${kind} with ID "${id}"`);
}

function unprocessable(errors) {
	return json(422, { errors });
}

/** Locates a JSON syntax error as "line L column C" from V8's message when it has a position. */
function jsonErrorText(raw, err) {
	const m = /position (\d+)/.exec(err.message);
	let pos = m ? Number(m[1]) : 0;
	if (!m) {
		// V8 names the offending token; find its first occurrence as a best guess.
		const t = /Unexpected token '(.)'/.exec(err.message);
		if (t) pos = Math.max(0, raw.indexOf(t[1]));
		else if (/end of JSON/.test(err.message)) pos = raw.length;
	}
	const before = raw.slice(0, pos).split('\n');
	return `unexpected character at line ${before.length} column ${before[before.length - 1].length + 1}`;
}

function pageMeta(page, totalPages) {
	return {
		current_page: page,
		next_page: page < totalPages ? page + 1 : null,
		prev_page: page > 1 ? page - 1 : null,
		total_pages: totalPages,
	};
}

function pageNumber(query) {
	const raw = queryValue(query, 'page[number]') ?? queryValue(query, 'page');
	const n = Number.parseInt(raw, 10);
	return Number.isFinite(n) && n >= 1 ? n : 1;
}

/**
 * `page[size]` (a whole number from 1 to 100), else 24; always 24 with `honourPageSize: false`
 * (the service is likely to honour it, but clients must work either way).
 */
function pageSize(query, honoured) {
	const n = Number(queryValue(query, 'page[size]'));
	return honoured && Number.isInteger(n) && n >= 1 && n <= 100 ? n : PAGE_SIZE;
}

/**
 * Slices a list into the requested page with the list meta. An empty list still has one page
 * (`total_pages: 1`, `next_page: null`), so a client looping to the last page stops.
 */
function paginate(list, query, honourPageSize = false) {
	const page = pageNumber(query);
	const size = pageSize(query, honourPageSize);
	const totalPages = Math.max(1, Math.ceil(list.length / size));
	return {
		items: list.slice((page - 1) * size, page * size),
		meta: pageMeta(page, totalPages),
	};
}

// ---- faults ----

function createFaults() {
	let list = [];
	let nextId = 1;
	const matches = (f, method, path) => {
		if (f.method && f.method.toUpperCase() !== method) return false;
		if (f.path === undefined || f.path === null) return true;
		if (f.path instanceof RegExp) {
			f.path.lastIndex = 0;
			return f.path.test(path);
		}
		return path.startsWith(f.path);
	};
	return {
		add(fault) {
			if (
				!fault ||
				!['status', 'drop', 'delay', 'reset-after-handling', 'cut'].includes(fault.type)
			) {
				throw new Error(`sandbox: unknown fault type ${fault && fault.type}`);
			}
			if (fault.type === 'status' && !(fault.status >= 100 && fault.status <= 599)) {
				throw new Error('sandbox: a status fault needs a status');
			}
			const id = nextId++;
			list.push({ ...fault, id, remaining: fault.times === undefined ? 1 : fault.times, hits: 0 });
			return id;
		},
		remove(id) {
			const before = list.length;
			list = list.filter((f) => f.id !== id);
			return list.length !== before;
		},
		clear() {
			list = [];
		},
		list() {
			return list.map((f) => ({ ...f }));
		},
		/** Takes one use of the first matching fault (one with `after` lets that many pass first). */
		take(method, path) {
			const f = list.find((x) => x.remaining > 0 && matches(x, method, path));
			if (!f) return null;
			if (f.after > 0) {
				f.after -= 1;
				return null;
			}
			f.remaining -= 1;
			f.hits += 1;
			if (f.remaining <= 0) list = list.filter((x) => x !== f);
			return f;
		},
	};
}

/**
 * The answer of a status fault at sandbox time `now`. `retryAfterDateInMs` gives Retry-After
 * as the HTTP date that many ms after the answer (whole seconds, floored, as HTTP dates are).
 */
function faultResponse(f, now) {
	const headers = {};
	if (typeof f.retryAfterDateInMs === 'number')
		headers['retry-after'] = new Date(now + f.retryAfterDateInMs).toUTCString();
	else if (f.retryAfter !== undefined && f.retryAfter !== null)
		headers['retry-after'] = String(f.retryAfter);
	if (f.body !== undefined && f.body !== null) {
		if (typeof f.body === 'string') {
			const type = f.body.trimStart().startsWith('<')
				? 'text/html; charset=utf-8'
				: 'text/plain; charset=utf-8';
			return { status: f.status, headers: { 'content-type': type, ...headers }, body: f.body };
		}
		return json(f.status, f.body, headers);
	}
	const title = http.STATUS_CODES[f.status] || 'Error';
	const detail =
		f.status === 429
			? 'Too many requests. Please retry later.'
			: f.status >= 500
				? 'The service is temporarily unavailable. Please retry later.'
				: title;
	return {
		...errorList(f.status, title, detail),
		headers: { 'content-type': JSON_TYPE, ...headers },
	};
}

// ---- rate limit ----

/**
 * The counters of the limit's shapes, each `{ allowed(now), take(now), resetAt(now), remaining }`:
 * `'fixed'` counts in windows aligned on multiples of perMs (as rack-attack does), `'sliding'`
 * the calls of the last perMs, `'bucket'` a token bucket of `burst` tokens (default
 * `requests`) refilled at `requests` per perMs (its reset: when the next token comes).
 */
const LIMIT_SHAPES = {
	fixed(limit) {
		let windowStart = -Infinity;
		let used = 0;
		const roll = (now) => {
			const start = Math.floor(now / limit.perMs) * limit.perMs;
			if (start !== windowStart) [windowStart, used] = [start, 0];
		};
		return {
			allowed: (now) => (roll(now), used < limit.requests),
			take: () => used++,
			resetAt: () => windowStart + limit.perMs,
			remaining: () => Math.max(0, limit.requests - used),
		};
	},
	sliding(limit) {
		let recent = [];
		return {
			allowed: (now) => {
				recent = recent.filter((t) => t > now - limit.perMs);
				return recent.length < limit.requests;
			},
			take: (now) => recent.push(now),
			resetAt: (now) => (recent.length ? recent[0] + limit.perMs : now + limit.perMs),
			remaining: () => Math.max(0, limit.requests - recent.length),
		};
	},
	bucket(limit) {
		const burst = limit.burst ?? limit.requests;
		const perToken = limit.perMs / limit.requests;
		let tokens = burst;
		let filledAt;
		const fill = (now) => {
			tokens = Math.min(burst, tokens + (now - (filledAt ?? now)) / perToken);
			filledAt = now;
		};
		return {
			allowed: (now) => (fill(now), tokens >= 1),
			take: () => (tokens -= 1),
			resetAt: (now) => now + Math.max(0, 1 - tokens) * perToken,
			remaining: () => Math.floor(tokens),
		};
	},
};

/**
 * The request limit of `rateLimit` ({ requests, perMs, window, burst, retryAfter, headers,
 * countRefused }): at most `requests` API calls per `perMs`, counted as `window` says
 * (`LIMIT_SHAPES`; 'fixed' by default). A refused call answers 429, with `Retry-After` (whole
 * seconds to the reset: the window's end, the oldest call leaving the sliding window, the
 * next token) unless `retryAfter: false`. `headers: 'x'` adds X-RateLimit-Limit/Remaining/Reset
 * (a unix time) to every API answer, 'ietf' adds `RateLimit: "default";r=…;t=…` and
 * `RateLimit-Policy: "default";q=…;w=…`. Refused calls count against the limit only with
 * `countRefused: true`. `refused` counts the 429s sent.
 */
function createRateLimiter(getLimit, clock) {
	let counter;
	let counted;
	const state = { refused: 0 };
	const counterFor = (limit) => {
		if (counted !== limit)
			[counted, counter] = [limit, LIMIT_SHAPES[limit.window ?? 'fixed'](limit)];
		return counter;
	};
	const take = () => {
		const limit = getLimit();
		if (!limit || !(limit.requests > 0) || !(limit.perMs > 0)) return { headers: {} };
		const now = clock.now();
		const shape = counterFor(limit);
		const allowed = shape.allowed(now);
		if (allowed || limit.countRefused) shape.take(now);
		const resetAt = shape.resetAt(now);
		const resetSeconds = Math.max(1, Math.ceil((resetAt - now) / 1000));
		const headers = limitHeaders(limit, { remaining: shape.remaining(), resetAt, resetSeconds });
		if (allowed) return { headers };
		state.refused++;
		if (limit.retryAfter !== false) headers['retry-after'] = String(resetSeconds);
		return {
			headers,
			refused: {
				...errorList(429, 'Too Many Requests', 'Too many requests. Please retry later.'),
				headers: { 'content-type': JSON_TYPE, ...headers },
			},
		};
	};
	return { take, state };
}

/** The limit headers `limit.headers` asks for ('x', 'ietf' or none). */
function limitHeaders(limit, { remaining, resetAt, resetSeconds }) {
	if (limit.headers === 'x')
		return {
			'x-ratelimit-limit': String(limit.requests),
			'x-ratelimit-remaining': String(remaining),
			'x-ratelimit-reset': String(Math.ceil(resetAt / 1000)),
		};
	if (limit.headers === 'ietf')
		return {
			ratelimit: `"default";r=${remaining};t=${resetSeconds}`,
			'ratelimit-policy': `"default";q=${limit.requests};w=${Math.round(limit.perMs / 1000)}`,
		};
	return {};
}

// ---- the sandbox ----

async function startSandbox(userOptions = {}) {
	const options = { ...DEFAULT_OPTIONS };
	for (const [k, v] of Object.entries(userOptions || {})) if (v !== undefined) options[k] = v;
	if (!LIST_ORDERS.includes(options.listOrder))
		throw new Error(`sandbox: listOrder must be one of ${LIST_ORDERS}`);

	const random = createRandom(options.seed);
	const scheduler = createClock({ mode: options.clock, startTime: options.startTime });
	const clock = scheduler.clock;
	let baseUrl = '';
	let webhooks = null;
	const store = createStore({
		options,
		random,
		scheduler,
		clock,
		baseUrl: () => baseUrl,
		onFinished: (rec) => webhooks && webhooks.onFinished(rec),
	});
	webhooks = createWebhooks({ store, random, clock, options });
	const catalog = createCatalog({ store, random, now: () => clock.now(), options });
	const previews = createTemplatePreviews({ store, random, baseUrl: () => baseUrl });
	const faults = createFaults();
	const requests = [];
	const sockets = new Set();
	const timers = new Set();
	let closed = false;

	// ---- routing of the JSON API ----

	const routes = [
		['GET', /^\/api\/v1\/current_user$/, () => json(200, { current_user: store.asAccount() })],
		['GET', /^\/api\/v1\/document_cards$/, (ctx) => listDocumentCards(ctx.query)],
		[
			'GET',
			/^\/api\/v1\/document_cards\/([^/]+)$/,
			(ctx, id) => {
				const rec = store.documents.get(id);
				return rec ? json(200, { document_card: store.asCard(rec) }) : notFound('DocumentCard', id);
			},
		],
		['POST', /^\/api\/v1\/documents\/sync$/, (ctx) => createSync(ctx)],
		[
			'POST',
			/^\/api\/v1\/documents$/,
			(ctx) =>
				withDocumentBody(ctx, (doc) =>
					json(201, { document: store.asDocument(store.apiCreate(doc)) }),
				),
		],
		[
			'GET',
			/^\/api\/v1\/documents\/([^/]+)$/,
			(ctx, id) => {
				const rec = store.documents.get(id);
				return rec ? json(200, { document: store.asDocument(rec) }) : notFound('Document', id);
			},
		],
		[
			['PUT', 'PATCH'],
			/^\/api\/v1\/documents\/([^/]+)$/,
			(ctx, id) => {
				const rec = store.documents.get(id);
				if (!rec) return notFound('Document', id);
				return withDocumentBody(ctx, (doc) =>
					json(200, { document: store.asDocument(store.apiUpdate(rec, doc)) }),
				);
			},
		],
		[
			'DELETE',
			/^\/api\/v1\/documents\/([^/]+)$/,
			(ctx, id) =>
				store.remove(id) ? { status: 204, headers: {}, body: '' } : notFound('Document', id),
		],
		['GET', /^\/api\/v1\/workspace_cards$/, (ctx) => listWorkspaceCards(ctx.query)],
		...templateRoutes({
			store,
			catalog,
			random,
			now: () => clock.now(),
			json,
			notFound,
			withBody,
			paginate,
			queryValue,
			previews,
			errorList,
			options,
		}),
		...webhooks.routes({ json, notFound, withBody, unprocessable }),
		...catalog.routes({ json, notFound, withBody, unprocessable, paginate, queryValue }),
	];

	/**
	 * Parses the JSON body and hands its `key` value (e.g. `document`) to fn, mapping errors to
	 * 400/422. The fields may also come without the wrapper (the service's own n8n node sends
	 * a create so): a body with none of the wrapper but some of `fields` is taken as is.
	 */
	function withBody(ctx, key, fn, fields = []) {
		const type = String(ctx.headers['content-type'] || '').toLowerCase();
		let body;
		if (ctx.rawBody.trim() === '') body = {};
		else if (!type.includes('json'))
			body = {}; // not parsed as JSON: the wrapper key is missing
		else {
			try {
				body = JSON.parse(ctx.rawBody);
			} catch (e) {
				return json(400, { error: jsonErrorText(ctx.rawBody, e) });
			}
		}
		if (body === null || typeof body !== 'object' || Array.isArray(body))
			return unprocessable({ [key]: ['is missing'] });
		let inner = body[key];
		if (inner === undefined && fields.some((f) => f in body)) inner = body;
		if (inner === undefined) return unprocessable({ [key]: ['is missing'] });
		try {
			return fn(inner);
		} catch (e) {
			if (e instanceof ValidationError) return unprocessable(e.errors);
			throw e;
		}
	}

	const DOCUMENT_FIELDS = ['document_template_id', 'payload', 'meta', 'status'];
	const withDocumentBody = (ctx, fn) => withBody(ctx, 'document', fn, DOCUMENT_FIELDS);

	async function createSync(ctx) {
		let rec = null;
		const res = withDocumentBody(ctx, (doc) => {
			rec = store.apiCreate(doc, { forceStatus: 'pending' });
			return null;
		});
		if (!rec) return res;
		const finished = await store.waitFinished(rec);
		if (closed) return null;
		if (!finished) return notFound('Document', rec.id);
		return json(200, { document_card: store.asCard(finished) });
	}

	function visibleInLists(rec) {
		return clock.now() >= rec.updated_at + options.visibilityLagMs;
	}

	function order(list, byDate) {
		if (options.listOrder === 'random') return shuffled(list, random);
		const dir = options.listOrder === 'oldest' ? 1 : -1;
		return list.sort((a, b) => {
			const d = byDate(a) - byDate(b);
			if (d !== 0) return dir * d;
			return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
		});
	}

	function listDocumentCards(query) {
		const errors = {};
		// q[status]=x, or the array form q[status][]=x (repeatable): any of them matches.
		const statuses = [...queryValues(query, 'q[status][]'), queryValue(query, 'q[status]')].filter(
			(s) => s !== undefined && s !== '',
		);
		if (statuses.some((s) => !LIST_STATUSES.includes(s))) {
			errors.status = ['is not included in the list'];
		}
		const sinceRaw = queryValue(query, 'q[updated_since]');
		let since;
		if (sinceRaw !== undefined && sinceRaw !== '') {
			if (!/^\s*-?\d+(\.\d+)?\s*$/.test(sinceRaw))
				errors.updated_since = ['must be a unix timestamp in seconds'];
			else since = Math.floor(Number(sinceRaw));
		}
		if (Object.keys(errors).length) return unprocessable(errors);

		// The form every official client sends: one id, or ids joined by commas. The `[]` form
		// (no official client sends it, its handling by the service is unknown) is refused
		// loudly, so that a client sending it fails its tests instead of reading another list.
		if (queryValues(query, 'q[document_template_id][]').length)
			return errorList(
				400,
				'Bad Request',
				'q[document_template_id][] is not a form the sandbox accepts: send q[document_template_id]=ID or ID1,ID2',
			);
		const templateIds = queryValues(query, 'q[document_template_id]')
			.flatMap((v) => String(v).split(','))
			.map((v) => v.trim())
			.filter(Boolean);
		const workspaceId = queryValue(query, 'q[workspace_id]');
		// A document id matches exactly; other text matches part of the file name, case-sensitive.
		const search = String(queryValue(query, 'q[search]') || '').trim();

		let list = [...store.documents.values()].filter((rec) => {
			if (!visibleInLists(rec)) return false;
			if (statuses.length && !statuses.includes(rec.status)) return false;
			if (templateIds.length && !templateIds.includes(rec.document_template_id)) return false;
			if (workspaceId && rec.app_id !== workspaceId) return false;
			if (since !== undefined) {
				const sec = Math.floor(rec.updated_at / 1000);
				if (options.updatedSinceInclusive ? sec < since : sec <= since) return false;
			}
			if (search) {
				const isId = rec.id.toLowerCase() === search.toLowerCase();
				const inName = rec.status === 'success' && rec.filename && rec.filename.includes(search);
				if (!isId && !inName) return false;
			}
			return true;
		});
		list = order(list, (r) => r.updated_at);
		const { items, meta } = paginate(list, query, options.honourPageSize);
		return json(200, { document_cards: items.map(store.asCard), meta });
	}

	function listWorkspaceCards(query) {
		const list = store.workspaces.slice().sort((a, b) => a.identifier.localeCompare(b.identifier));
		if (queryValue(query, 'page') === 'all')
			return json(200, { workspace_cards: list.map(store.asWorkspaceCard) });
		const { items, meta } = paginate(list, query);
		return json(200, { workspace_cards: items.map(store.asWorkspaceCard), meta });
	}

	const files = createFiles({ store, clock, options });

	// ---- rate limit (an option: the service publishes none) ----

	const limiter = createRateLimiter(() => options.rateLimit, clock);

	// ---- dispatch ----

	/** Produces the response descriptor for a request (the "handling"). */
	async function handle(ctx) {
		let m;
		if ((m = /^\/files\/([^/]+)\/([^/]+)$/.exec(ctx.path))) return files.download(ctx, m[1], m[2]);
		if ((m = /^\/share\/([^/]+)\/[^/]+$/.exec(ctx.path))) return files.share(ctx, m[1]);
		if ((m = /^\/preview\/([^/]+)$/.exec(ctx.path)) && ctx.method === 'GET')
			return files.preview(ctx, m[1]);
		const templateFile = previews.serve(ctx);
		if (templateFile) return templateFile;

		const path = ctx.path.length > 1 ? ctx.path.replace(/\/+$/, '') : ctx.path;
		for (const [methods, pattern, fn] of routes) {
			const allowed = Array.isArray(methods) ? methods : [methods];
			const match = pattern.exec(path);
			if (!match || !allowed.includes(ctx.method)) continue;
			if (ctx.authorization !== `Bearer ${options.apiKey}`)
				return errorList(401, 'Unauthorized', UNAUTHORIZED_DETAIL);
			const limit = limiter.take();
			if (limit.refused) return limit.refused;
			const params = match.slice(1).map((p) => {
				try {
					return decodeURIComponent(p);
				} catch {
					return p;
				}
			});
			const answer = await fn(ctx, ...params);
			if (answer) answer.headers = { ...answer.headers, ...limit.headers };
			return answer;
		}
		return errorList(404, 'Not Found', `No route matches [${ctx.method}] "${ctx.path}"`);
	}

	function send(res, entry, r) {
		if (!r) return;
		if (res.destroyed || res.writableEnded) {
			// The client went away before the answer (it was handled all the same).
			if (entry.status === null) entry.status = 0;
			return;
		}
		entry.status = r.status;
		const body = r.body === undefined || r.body === null ? '' : r.body;
		const headers = { ...r.headers };
		if (r.status !== 204 && r.status !== 304 && headers['content-length'] === undefined) {
			headers['content-length'] = String(Buffer.byteLength(body));
		}
		headers['x-request-id'] = entry.id;
		// Date from the sandbox clock (manual or offset), never the host's: Node would add one
		// from the host clock otherwise.
		res.sendDate = false;
		if (headers.date === undefined) headers.date = new Date(clock.now()).toUTCString();
		res.writeHead(r.status, headers);
		if (r.pad > 0) return void sendPadded(res, body, r.pad);
		res.end(r.status === 204 ? undefined : body);
	}

	/** The body, then `pad` spaces, written as the client reads them. */
	async function sendPadded(res, body, pad) {
		const chunk = Buffer.alloc(64 * 1024, 0x20);
		const write = (data) =>
			res.write(data)
				? Promise.resolve()
				: new Promise((resolve) => {
						const done = () => {
							res.off('drain', done);
							res.off('close', done);
							resolve();
						};
						res.on('drain', done);
						res.on('close', done);
					});
		try {
			await write(body);
			for (let left = pad; left > 0 && !res.destroyed; left -= chunk.length)
				await write(left >= chunk.length ? chunk : chunk.subarray(0, left));
			res.end();
		} catch {
			res.destroy();
		}
	}

	function destroy(req, entry) {
		entry.status = 0;
		req.socket.destroy();
	}

	function sleep(ms) {
		return new Promise((resolve) => {
			const t = setTimeout(
				() => {
					timers.delete(t);
					resolve();
				},
				Math.min(ms, 0x7fffffff),
			);
			timers.add(t);
		});
	}

	/** fault id -> the ends of the holds of requests it holds now (see `hold`). */
	const holds = new Map();

	/**
	 * Holds a request for its fault's `delayMs` (real ms), or until `sb.faults.release(id)`
	 * ends the holds of that fault, whichever comes first.
	 */
	function hold(fault) {
		return new Promise((resolve) => {
			let ends = holds.get(fault.id);
			if (!ends) holds.set(fault.id, (ends = new Set()));
			const end = () => {
				clearTimeout(t);
				timers.delete(t);
				ends.delete(end);
				if (!ends.size) holds.delete(fault.id);
				resolve();
			};
			const t = setTimeout(end, Math.min(fault.delayMs || 0, 0x7fffffff));
			timers.add(t);
			ends.add(end);
		});
	}

	let requestSeq = 0;
	async function onRequest(req, res) {
		const chunks = [];
		let size = 0;
		let tooLarge = false;
		for await (const chunk of req) {
			size += chunk.length;
			if (size > MAX_BODY) tooLarge = true;
			else chunks.push(chunk);
		}
		if (closed) return;
		const rawBody = Buffer.concat(chunks).toString('utf8');
		const url = new URL(req.url, 'http://sandbox.invalid');
		const rawQuery = url.search.replace(/^\?/, '');
		let body;
		if (rawBody !== '') {
			try {
				body = JSON.parse(rawBody);
			} catch {
				body = rawBody;
			}
		}
		scheduler.runDue();
		const entry = {
			id: `req-${++requestSeq}`,
			method: req.method,
			path: url.pathname,
			query: parseQuery(rawQuery),
			rawQuery,
			headers: { ...req.headers },
			authorization: req.headers.authorization,
			body,
			status: null,
			at: clock.now(),
		};
		requests.push(entry);
		const ctx = {
			method: req.method,
			path: url.pathname,
			query: entry.query,
			rawQuery,
			headers: req.headers,
			authorization: req.headers.authorization,
			rawBody,
		};

		try {
			if (tooLarge)
				return send(
					res,
					entry,
					errorList(413, 'Payload Too Large', 'The request body is too large.'),
				);
			const fault = faults.take(req.method, url.pathname);
			if (fault) {
				entry.fault = fault.type;
				if (fault.type !== 'delay' && fault.delayMs > 0) {
					// Held first, then the fault acts.
					await hold(fault);
					if (closed) return;
					scheduler.runDue();
				}
				switch (fault.type) {
					case 'drop':
						return destroy(req, entry);
					case 'delay':
						await hold(fault);
						if (closed) return;
						scheduler.runDue();
						return send(res, entry, await handle(ctx));
					case 'reset-after-handling':
						await handle(ctx);
						return destroy(req, entry);
					case 'cut': {
						// The answer starts (status, headers, the first `afterBytes` of the body),
						// then the connection breaks.
						const r = await handle(ctx);
						if (closed || !r) return;
						const body = Buffer.from(r.body ?? '');
						res.sendDate = false;
						res.writeHead(r.status, {
							...r.headers,
							'content-length': String(r.contentLength ?? body.length),
						});
						res.write(body.subarray(0, fault.afterBytes ?? Math.floor(body.length / 2)));
						entry.status = r.status;
						await sleep(50);
						return destroy(req, entry);
					}
					case 'status':
						if (fault.afterHandling) await handle(ctx);
						if (closed) return;
						return send(res, entry, faultResponse(fault, clock.now()));
				}
			}
			send(res, entry, await handle(ctx));
		} catch (e) {
			if (closed) return;
			send(res, entry, errorList(500, 'Internal Server Error', `Sandbox error: ${e && e.message}`));
		}
	}

	const server = http.createServer((req, res) => {
		onRequest(req, res).catch(() => {
			if (!res.headersSent) res.destroy();
		});
	});
	// An idle connection is kept a minute, as servers in front of an API commonly keep it (60 to
	// 75 s). Node's client agent drops its idle connections after 5 s; a server dropping them at
	// the same 5 s races it, and a request sent on a connection the server just closed ends in
	// ECONNRESET (seen on a busy machine: a create that cannot be sent again, failed).
	server.keepAliveTimeout = 60_000;
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});

	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port, options.host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const address = server.address();
	const shownHost =
		options.host === '0.0.0.0' || options.host === '::'
			? '127.0.0.1'
			: options.host.includes(':')
				? `[${options.host}]`
				: options.host;
	baseUrl = `http://${shownHost}:${address.port}`;

	const sb = {
		url: baseUrl,
		port: address.port,
		get apiKey() {
			return options.apiKey;
		},
		requests,
		/** 429 answers sent by the request limit (`rateLimit`). */
		get limited() {
			return limiter.state.refused;
		},
		resetRequests() {
			requests.length = 0;
		},
		count(filter = {}) {
			return requests.filter((r) => {
				if (filter.method && r.method !== filter.method.toUpperCase()) return false;
				if (filter.path instanceof RegExp) {
					filter.path.lastIndex = 0;
					return filter.path.test(r.path);
				}
				if (typeof filter.path === 'string') return r.path.startsWith(filter.path);
				return true;
			}).length;
		},
		faults: {
			add: (f) => faults.add(f),
			remove: (id) => faults.remove(id),
			clear: () => faults.clear(),
			list: () => faults.list(),
			/** Ends now the holds of the requests this fault holds (`delayMs`); answers how many. */
			release(id) {
				const ends = holds.get(id);
				if (!ends) return 0;
				const n = ends.size;
				for (const end of [...ends]) end();
				return n;
			},
		},
		clock,
		documents: store.documents,
		templates: store.templates,
		workspaces: store.workspaces,
		library: { snippets: catalog.snippets, folders: catalog.folders, engines: catalog.engines },
		account: store.account,
		options,
		createDocument: (fields) => store.serverCreate(fields),
		updateDocument: (id, fields) => store.serverUpdate(id, fields),
		deleteDocument: (id) => store.remove(id),
		downloadUrlFor(id) {
			const rec = store.documents.get(id);
			if (!rec) throw new Error(`sandbox: unknown document ${id}`);
			return store.downloadUrlFor(rec);
		},
		/** Registered hooks, deliveries sent, the signing secret, and sending deliveries by hand. */
		webhooks: {
			hooks: webhooks.hooks,
			deliveries: webhooks.deliveries,
			get secret() {
				return options.webhookSecret;
			},
			send: (url, document, opts) => webhooks.send(url, document, opts),
			sign: (id, timestamp, body) => webhooks.sign(id, timestamp, body),
			/** The card of a document as a webhook carries it (meta as an object). */
			documentOf: (id, opts) => webhooks.documentOf(store.documents.get(id), opts),
			quotaWarning: (figures, opts) => webhooks.quotaWarning(figures, opts),
		},
		documentJson: (id) => store.asDocument(store.documents.get(id)),
		cardJson: (id) => store.asCard(store.documents.get(id)),
		setOptions(partial = {}) {
			for (const [k, v] of Object.entries(partial)) {
				if (v === undefined) continue;
				if (k === 'clock' || k === 'port' || k === 'host' || k === 'seed' || k === 'startTime') {
					if (v !== options[k]) throw new Error(`sandbox: option ${k} cannot change at run time`);
					continue;
				}
				if (k === 'listOrder' && !LIST_ORDERS.includes(v))
					throw new Error(`sandbox: listOrder must be one of ${LIST_ORDERS}`);
				if (k === 'availableDocuments') store.account.available_documents = v;
				options[k] = v;
			}
		},
		close() {
			if (closed) return Promise.resolve();
			closed = true;
			scheduler.close();
			store.abandonWaiters();
			for (const t of timers) clearTimeout(t);
			timers.clear();
			return new Promise((resolve) => {
				server.close(() => resolve());
				for (const s of sockets) s.destroy();
				sockets.clear();
				if (typeof server.closeAllConnections === 'function') server.closeAllConnections();
			});
		},
	};
	return sb;
}

module.exports = { startSandbox, DEFAULT_API_KEY, DEFAULT_WEBHOOK_SECRET, PAGE_SIZE };
