/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
// Contract tests of the sandbox: it must answer like the real service as
// docs/spec/service-facts.md describes it, since every node test trusts it.
import { execFileSync } from 'child_process';
import { request } from 'undici';
import type { z } from 'zod';
import { logged } from '../harness/fixtures';
import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox';
import {
	AccountEnvelope,
	DocumentCardEnvelope,
	DocumentCardList,
	DocumentEnvelope,
	ErrorHash,
	ErrorList,
	ErrorText,
	TemplateCardList,
	WorkspaceCardList,
} from './schemas';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const JSON_TYPE = 'application/json; charset=utf-8';
const T0 = Date.UTC(2026, 10, 21, 10, 0, 0, 0); // manual clocks start on a whole second

interface CallOptions {
	body?: unknown;
	headers?: Record<string, string>;
	auth?: boolean | string;
}

interface Answer {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	bytes: Buffer;
	text: string;
	json: Json;
}

async function call(
	sb: Sandbox,
	method: string,
	path: string,
	opts: CallOptions = {},
): Promise<Answer> {
	const headers: Record<string, string> = { ...(opts.headers || {}) };
	if (opts.auth !== false)
		headers.authorization = typeof opts.auth === 'string' ? opts.auth : `Bearer ${sb.apiKey}`;
	let body: string | undefined;
	if (opts.body !== undefined) {
		body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
		headers['content-type'] ??= 'application/json';
	}
	const url = path.startsWith('http') ? path : `${sb.url}${path}`;
	const res = await request(url, { method: method as 'GET', headers, body });
	const bytes = Buffer.from(await res.body.arrayBuffer());
	const text = bytes.toString('utf8');
	let json: Json;
	try {
		json = text ? JSON.parse(text) : undefined;
	} catch {
		json = undefined;
	}
	return { status: res.statusCode, headers: res.headers as Answer['headers'], bytes, text, json };
}

function parse<T extends z.ZodTypeAny>(schema: T, value: unknown): z.infer<T> {
	const r = schema.safeParse(value);
	if (!r.success) throw new Error(`${JSON.stringify(value).slice(0, 600)}\n${r.error.message}`);
	return r.data;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const sandboxes: Sandbox[] = [];
async function open(options: SandboxOptions = {}): Promise<Sandbox> {
	const sb = await startSandbox(options);
	sandboxes.push(sb);
	return sb;
}
afterAll(async () => {
	await Promise.all(sandboxes.map((s) => s.close()));
});

const tpl = (sb: Sandbox, identifier: string) => {
	const t = sb.templates.find((x) => x.identifier === identifier);
	if (!t) throw new Error(`no template ${identifier}`);
	return t;
};

async function create(sb: Sandbox, document: Record<string, unknown>) {
	const r = await call(sb, 'POST', '/api/v1/documents', { body: { document } });
	expect(r.status).toBe(201);
	return parse(DocumentEnvelope, r.json).document;
}

const hasPdftotext = (() => {
	try {
		execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
})();

describe('authentication and account', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await open({ seed: 7 });
	});

	it('answers 401 shape 1 without a valid Bearer key', async () => {
		const expected = {
			errors: [
				{
					status: '401',
					title: 'Unauthorized',
					detail:
						'We were unable to authenticate you with the provided API key. Please verify that your API key is correct.',
				},
			],
		};
		for (const auth of [
			false,
			'Bearer wrong',
			`bearer ${sb.apiKey}`,
			sb.apiKey,
			`Bearer  ${sb.apiKey}`,
			`Bearer ${sb.apiKey}x`,
		] as const) {
			const r = await call(sb, 'GET', '/api/v1/current_user', { auth });
			expect(r.status).toBe(401);
			expect(r.headers['content-type']).toBe(JSON_TYPE);
			expect(r.json).toEqual(expected);
		}
		const r = await call(sb, 'GET', '/api/v1/document_cards', { auth: false });
		expect(r.status).toBe(401);
	});

	it('serves the account record', async () => {
		const r = await call(sb, 'GET', '/api/v1/current_user');
		expect(r.status).toBe(200);
		expect(r.headers['content-type']).toBe(JSON_TYPE);
		const { current_user } = parse(AccountEnvelope, r.json);
		expect(current_user.available_documents).toBe(1000);
		expect(current_user.share_links).toBe(false);
	});

	it('a changed key stops the old one', async () => {
		const other = await open({ apiKey: 'sk_live_other' });
		expect((await call(other, 'GET', '/api/v1/current_user')).status).toBe(200);
		const old = other.apiKey;
		other.setOptions({ apiKey: 'sk_live_new' });
		expect(
			(await call(other, 'GET', '/api/v1/current_user', { auth: `Bearer ${old}` })).status,
		).toBe(401);
		expect((await call(other, 'GET', '/api/v1/current_user')).status).toBe(200);
	});

	it('ids are deterministic with a seed', async () => {
		const again = await open({ seed: 7 });
		expect(again.templates.map((t) => t.id)).toEqual(sb.templates.map((t) => t.id));
		expect(sb.templates.map((t) => t.identifier)).toEqual(
			expect.arrayContaining(['invoice', 'receipt', 'payslip', 'contract', 'always-fails']),
		);
		expect(sb.workspaces.map((w) => w.identifier)).toEqual(['Acme Billing', 'Acme HR']);
	});
});

describe('generation lifecycle', () => {
	it('goes pending -> generating -> success on the real clock', async () => {
		const sb = await open({ pendingMs: 50, generatingMs: 150 });
		const started = Date.now();
		const doc = await create(sb, {
			document_template_id: tpl(sb, 'invoice').id,
			payload: { customer: { name: 'Ada' }, total: 42 },
			meta: { _filename: 'ada-invoice', order: 7 },
			status: 'pending',
		});
		expect(doc.status).toBe('pending');
		expect(doc.generation_logs.length).toBeGreaterThan(0);
		expect(doc.payload).toBe('{"customer":{"name":"Ada"},"total":42}');
		expect(doc.meta).toBe('{"_filename":"ada-invoice","order":7}');
		// The real clock moves the document by itself: polled until it is done (no upper bound
		// but jest's timeout; a slow machine may skip 'generating' between two looks). The
		// statuses seen follow the lifecycle's order; its steps show in the generation logs,
		// each stamped with the instant it was due.
		const seen: string[] = [];
		let last: Json;
		for (;;) {
			last = parse(
				DocumentEnvelope,
				(await call(sb, 'GET', `/api/v1/documents/${doc.id}`)).json,
			).document;
			if (seen[seen.length - 1] !== last.status) seen.push(last.status);
			if (last.status === 'success') break;
			await sleep(10);
		}
		const elapsed = Date.now() - started;
		expect(['pending', 'generating', 'success'].filter((s) => seen.includes(s))).toEqual(seen);
		expect(seen[seen.length - 1]).toBe('success');
		expect(elapsed).toBeGreaterThanOrEqual(190);
		expect(last.filename).toBe('ada-invoice.pdf');
		expect(last.failure_cause).toBeNull();
		expect(last.download_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\//);
		const start = Date.parse(doc.updated_at);
		expect(Date.parse(last.updated_at) - start).toBe(200);
		expect(
			last.generation_logs.map((l: Json) => [Date.parse(l.timestamp) - start, l.message]),
		).toEqual([
			[0, 'Document queued for generation'],
			[50, 'Generation started'],
			[200, 'Document generated successfully: ada-invoice.pdf'],
		]);
	});

	it('stamps each transition with its due instant on the manual clock', async () => {
		const sb = await open({ clock: 'manual', startTime: T0, pendingMs: 100, generatingMs: 1500 });
		const doc = await create(sb, {
			document_template_id: tpl(sb, 'receipt').id,
			payload: '{"n":1}',
			status: 'pending',
		});
		expect(doc.updated_at).toBe('2026-11-21T10:00:00.000+00:00');
		sb.clock.advance(99);
		expect(sb.documents.get(doc.id)!.status).toBe('pending');
		sb.clock.advance(1);
		expect(sb.documents.get(doc.id)!.status).toBe('generating');
		sb.clock.advance(60_000); // one jump past the end: transitions keep their own instants
		const full = parse(
			DocumentEnvelope,
			(await call(sb, 'GET', `/api/v1/documents/${doc.id}`)).json,
		).document;
		expect(full.status).toBe('success');
		expect(full.updated_at).toBe('2026-11-21T10:00:01.600+00:00');
		expect(full.filename).toBe(`receipt-${doc.id.slice(0, 8)}.pdf`);
		expect(full.generation_logs.map((l: Json) => l.timestamp)).toEqual([
			'2026-11-21T10:00:00.000+00:00',
			'2026-11-21T10:00:00.100+00:00',
			'2026-11-21T10:00:01.600+00:00',
		]);
		expect(sb.clock.now()).toBe(T0 + 60_100);

		// draft stays draft
		const draft = await create(sb, { document_template_id: tpl(sb, 'receipt').id });
		expect(draft.status).toBe('draft');
		expect(draft.payload).toBe('{}');
		expect(draft.meta).toBeNull();
		sb.clock.advance(10_000);
		expect(sb.documents.get(draft.id)!.status).toBe('draft');
	});

	it('fails with the always-fails template, and regenerates when set back to pending', async () => {
		const sb = await open({ clock: 'manual', startTime: T0 });
		const doc = await create(sb, {
			document_template_id: tpl(sb, 'always-fails').id,
			payload: { a: 1 },
			status: 'pending',
		});
		sb.clock.advance(5000);
		let card = parse(
			DocumentCardEnvelope,
			(await call(sb, 'GET', `/api/v1/document_cards/${doc.id}`)).json,
		).document_card;
		expect(card.status).toBe('failure');
		expect(card.failure_cause).toBe("Template rendering failed: undefined variable 'customer'");
		expect(card.filename).toBeNull();
		expect(card.document_template_identifier).toBe('always-fails');
		const full = parse(
			DocumentEnvelope,
			(await call(sb, 'GET', `/api/v1/documents/${doc.id}`)).json,
		).document;
		expect(full.generation_logs.some((l: Json) => l.type === 'error')).toBe(true);

		// PUT without status keeps the status; only given fields change
		let r = await call(sb, 'PUT', `/api/v1/documents/${doc.id}`, {
			body: { document: { meta: { k: 'v' } } },
		});
		expect(r.status).toBe(200);
		let d = parse(DocumentEnvelope, r.json).document;
		expect(d.status).toBe('failure');
		expect(d.meta).toBe('{"k":"v"}');
		expect(d.payload).toBe('{"a":1}');

		// move to a working template and regenerate
		r = await call(sb, 'PUT', `/api/v1/documents/${doc.id}`, {
			body: { document: { document_template_id: tpl(sb, 'contract').id, status: 'pending' } },
		});
		d = parse(DocumentEnvelope, r.json).document;
		expect(d.status).toBe('pending');
		expect(d.failure_cause).toBeNull();
		expect(d.app_id).toBe(tpl(sb, 'contract').app_id);
		sb.clock.advance(5000);
		card = parse(
			DocumentCardEnvelope,
			(await call(sb, 'GET', `/api/v1/document_cards/${doc.id}`)).json,
		).document_card;
		expect(card.status).toBe('success');
		expect(card.filename).toBe(`contract-${doc.id.slice(0, 8)}.pdf`);

		// a success can be regenerated too
		r = await call(sb, 'PUT', `/api/v1/documents/${doc.id}`, {
			body: { document: { status: 'pending' } },
		});
		expect(r.json.document.status).toBe('pending');
		expect(r.json.document.download_url).toBeNull();
	});

	it("with quotaMode 'fail': accepted, then fails with Quota exceeded once available_documents reaches 0", async () => {
		const sb = await open({
			clock: 'manual',
			startTime: T0,
			availableDocuments: 1,
			quotaMode: 'fail',
		});
		const a = await create(sb, { document_template_id: tpl(sb, 'invoice').id, status: 'pending' });
		sb.clock.advance(5000);
		const b = await create(sb, { document_template_id: tpl(sb, 'invoice').id, status: 'pending' });
		sb.clock.advance(5000);
		expect(sb.documents.get(a.id)!.status).toBe('success');
		expect(sb.documents.get(b.id)!.status).toBe('failure');
		expect(sb.documents.get(b.id)!.failure_cause).toBe('Quota exceeded');
		const me = parse(
			AccountEnvelope,
			(await call(sb, 'GET', '/api/v1/current_user')).json,
		).current_user;
		expect(me.available_documents).toBe(0);
	});

	it('sync creation answers a finished DocumentCard', async () => {
		const sb = await open({ pendingMs: 20, generatingMs: 60 });
		const r = await call(sb, 'POST', '/api/v1/documents/sync', {
			body: { document: { document_template_id: tpl(sb, 'invoice').id, payload: { x: 1 } } },
		});
		expect(r.status).toBe(200);
		expect(parse(DocumentCardEnvelope, r.json).document_card.status).toBe('success');
		const f = await call(sb, 'POST', '/api/v1/documents/sync', {
			body: { document: { document_template_id: tpl(sb, 'always-fails').id } },
		});
		expect(f.json.document_card.status).toBe('failure');

		// on the manual clock it answers once the clock moves (or after 30 s of sandbox time)
		const manual = await open({ clock: 'manual', startTime: T0, generatingMs: 60_000 });
		const answer = call(manual, 'POST', '/api/v1/documents/sync', {
			body: { document: { document_template_id: tpl(manual, 'invoice').id } },
		});
		// The 30 s count from the request's arrival: the clock moves once it is in the log.
		await logged(manual, (r) => r.path === '/api/v1/documents/sync');
		manual.clock.advance(30_000);
		const late = await answer;
		expect(late.json.document_card.status).toBe('generating');
	});

	it('server-side helpers seed and move documents', async () => {
		const sb = await open({ clock: 'manual', startTime: T0 });
		const rec = sb.createDocument({
			document_template_id: tpl(sb, 'payslip').id,
			payload: { a: 1 },
			meta: { m: 1 },
			status: 'success',
			updated_at: '2026-11-20T08:00:00.000Z',
		});
		expect(rec.updated_at).toBe(Date.parse('2026-11-20T08:00:00.000Z'));
		const card = parse(DocumentCardEnvelope, { document_card: sb.cardJson(rec.id) }).document_card;
		expect(card.status).toBe('success');
		expect(card.updated_at).toBe('2026-11-20T08:00:00.000+00:00');
		expect((await call(sb, 'GET', sb.downloadUrlFor(rec.id)!, { auth: false })).status).toBe(200);

		sb.updateDocument(rec.id, { status: 'pending' });
		expect(sb.documents.get(rec.id)!.status).toBe('pending');
		sb.clock.advance(sb.options.pendingMs);
		expect(sb.documents.get(rec.id)!.status).toBe('generating');
		expect(sb.documents.get(rec.id)!.updated_at).toBe(T0 + sb.options.pendingMs);
		sb.updateDocument(rec.id, { status: 'failure', failure_cause: 'Boom', updated_at: T0 + 5 });
		sb.clock.advance(60_000); // the cancelled generation does not come back
		expect(sb.documents.get(rec.id)).toMatchObject({
			status: 'failure',
			failure_cause: 'Boom',
			updated_at: T0 + 5,
		});
		parse(DocumentEnvelope, { document: sb.documentJson(rec.id) });
	});
});

describe('validation and error shapes', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await open({ clock: 'manual', startTime: T0 });
	});

	it('accepts payload and meta as objects or strings of JSON objects', async () => {
		const doc = await create(sb, {
			document_template_id: tpl(sb, 'invoice').id,
			payload: '{"a": [1, 2]}',
			meta: '{"m":true}',
		});
		expect(doc.payload).toBe('{"a":[1,2]}');
		expect(doc.meta).toBe('{"m":true}');
	});

	it('answers 422 shape 2 for invalid documents', async () => {
		const id = tpl(sb, 'invoice').id;
		const cases: Array<[unknown, Record<string, string[]>]> = [
			[
				{ document: { document_template_id: id, payload: [1, 2] } },
				{ payload: ['must be a JSON object'] },
			],
			[
				{ document: { document_template_id: id, payload: '[1]' } },
				{ payload: ['must be a JSON object'] },
			],
			[
				{ document: { document_template_id: id, payload: 'not json' } },
				{ payload: ['must be a JSON object'] },
			],
			[{ document: { document_template_id: id, meta: 5 } }, { meta: ['must be a JSON object'] }],
			[
				{ document: { document_template_id: '00000000-0000-4000-8000-000000000000' } },
				{ document_template: ['must exist'] },
			],
			[{ document: { payload: {} } }, { document_template: ['must exist'] }],
			[
				{ document: { document_template_id: id, status: 'success' } },
				{ status: ['is not included in the list'] },
			],
		];
		for (const [body, errors] of cases) {
			const r = await call(sb, 'POST', '/api/v1/documents', { body });
			expect(r.status).toBe(422);
			expect(r.headers['content-type']).toBe(JSON_TYPE);
			expect(parse(ErrorHash, r.json).errors).toEqual(errors);
		}
		const missing = await call(sb, 'POST', '/api/v1/documents', { body: { other: {} } });
		expect(missing.status).toBe(422);
		expect(Object.keys(parse(ErrorHash, missing.json).errors)).toEqual(['document']);
		// The fields without the wrapper are taken as the document (the service's own n8n node
		// sends them so): here the template is missing.
		const unwrapped = await call(sb, 'POST', '/api/v1/documents', { body: { payload: {} } });
		expect(parse(ErrorHash, unwrapped.json).errors).toEqual({ document_template: ['must exist'] });
		const listStatus = await call(sb, 'GET', '/api/v1/document_cards?q[status]=finished');
		expect(listStatus.status).toBe(422);
		parse(ErrorHash, listStatus.json);
	});

	it('answers 400 shape 3 for a malformed JSON body', async () => {
		const r = await call(sb, 'POST', '/api/v1/documents', {
			body: '{"document": {',
			headers: { 'content-type': 'application/json' },
		});
		expect(r.status).toBe(400);
		expect(parse(ErrorText, r.json).error).toMatch(/unexpected character at line 1 column \d+/);
		const r2 = await call(sb, 'PUT', `/api/v1/documents/${[...sb.documents.keys()][0]}`, {
			body: '{x',
		});
		expect(r2.status).toBe(400);
	});

	it('answers 404 shape 1 for unknown ids and routes; delete is 204 then 404', async () => {
		const missing = '11111111-1111-4111-8111-111111111111';
		let r = await call(sb, 'GET', `/api/v1/documents/${missing}`);
		expect(r.status).toBe(404);
		expect(parse(ErrorList, r.json).errors[0]).toEqual({
			status: '404',
			title: 'Not Found',
			detail: `We couldn't find any Document with ID "${missing}"`,
		});
		r = await call(sb, 'GET', `/api/v1/document_cards/${missing}`);
		expect(r.json.errors[0].detail).toBe(`We couldn't find any DocumentCard with ID "${missing}"`);
		r = await call(sb, 'PUT', `/api/v1/documents/${missing}`, { body: { document: {} } });
		expect(r.status).toBe(404);
		r = await call(sb, 'GET', '/api/v1/nothing-here');
		expect(r.status).toBe(404);
		parse(ErrorList, r.json);
		r = await call(sb, 'GET', '/api/v1/api/v1/current_user');
		expect(r.status).toBe(404);

		const doc = await create(sb, { document_template_id: tpl(sb, 'invoice').id });
		r = await call(sb, 'DELETE', `/api/v1/documents/${doc.id}`);
		expect(r.status).toBe(204);
		expect(r.bytes.length).toBe(0);
		expect(sb.documents.has(doc.id)).toBe(false);
		r = await call(sb, 'DELETE', `/api/v1/documents/${doc.id}`);
		expect(r.status).toBe(404);
		parse(ErrorList, r.json);
	});
});

describe('lists', () => {
	let sb: Sandbox;
	let ids: string[];
	beforeAll(async () => {
		sb = await open({ clock: 'manual', startTime: T0, seed: 3 });
		// 50 documents, one second apart, across templates and statuses
		const names = ['invoice', 'receipt', 'payslip', 'contract', 'always-fails'];
		ids = [];
		for (let i = 0; i < 50; i++) {
			const t = tpl(sb, names[i % names.length]);
			const status =
				t.identifier === 'always-fails' ? 'failure' : i % 3 === 0 ? 'draft' : 'success';
			const rec = sb.createDocument({
				document_template_id: t.id,
				payload: { i },
				meta: i === 7 ? { _filename: 'Special-Report' } : { i },
				status,
				updated_at: T0 - (50 - i) * 1000 + 500,
			});
			ids.push(rec.id);
		}
	});

	it('pages 24 at a time without page[size], newest first, with the meta envelope', async () => {
		const pages: Json[] = [];
		for (const n of [1, 2, 3]) {
			const r = await call(sb, 'GET', `/api/v1/document_cards?page[number]=${n}`);
			expect(r.status).toBe(200);
			expect(r.headers['content-type']).toBe(JSON_TYPE);
			pages.push(parse(DocumentCardList, r.json));
		}
		expect(pages.map((p) => p.document_cards.length)).toEqual([24, 24, 2]);
		expect(pages.map((p) => p.meta)).toEqual([
			{ current_page: 1, next_page: 2, prev_page: null, total_pages: 3 },
			{ current_page: 2, next_page: 3, prev_page: 1, total_pages: 3 },
			{ current_page: 3, next_page: null, prev_page: 2, total_pages: 3 },
		]);
		const all = pages.flatMap((p) => p.document_cards.map((c: Json) => c.id));
		expect(all).toEqual(ids.slice().reverse());
		const junk = parse(
			DocumentCardList,
			(await call(sb, 'GET', '/api/v1/document_cards?page[number]=abc')).json,
		);
		expect(junk.meta.current_page).toBe(1);
		const beyond = parse(
			DocumentCardList,
			(await call(sb, 'GET', '/api/v1/document_cards?page[number]=9')).json,
		);
		expect(beyond.document_cards).toEqual([]);
		expect(beyond.meta.next_page).toBeNull();
	});

	it('filters by template (single and comma-joined forms), status, workspace and search', async () => {
		const inv = tpl(sb, 'invoice');
		const rec = tpl(sb, 'receipt');
		const get = async (qs: string) =>
			parse(DocumentCardList, (await call(sb, 'GET', `/api/v1/document_cards?${qs}`)).json);
		// The `[]` form, which no official client sends, is refused loudly.
		const arrayForm = await call(
			sb,
			'GET',
			`/api/v1/document_cards?q[document_template_id][]=${inv.id}&q[document_template_id][]=${rec.id}`,
		);
		expect(arrayForm.status).toBe(400);
		expect(arrayForm.json.errors[0].detail).toMatch(/q\[document_template_id\]=ID or ID1,ID2/);
		let l = await get(`q[document_template_id]=${inv.id},${rec.id}`);
		expect(l.document_cards.length).toBe(20);
		expect(
			l.document_cards.every((c: Json) => [inv.id, rec.id].includes(c.document_template_id)),
		).toBe(true);
		l = await get(`q[document_template_id]=${inv.id}`);
		expect(l.document_cards.length).toBe(10);
		l = await get('q[status]=failure');
		expect(l.document_cards.length).toBe(10);
		expect(l.document_cards.every((c: Json) => c.status === 'failure' && c.failure_cause)).toBe(
			true,
		);
		l = await get('q[status]=draft');
		expect(
			l.document_cards.every((c: Json) => c.status === 'draft' && c.download_url === null),
		).toBe(true);
		l = await get(`q[workspace_id]=${sb.workspaces[1].id}&q[status]=success`);
		expect(l.document_cards.length).toBeGreaterThan(0);
		expect(
			l.document_cards.every(
				(c: Json) => c.app_id === sb.workspaces[1].id && c.status === 'success',
			),
		).toBe(true);
		l = await get('q[search]=Special-Rep');
		expect(l.document_cards.map((c: Json) => c.id)).toEqual([ids[7]]);
		// part of a file name is case-sensitive, a document id matches whole
		expect((await get('q[search]=special-rep')).document_cards).toEqual([]);
		expect((await get(`q[search]=${ids[12].slice(0, 8)}`)).document_cards).toEqual([]);
		l = await get(`q[search]=${ids[12].toUpperCase()}`);
		expect(l.document_cards.map((c: Json) => c.id)).toEqual([ids[12]]);
		l = await get('q[search]=no-such-thing');
		expect(l).toEqual({
			document_cards: [],
			meta: { current_page: 1, next_page: null, prev_page: null, total_pages: 1 },
		});
		// the request log keeps raw keys and arrays
		const logged = sb.requests.find(
			(r) => r.rawQuery.includes('%5B%5D') || r.rawQuery.includes('[]'),
		)!;
		expect(logged.query['q[document_template_id][]']).toEqual([inv.id, rec.id]);
		l = await get('q[status][]=pending&q[status][]=generating');
		expect(l.document_cards).toEqual([]);
	});

	it('q[updated_since] compares whole seconds, inclusive or exclusive', async () => {
		// ids[40] was updated at T0 - 10 s + 500 ms
		const since = Math.floor((T0 - 10_000) / 1000);
		const get = async () =>
			parse(
				DocumentCardList,
				(await call(sb, 'GET', `/api/v1/document_cards?q[updated_since]=${since}`)).json,
			).document_cards.map((c: Json) => c.id);
		expect(await get()).toEqual(ids.slice(40).reverse());
		sb.setOptions({ updatedSinceInclusive: false });
		expect(await get()).toEqual(ids.slice(41).reverse());
		sb.setOptions({ updatedSinceInclusive: true });
		const bad = await call(sb, 'GET', '/api/v1/document_cards?q[updated_since]=2026-01-01');
		expect(bad.status).toBe(422);
	});

	it('orders oldest first or randomly when asked', async () => {
		sb.setOptions({ listOrder: 'oldest' });
		const first = parse(DocumentCardList, (await call(sb, 'GET', '/api/v1/document_cards')).json);
		expect(first.document_cards[0].id).toBe(ids[0]);
		sb.setOptions({ listOrder: 'random' });
		const orders = new Set<string>();
		for (let i = 0; i < 4; i++) {
			orders.add(
				JSON.stringify(
					(await call(sb, 'GET', '/api/v1/document_cards')).json.document_cards.map(
						(c: Json) => c.id,
					),
				),
			);
		}
		expect(orders.size).toBeGreaterThan(1);
		sb.setOptions({ listOrder: 'newest' });
	});

	it('hides changes from lists until the visibility lag has passed', async () => {
		const lagged = await open({
			clock: 'manual',
			startTime: T0,
			visibilityLagMs: 5000,
			pendingMs: 100,
			generatingMs: 400,
		});
		const doc = await create(lagged, {
			document_template_id: tpl(lagged, 'invoice').id,
			status: 'pending',
		});
		const list = async () =>
			(await call(lagged, 'GET', '/api/v1/document_cards')).json.document_cards.map(
				(c: Json) => c.status,
			);
		expect(await list()).toEqual([]);
		expect(
			(await call(lagged, 'GET', `/api/v1/document_cards/${doc.id}`)).json.document_card.status,
		).toBe('pending');
		lagged.clock.advance(1000); // success at T0+500, visible in lists from T0+5500
		expect((await call(lagged, 'GET', `/api/v1/documents/${doc.id}`)).json.document.status).toBe(
			'success',
		);
		expect(await list()).toEqual([]);
		lagged.clock.advance(4499);
		expect(await list()).toEqual([]);
		lagged.clock.advance(1);
		expect(await list()).toEqual(['success']);
	});

	it('lists templates and workspaces', async () => {
		let r = await call(
			sb,
			'GET',
			`/api/v1/document_template_cards?q[workspace_id]=${sb.workspaces[0].id}&page=all`,
		);
		const t = parse(TemplateCardList, r.json);
		expect(t.document_template_cards.map((x: Json) => x.identifier).sort()).toEqual([
			'always-fails',
			'invoice',
			'receipt',
		]);
		r = await call(sb, 'GET', '/api/v1/document_template_cards?q[search]=pay');
		expect(
			parse(TemplateCardList, r.json).document_template_cards.map((x: Json) => x.identifier),
		).toEqual(['payslip']);
		expect(r.json.meta).toEqual({
			current_page: 1,
			next_page: null,
			prev_page: null,
			total_pages: 1,
		});
		r = await call(sb, 'GET', '/api/v1/workspace_cards');
		expect(parse(WorkspaceCardList, r.json).workspace_cards.map((w: Json) => w.identifier)).toEqual(
			['Acme Billing', 'Acme HR'],
		);
	});
});

describe('plans with limits: request limit, generation queue, quota', () => {
	const apiCall = async (sb: Sandbox) => await call(sb, 'GET', '/api/v1/current_user');

	it('a fixed window: the call past the limit answers 429 with Retry-After to the window end', async () => {
		// T0 is a whole minute: the window runs from T0 to T0 + 60 s.
		const sb = await open({
			clock: 'manual',
			startTime: T0 + 15_000,
			rateLimit: { requests: 2, perMs: 60_000 },
		});
		expect((await apiCall(sb)).status).toBe(200);
		expect((await apiCall(sb)).status).toBe(200);
		const refused = await apiCall(sb);
		expect(refused.status).toBe(429);
		expect(refused.headers['retry-after']).toBe('45');
		parse(ErrorList, refused.json);
		// Refused calls do not count; the next window starts afresh.
		sb.clock.advance(45_000);
		expect((await apiCall(sb)).status).toBe(200);
		expect(sb.limited).toBe(1);
		expect(sb.requests.filter((r) => r.status === 429)).toHaveLength(1);
	});

	it('without Retry-After, and with the limit announced as X-RateLimit-* or IETF RateLimit fields', async () => {
		const bare = await open({
			clock: 'manual',
			startTime: T0,
			rateLimit: { requests: 1, perMs: 10_000, retryAfter: false },
		});
		await apiCall(bare);
		const refused = await apiCall(bare);
		expect(refused.status).toBe(429);
		expect(refused.headers['retry-after']).toBeUndefined();
		expect(refused.headers['x-ratelimit-remaining']).toBeUndefined();

		const x = await open({
			clock: 'manual',
			startTime: T0 + 4000,
			rateLimit: { requests: 3, perMs: 10_000, headers: 'x' },
		});
		const first = await apiCall(x);
		expect(first.headers['x-ratelimit-limit']).toBe('3');
		expect(first.headers['x-ratelimit-remaining']).toBe('2');
		expect(first.headers['x-ratelimit-reset']).toBe(String((T0 + 10_000) / 1000));

		const ietf = await open({
			clock: 'manual',
			startTime: T0 + 4000,
			rateLimit: { requests: 3, perMs: 10_000, headers: 'ietf' },
		});
		const one = await apiCall(ietf);
		expect(one.headers.ratelimit).toBe('"default";r=2;t=6');
		expect(one.headers['ratelimit-policy']).toBe('"default";q=3;w=10');
	});

	it('a sliding window counts the calls of the last perMs', async () => {
		const sb = await open({
			clock: 'manual',
			startTime: T0,
			rateLimit: { requests: 2, perMs: 10_000, window: 'sliding' },
		});
		await apiCall(sb);
		sb.clock.advance(6000);
		await apiCall(sb);
		const refused = await apiCall(sb);
		expect(refused.status).toBe(429);
		expect(refused.headers['retry-after']).toBe('4');
		sb.clock.advance(4000);
		expect((await apiCall(sb)).status).toBe(200);
	});

	it('a token bucket: a burst of its size, then one call per token as they refill', async () => {
		// 2 tokens a second (one per 500 ms), at most 4 held.
		const sb = await open({
			clock: 'manual',
			startTime: T0,
			rateLimit: { requests: 2, perMs: 1000, window: 'bucket', burst: 4, headers: 'x' },
		});
		for (let i = 0; i < 4; i++) expect((await apiCall(sb)).status).toBe(200);
		const refused = await apiCall(sb);
		expect(refused.status).toBe(429);
		// The next token comes in 500 ms: whole seconds, rounded up.
		expect(refused.headers['retry-after']).toBe('1');
		expect(refused.headers['x-ratelimit-remaining']).toBe('0');
		sb.clock.advance(499);
		expect((await apiCall(sb)).status).toBe(429);
		sb.clock.advance(1);
		expect((await apiCall(sb)).status).toBe(200);
		expect((await apiCall(sb)).status).toBe(429);
		// Idle long enough, the bucket is full again, and no fuller than its size.
		sb.clock.advance(60_000);
		for (let i = 0; i < 4; i++) expect((await apiCall(sb)).status).toBe(200);
		expect((await apiCall(sb)).status).toBe(429);
		expect(sb.limited).toBe(4);
	});

	it('a generation queue of N workers: documents stay pending until a worker is free', async () => {
		const sb = await open({
			clock: 'manual',
			startTime: T0,
			workers: 2,
			pendingMs: 100,
			generatingMs: 1000,
		});
		const docs: Json[] = [];
		for (let i = 0; i < 5; i++)
			docs.push(
				await create(sb, { document_template_id: tpl(sb, 'invoice').id, status: 'pending' }),
			);
		const statuses = () => docs.map((d) => sb.documents.get(d.id)!.status);
		sb.clock.advance(100);
		expect(statuses()).toEqual(['generating', 'generating', 'pending', 'pending', 'pending']);
		sb.clock.advance(1000);
		expect(statuses()).toEqual(['success', 'success', 'generating', 'generating', 'pending']);
		// A deleted document frees its worker at once.
		sb.deleteDocument(docs[2].id);
		sb.clock.advance(0);
		expect(sb.documents.get(docs[4].id)!.status).toBe('generating');
		sb.clock.advance(1000);
		expect(sb.documents.get(docs[4].id)!.status).toBe('success');
		expect(sb.documents.get(docs[4].id)!.updated_at).toBe(T0 + 2100);
	});

	it('a spent quota refuses a pending create with 422, as the service does; a draft is still stored', async () => {
		const sb = await open({ clock: 'manual', startTime: T0, availableDocuments: 2 });
		const body = (status: string) => ({
			body: { document: { document_template_id: tpl(sb, 'invoice').id, status } },
		});
		expect((await call(sb, 'POST', '/api/v1/documents', body('pending'))).status).toBe(201);
		expect((await call(sb, 'POST', '/api/v1/documents', body('pending'))).status).toBe(201);
		// Two generations in progress take the whole quota.
		const refused = await call(sb, 'POST', '/api/v1/documents', body('pending'));
		expect(refused.status).toBe(422);
		expect(parse(ErrorHash, refused.json).errors.status[0]).toMatch(/^You've reached your quota/);
		expect((await call(sb, 'POST', '/api/v1/documents', body('draft'))).status).toBe(201);
		const sync = await call(sb, 'POST', '/api/v1/documents/sync', body('pending'));
		expect(sync.status).toBe(422);
		expect(sb.documents.size).toBe(3);
	});

	it('fileSizeBytes: a large file streamed to its full length, still a PDF', async () => {
		const sb = await open({ clock: 'manual', startTime: T0, fileSizeBytes: 3_000_000 });
		const doc = await create(sb, {
			document_template_id: tpl(sb, 'invoice').id,
			status: 'pending',
		});
		sb.clock.advance(5000);
		const card = (await call(sb, 'GET', `/api/v1/document_cards/${doc.id}`)).json.document_card;
		const file = await call(sb, 'GET', card.download_url, { auth: false });
		expect(file.status).toBe(200);
		expect(file.bytes.length).toBe(3_000_000);
		expect(Number(file.headers['content-length'])).toBe(3_000_000);
		expect(file.bytes.subarray(0, 5).toString()).toBe('%PDF-');
		expect(file.bytes.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
	});
});

describe('downloads', () => {
	let sb: Sandbox;
	let doc: Json;
	beforeAll(async () => {
		sb = await open({ clock: 'manual', startTime: T0, downloadTtlMs: 60_000 });
		// A template without Liquid tags: the sandbox lists the payload as "key: value" lines.
		const created = await create(sb, {
			document_template_id: tpl(sb, 'receipt').id,
			payload: { customer: { name: 'Zoë (Acme) \\ Co' }, total: 99.5, note: 'x'.repeat(300) },
			status: 'pending',
		});
		sb.clock.advance(5000);
		doc = (await call(sb, 'GET', `/api/v1/documents/${created.id}`)).json.document;
	});

	it('serves a real PDF without Authorization, refuses it with', async () => {
		const withAuth = await call(sb, 'GET', doc.download_url);
		expect(withAuth.status).toBe(400);
		expect(withAuth.text).toContain(
			'<Code>InvalidArgument</Code><Message>Only one auth mechanism allowed</Message>',
		);

		const r = await call(sb, 'GET', doc.download_url, { auth: false });
		expect(r.status).toBe(200);
		expect(r.headers['content-type']).toBe('application/pdf');
		expect(Number(r.headers['content-length'])).toBe(r.bytes.length);
		expect(r.bytes.subarray(0, 5).toString()).toBe('%PDF-');
		expect(r.bytes.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
		const pdf = r.bytes.toString('latin1');
		expect(pdf).toContain('(receipt) Tj');
		expect(pdf).toContain('(customer.name: Zoe \\(Acme\\) \\\\ Co) Tj');
		// the xref offsets point at the objects
		const xrefAt = Number(/startxref\n(\d+)/.exec(pdf)![1]);
		expect(pdf.slice(xrefAt, xrefAt + 4)).toBe('xref');
		const offsets = [...pdf.slice(xrefAt).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) =>
			Number(m[1]),
		);
		offsets.forEach((off, i) => expect(pdf.slice(off).startsWith(`${i + 1} 0 obj`)).toBe(true));

		const logged = sb.requests.filter((q) => q.path.startsWith('/files/'));
		expect(logged.map((q) => q.status)).toEqual([400, 200]);

		if (hasPdftotext) {
			const text = execFileSync('pdftotext', ['-', '-'], { input: r.bytes }).toString();
			expect(text).toContain('receipt');
			expect(text).toContain('customer.name: Zoe (Acme) \\ Co');
			expect(text).toContain('total: 99.5');
		}
	});

	it('rejects a bad signature and an expired URL, and signs a fresh URL on each fetch', async () => {
		const tampered = doc.download_url.replace(
			/X-Amz-Signature=([0-9a-f])/,
			(_: string, c: string) => `X-Amz-Signature=${c === 'a' ? 'b' : 'a'}`,
		);
		const bad = await call(sb, 'GET', tampered, { auth: false });
		expect(bad.status).toBe(403);
		expect(bad.headers['content-type']).toBe('application/xml');

		sb.clock.advance(61_000);
		const expired = await call(sb, 'GET', doc.download_url, { auth: false });
		expect(expired.status).toBe(403);
		expect(expired.text).toContain(
			'<Code>AccessDenied</Code><Message>Request has expired</Message>',
		);

		const fresh = (await call(sb, 'GET', `/api/v1/document_cards/${doc.id}`)).json.document_card
			.download_url;
		expect(fresh).not.toBe(doc.download_url);
		expect((await call(sb, 'GET', fresh, { auth: false })).status).toBe(200);
		expect((await call(sb, 'GET', sb.downloadUrlFor(doc.id)!, { auth: false })).status).toBe(200);
	});

	it('serves images for image templates', async () => {
		const img = await create(sb, {
			document_template_id: tpl(sb, 'badge').id,
			payload: { n: 1 },
			meta: { _filename: 'pic' },
			status: 'pending',
		});
		sb.clock.advance(5000);
		const card = (await call(sb, 'GET', `/api/v1/document_cards/${img.id}`)).json.document_card;
		expect(card.output_type).toBe('image');
		expect(card.filename).toBe('pic.png');
		const r = await call(sb, 'GET', card.download_url, { auth: false });
		expect(r.headers['content-type']).toBe('image/png');
		expect(r.bytes.subarray(1, 4).toString()).toBe('PNG');
	});
});

describe('share links', () => {
	it('null when off; null until success then a working URL when on', async () => {
		const off = await open({ clock: 'manual', startTime: T0 });
		const d = await create(off, {
			document_template_id: tpl(off, 'invoice').id,
			status: 'pending',
		});
		expect(d.public_share_link).toBeNull();

		const on = await open({ clock: 'manual', startTime: T0, shareLinks: true });
		expect((await call(on, 'GET', '/api/v1/current_user')).json.current_user.share_links).toBe(
			true,
		);
		const doc = await create(on, {
			document_template_id: tpl(on, 'invoice').id,
			status: 'pending',
		});
		expect(doc.public_share_link).toBeNull();
		on.clock.advance(5000);
		const card = parse(
			DocumentCardEnvelope,
			(await call(on, 'GET', `/api/v1/document_cards/${doc.id}`)).json,
		).document_card;
		expect(card.public_share_link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/share\//);
		const r = await call(on, 'GET', card.public_share_link!, { auth: false });
		expect(r.status).toBe(200);
		expect(r.bytes.subarray(0, 5).toString()).toBe('%PDF-');
	});
});

describe('faults', () => {
	let sb: Sandbox;
	beforeEach(async () => {
		sb = sb ?? (await open({ clock: 'manual', startTime: T0 }));
		sb.faults.clear();
		sb.resetRequests();
	});
	const body = (sb: Sandbox) => ({
		document: { document_template_id: tpl(sb, 'invoice').id, status: 'pending' },
	});

	it('status 429 with Retry-After answers without acting', async () => {
		const before = sb.documents.size;
		sb.faults.add({
			method: 'POST',
			path: '/api/v1/documents',
			type: 'status',
			status: 429,
			retryAfter: '2',
		});
		const r = await call(sb, 'POST', '/api/v1/documents', { body: body(sb) });
		expect(r.status).toBe(429);
		expect(r.headers['retry-after']).toBe('2');
		parse(ErrorList, r.json);
		expect(sb.documents.size).toBe(before);
		const again = await call(sb, 'POST', '/api/v1/documents', { body: body(sb) }); // times defaults to 1
		expect(again.status).toBe(201);
		expect(sb.count({ method: 'POST', path: '/api/v1/documents' })).toBe(2);
		expect(sb.requests.map((q) => q.status)).toEqual([429, 201]);
	});

	it('status with retryAfterDateInMs: Retry-After is the HTTP date that long after the answer', async () => {
		const manual = await open({ clock: 'manual', startTime: T0 });
		manual.faults.add({
			type: 'status',
			status: 429,
			retryAfterDateInMs: 3000,
			method: 'GET',
			times: 2,
		});
		const first = await call(manual, 'GET', '/api/v1/current_user');
		expect(first.status).toBe(429);
		expect(first.headers['retry-after']).toBe('Sat, 21 Nov 2026 10:00:03 GMT');
		manual.clock.advance(61_900); // whole seconds, floored
		const later = await call(manual, 'GET', '/api/v1/current_user');
		expect(later.headers['retry-after']).toBe('Sat, 21 Nov 2026 10:01:04 GMT');
	});

	it('status afterHandling acts and then answers the error', async () => {
		const before = sb.documents.size;
		sb.faults.add({
			path: /^\/api\/v1\/documents$/,
			type: 'status',
			status: 502,
			afterHandling: true,
			body: '<html>Bad Gateway</html>',
		});
		const r = await call(sb, 'POST', '/api/v1/documents', { body: body(sb) });
		expect(r.status).toBe(502);
		expect(r.text).toBe('<html>Bad Gateway</html>');
		expect(sb.documents.size).toBe(before + 1);
	});

	it('drop destroys the socket without acting', async () => {
		const before = sb.documents.size;
		sb.faults.add({ method: 'POST', type: 'drop', times: 2 });
		await expect(call(sb, 'POST', '/api/v1/documents', { body: body(sb) })).rejects.toThrow();
		await expect(call(sb, 'POST', '/api/v1/documents', { body: body(sb) })).rejects.toThrow();
		expect((await call(sb, 'POST', '/api/v1/documents', { body: body(sb) })).status).toBe(201);
		expect(sb.documents.size).toBe(before + 1);
		expect(sb.requests.map((q) => q.status)).toEqual([0, 0, 201]);
	});

	it('reset-after-handling creates exactly one document', async () => {
		const before = sb.documents.size;
		sb.faults.add({ method: 'POST', path: '/api/v1/documents', type: 'reset-after-handling' });
		await expect(call(sb, 'POST', '/api/v1/documents', { body: body(sb) })).rejects.toThrow();
		expect(sb.documents.size).toBe(before + 1);
		expect(sb.requests[0].fault).toBe('reset-after-handling');
	});

	it('delay answers late; Infinity times and GET-only matching', async () => {
		sb.faults.add({
			method: 'GET',
			path: '/api/v1/current_user',
			type: 'delay',
			delayMs: 150,
			times: Infinity,
		});
		for (let i = 0; i < 2; i++) {
			const t = Date.now();
			expect((await call(sb, 'GET', '/api/v1/current_user')).status).toBe(200);
			expect(Date.now() - t).toBeGreaterThanOrEqual(140);
		}
		// Another path is not held up: the log says no fault touched it (a wall-clock bound
		// would depend on how busy the machine is).
		await call(sb, 'GET', '/api/v1/document_cards');
		expect(sb.requests.map((r) => [r.path, r.fault])).toEqual([
			['/api/v1/current_user', 'delay'],
			['/api/v1/current_user', 'delay'],
			['/api/v1/document_cards', undefined],
		]);
		expect(sb.faults.list()).toHaveLength(1);
	});

	it('a hold (delayMs) lasts until release(id): then the fault acts, or the request is handled', async () => {
		const sb2 = await open();
		const isMe = (r: { path: string }) => r.path === '/api/v1/current_user';
		const held = sb2.faults.add({ type: 'status', status: 503, delayMs: 600_000, method: 'GET' });
		const refused = call(sb2, 'GET', '/api/v1/current_user');
		expect((await logged(sb2, isMe)).status).toBeNull();
		expect(sb2.faults.release(held)).toBe(1);
		expect((await refused).status).toBe(503);
		expect(sb2.faults.release(held)).toBe(0);
		const delayed = sb2.faults.add({ type: 'delay', delayMs: 600_000, method: 'GET' });
		const late = call(sb2, 'GET', '/api/v1/current_user');
		expect((await logged(sb2, isMe, 2)).status).toBeNull();
		expect(sb2.faults.release(delayed)).toBe(1);
		expect((await late).status).toBe(200);
		expect(sb2.requests.map((r) => [r.status, r.fault])).toEqual([
			[503, 'status'],
			[200, 'delay'],
		]);
	});

	it('close() ends hanging requests', async () => {
		const hang = await open();
		hang.faults.add({ type: 'delay', delayMs: 10 * 60_000 });
		const pending = call(hang, 'GET', '/api/v1/current_user').catch((e) => e);
		const held = await logged(hang, (r) => r.path === '/api/v1/current_user');
		expect(held.status).toBeNull();
		await hang.close();
		expect(await pending).toBeInstanceOf(Error);
	});
});

describe('Date header', () => {
	it('follows the sandbox clock on every answer (manual clock far from the host), never the host clock', async () => {
		// A leap day, 250 ms before a whole second, years before the host's time.
		const start = Date.UTC(2012, 1, 29, 23, 59, 58, 750);
		const sb = await open({ clock: 'manual', startTime: start, downloadTtlMs: 60_000 });
		const dates = async () => {
			const doc = sb.createDocument({ status: 'success' });
			sb.faults.add({
				method: 'GET',
				path: '/api/v1/workspace_cards',
				type: 'status',
				status: 503,
			});
			const answers = [
				await call(sb, 'GET', '/api/v1/document_cards?q[status]=failure'),
				await call(sb, 'GET', '/api/v1/document_cards?q[updated_since]=nope'),
				await call(sb, 'GET', '/api/v1/current_user'),
				await call(sb, 'GET', '/api/v1/current_user', { auth: 'Bearer wrong' }),
				await call(sb, 'GET', '/api/v1/no/such/route'),
				await call(sb, 'GET', '/api/v1/workspace_cards'),
				await call(sb, 'DELETE', `/api/v1/documents/${doc.id}`),
				await call(sb, 'GET', sb.downloadUrlFor(sb.createDocument({ status: 'success' }).id)!, {
					auth: false,
				}),
			];
			expect(answers.map((a) => a.status)).toEqual([200, 422, 200, 401, 404, 503, 204, 200]);
			return answers.map((a) => a.headers.date);
		};
		// IMF-fixdate, whole seconds, floored; one Date header only (a string, not an array).
		expect(new Set(await dates())).toEqual(new Set(['Wed, 29 Feb 2012 23:59:58 GMT']));
		sb.clock.advance(1249);
		expect(new Set(await dates())).toEqual(new Set(['Wed, 29 Feb 2012 23:59:59 GMT']));
		sb.clock.advance(1);
		expect(new Set(await dates())).toEqual(new Set(['Thu, 01 Mar 2012 00:00:00 GMT']));
		sb.clock.set(Date.UTC(2041, 6, 4, 12, 0, 0));
		expect(new Set(await dates())).toEqual(new Set(['Thu, 04 Jul 2041 12:00:00 GMT']));
	});

	it('follows the offset of a real clock started elsewhere in time', async () => {
		const start = Date.UTC(2035, 0, 1, 0, 0, 0);
		const hostBefore = Date.now();
		const sb = await open({ startTime: start });
		const r = await call(sb, 'GET', '/api/v1/current_user');
		const elapsed = Date.now() - hostBefore;
		const date = Date.parse(String(r.headers.date));
		expect(r.headers.date).toMatch(
			/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
		);
		expect(date).toBeGreaterThanOrEqual(start - 1000);
		expect(date).toBeLessThanOrEqual(start + elapsed + 1000);
	});
});

describe('what real clients of the service send and read', () => {
	it("a create without the {document} wrapper (as the service's own n8n node sends it)", async () => {
		const sb = await open();
		const r = await call(sb, 'POST', '/api/v1/documents', {
			body: { document_template_id: tpl(sb, 'invoice').id, payload: { n: 1 }, status: 'draft' },
		});
		expect(r.status).toBe(201);
		expect(r.json.document).toMatchObject({ status: 'draft', payload: '{"n":1}' });
	});

	it('an empty list answers total_pages 1 and next_page null', async () => {
		const sb = await open();
		const r = await call(sb, 'GET', '/api/v1/document_cards?q[status]=failure&q[search]=nothing');
		expect(r.json).toEqual({
			document_cards: [],
			meta: { current_page: 1, next_page: null, prev_page: null, total_pages: 1 },
		});
	});

	it('q[status][] in the array form, repeatable; page[size] honoured unless told not to', async () => {
		const ignoring = await open({ honourPageSize: false });
		for (let i = 0; i < 30; i++) ignoring.createDocument({ status: 'success' });
		const first = await call(ignoring, 'GET', '/api/v1/document_cards?page[size]=100');
		expect(first.json.document_cards).toHaveLength(24);
		expect(first.json.meta).toMatchObject({ next_page: 2, total_pages: 2 });
		const sb = await open();
		for (const status of ['success', 'failure', 'draft', 'success'])
			sb.createDocument({ status: status as 'success' });
		const both = await call(
			sb,
			'GET',
			'/api/v1/document_cards?q[status][]=success&q[status][]=failure',
		);
		expect(both.json.document_cards.map((c: { status: string }) => c.status).sort()).toEqual([
			'failure',
			'success',
			'success',
		]);
		const page = await call(sb, 'GET', '/api/v1/document_cards?page[size]=2&page[number]=2');
		expect(page.json.document_cards).toHaveLength(2);
		expect(page.json.meta).toMatchObject({ current_page: 2, total_pages: 2, next_page: null });
	});

	it('cards carry preview_url and public_share_link (null without a link)', async () => {
		const sb = await open();
		const id = sb.createDocument({ status: 'success' }).id;
		const card = (await call(sb, 'GET', `/api/v1/document_cards/${id}`)).json.document_card;
		expect(card.preview_url).toMatch(/\/preview\//);
		expect(card).toHaveProperty('public_share_link', null);
	});

	it('rest_hooks: registered with 201 and an id, deleted with 204, unknown id 404', async () => {
		const sb = await open();
		const created = await call(sb, 'POST', '/api/v1/rest_hooks', {
			body: {
				rest_hook: {
					url: 'https://example.test/hook',
					event: 'documents.generation.success',
					workspace_id: sb.workspaces[0].id,
					custom_channel: 'x',
				},
			},
		});
		expect(created.status).toBe(201);
		const id = created.json.rest_hook.id;
		expect(created.json.rest_hook).toMatchObject({
			url: 'https://example.test/hook',
			custom_channel: 'x',
		});
		expect(JSON.stringify(created.json)).not.toMatch(/whsec_/);
		expect((await call(sb, 'DELETE', `/api/v1/rest_hooks/${id}`)).status).toBe(204);
		expect((await call(sb, 'DELETE', `/api/v1/rest_hooks/${id}`)).status).toBe(404);
		const bad = await call(sb, 'POST', '/api/v1/rest_hooks', {
			body: { rest_hook: { url: 'nope', event: 'documents.other', workspace_id: 'x' } },
		});
		expect(bad.status).toBe(422);
		expect(Object.keys(bad.json.errors).sort()).toEqual(['event', 'url', 'workspace']);
	});

	it('templates: the full record carries an auth_token; create, update and delete', async () => {
		const sb = await open();
		const id = tpl(sb, 'invoice').id;
		const got = await call(sb, 'GET', `/api/v1/document_templates/${id}`);
		expect(got.json.document_template).toMatchObject({
			id,
			identifier: 'invoice',
			auth_token: expect.any(String),
		});
		const created = await call(sb, 'POST', '/api/v1/document_templates', {
			body: {
				document_template: { identifier: 'new', app_id: sb.workspaces[0].id, output_type: 'png' },
			},
		});
		expect(created.status).toBe(201);
		const updated = await call(
			sb,
			'PUT',
			`/api/v1/document_templates/${created.json.document_template.id}`,
			{
				body: { document_template: { body_draft: '<p/>' } },
			},
		);
		expect(updated.json.document_template.body_draft).toBe('<p/>');
		expect(
			(await call(sb, 'DELETE', `/api/v1/document_templates/${created.json.document_template.id}`))
				.status,
		).toBe(204);
	});
});
