/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * Replays of what real clients of the service send, against the sandbox: the exact paths,
 * query strings, bodies and headers of the official Node SDK, the official Ruby gem and the
 * service's own n8n node, and the fields they read back. Where the sandbox answers like the
 * service, every one of them works; where a client does something the service refuses, the
 * sandbox refuses it too.
 */
import { request } from 'undici';

import { startSandbox, type Sandbox } from '../sandbox';

let sb: Sandbox;

beforeAll(async () => {
	sb = await startSandbox({ pendingMs: 20, generatingMs: 60 });
});

afterAll(async () => {
	await sb.close();
});

async function send(
	method: string,
	path: string,
	body?: unknown,
	headers: Record<string, string> = {},
) {
	const res = await request(`${sb.url}${path}`, {
		method: method as 'GET',
		headers: {
			authorization: `Bearer ${sb.apiKey}`,
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
			...headers,
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await res.body.text();
	return { status: res.statusCode, json: text ? JSON.parse(text) : undefined };
}

/** An answer of this status whose record under `key` has (at least) these fields. */
function expectAnswer(
	answer: Awaited<ReturnType<typeof send>>,
	status: number,
	key: string,
	fields: Record<string, unknown>,
): void {
	expect(answer.status).toBe(status);
	expect(answer.json[key]).toMatchObject(fields);
}

const template = (identifier: string) => sb.templates.find((t) => t.identifier === identifier)!.id;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Reads a document as a client does (`read`) until it is finished: no bound of its own (jest's
 * timeout ends a wait for a document that never finishes, however busy the machine).
 */
async function untilFinished<T extends { status: string }>(read: () => Promise<T>): Promise<T> {
	let record = await read();
	while (!['error', 'failure', 'success'].includes(record.status)) {
		await sleep(20);
		record = await read();
	}
	return record;
}

describe('the official Node SDK', () => {
	test('documents.create: {document} with payload as JSON text and meta serialised', async () => {
		const r = await send('POST', '/api/v1/documents', {
			document: {
				document_template_id: template('invoice'),
				payload: JSON.stringify({ number: 'N-1' }),
				meta: JSON.stringify({ _filename: 'n-1.pdf', customerId: '1985782' }),
				status: 'pending',
			},
		});
		expect(r.status).toBe(201);
		expect(JSON.parse(r.json.document.payload)).toEqual({ number: 'N-1' });
		expect(JSON.parse(r.json.document.meta)).toEqual({
			_filename: 'n-1.pdf',
			customerId: '1985782',
		});
	});

	test('documents.generateSync: documents/sync answers {document_card} once generated', async () => {
		const r = await send('POST', '/api/v1/documents/sync', {
			document: {
				document_template_id: template('invoice'),
				payload: '{"n":2}',
				status: 'pending',
			},
		});
		expectAnswer(r, 200, 'document_card', {
			status: 'success',
			preview_url: expect.any(String),
		});
		expect(r.json.document_card).toHaveProperty('public_share_link');
	});

	test('documentCards.list: q[...] filters in the single form, page[number]; the meta it reads', async () => {
		const query = `q[document_template_id]=${template('invoice')}&q[status]=success&page[number]=1`;
		const r = await send('GET', `/api/v1/document_cards?${query}`);
		expect(r.status).toBe(200);
		expect(r.json.meta).toEqual(
			expect.objectContaining({ current_page: 1, total_pages: expect.any(Number) }),
		);
		expect(Array.isArray(r.json.document_cards)).toBe(true);
	});

	test('documentTemplates: cards listed with q[workspace_id], created with app_id, sample data as text', async () => {
		const workspace = sb.workspaces[0].id;
		const cards = await send(
			'GET',
			`/api/v1/document_template_cards?q[workspace_id]=${workspace}&page[number]=1`,
		);
		expect(cards.json.document_template_cards[0]).toHaveProperty('auth_token');
		const created = await send('POST', '/api/v1/document_templates', {
			document_template: {
				identifier: 'from-sdk',
				app_id: workspace,
				body_draft: '<p>{{ a }}</p>',
				sample_data_draft: '{"a": 1}',
				settings_draft: { margin: 10 },
			},
		});
		expectAnswer(created, 201, 'document_template', {
			sample_data_draft: '{"a": 1}',
			auth_token: expect.any(String),
		});
	});

	test('restHooks.create: several events joined by commas, platform "api"; delete', async () => {
		const created = await send('POST', '/api/v1/rest_hooks', {
			rest_hook: {
				url: 'https://example.test/hooks',
				workspace_id: sb.workspaces[0].id,
				event: 'documents.generation.success,documents.generation.failure',
				platform: 'api',
			},
		});
		expectAnswer(created, 201, 'rest_hook', {
			platform: 'api',
			created_at: expect.any(String),
		});
		expect((await send('DELETE', `/api/v1/rest_hooks/${created.json.rest_hook.id}`)).status).toBe(
			204,
		);
	});
});

describe('the official Ruby gem', () => {
	test('Document.generate!: {document} with every attribute, nulls included, JSON texts; reload! until done', async () => {
		const r = await send('POST', '/api/v1/documents', {
			document: {
				app_id: null,
				checksum: null,
				created_at: null,
				document_template_id: template('receipt'),
				download_url: null,
				id: null,
				meta: '{}',
				payload: '{"amount":12}',
				preview_url: null,
				status: 'pending',
				updated_at: null,
			},
		});
		expect(r.status).toBe(201);
		const id = r.json.document.id;
		const reloaded = await untilFinished(
			async () => (await send('GET', `/api/v1/documents/${id}`)).json.document,
		);
		expect(reloaded.status).toBe('success');
	});
});

describe("the service's own n8n node", () => {
	test('create without the {document} wrapper, payload and meta as objects; polls the card', async () => {
		const r = await send('POST', '/api/v1/documents', {
			document_template_id: template('invoice'),
			payload: { number: 'X' },
			meta: { _filename: 'x.pdf' },
			status: 'pending',
		});
		expect(r.status).toBe(201);
		const id = r.json.document.id;
		const card = await untilFinished(
			async () => (await send('GET', `/api/v1/document_cards/${id}`)).json.document_card,
		);
		expect(card).toMatchObject({
			status: 'success',
			filename: 'x.pdf',
			download_url: expect.any(String),
		});
	});

	test('its credential test lists document_templates', async () => {
		const r = await send('GET', '/api/v1/document_templates');
		expect(r.status).toBe(200);
		expect(r.json.document_templates.length).toBeGreaterThan(0);
	});

	test('it fetches download_url with the API key: refused by the file host, as object storage does', async () => {
		const id = sb.createDocument({ status: 'success' }).id;
		const url = sb.downloadUrlFor(id);
		expect(url).toEqual(expect.any(String));
		const res = await request(url!, { headers: { authorization: `Bearer ${sb.apiKey}` } });
		expect(res.statusCode).toBe(400);
		expect(await res.body.text()).toMatch(/Only one auth mechanism allowed/);
	});
});

describe('the rest of the account that clients call', () => {
	test('workspaces, template folders and snippets (only with q[workspace_id]), PDF engines', async () => {
		const workspace = sb.workspaces[0].id;
		expect((await send('GET', '/api/v1/workspaces')).json.workspaces[0]).toHaveProperty(
			'invite_token',
		);
		expect((await send('GET', `/api/v1/workspaces/${workspace}`)).json.workspace.id).toBe(
			workspace,
		);
		expect((await send('GET', '/api/v1/template_folders')).json.template_folders).toEqual([]);
		const folders = await send('GET', `/api/v1/template_folders?q[workspace_id]=${workspace}`);
		expect(folders.json.template_folders.map((f: { identifier: string }) => f.identifier)).toEqual([
			'Billing',
		]);
		const folder = await send('POST', '/api/v1/template_folders', {
			template_folder: { identifier: 'Letters', app_id: workspace },
		});
		expect(folder.status).toBe(201);
		const snippets = await send('GET', `/api/v1/snippets?q[workspace_id]=${workspace}`);
		expect(snippets.json.snippets[0]).toMatchObject({
			identifier: 'company-footer',
			code: expect.any(String),
		});
		const engines = await send('GET', '/api/v1/pdf_engines');
		expect(engines.json.pdf_engines.map((e: { name: string }) => e.name)).toEqual(['v3', 'v4']);
	});

	test('snippets and folders: page=all answers every record without meta; get, update, delete', async () => {
		const workspace = sb.workspaces[0].id;
		for (const [plural, singular, fields] of [
			['snippets', 'snippet', { identifier: 'x', code: '<p></p>', workspace_id: workspace }],
			['template_folders', 'template_folder', { identifier: 'x', app_id: workspace }],
		] as const) {
			const created = await send('POST', `/api/v1/${plural}`, { [singular]: fields });
			expect(created.status).toBe(201);
			const id = created.json[singular].id;
			const all = await send('GET', `/api/v1/${plural}?q[workspace_id]=${workspace}&page=all`);
			expect(all.json).not.toHaveProperty('meta');
			expect(all.json[plural].map((r: { id: string }) => r.id)).toContain(id);
			expect((await send('GET', `/api/v1/${plural}/${id}`)).json[singular].identifier).toBe('x');
			const blank = await send('PUT', `/api/v1/${plural}/${id}`, {
				[singular]: { identifier: ' ' },
			});
			expect(blank.status).toBe(422);
			const renamed = await send('PUT', `/api/v1/${plural}/${id}`, {
				[singular]: { identifier: 'y' },
			});
			expect(renamed.json[singular]).toMatchObject({ id, identifier: 'y' });
			expect((await send('DELETE', `/api/v1/${plural}/${id}`)).status).toBe(204);
			expect((await send('GET', `/api/v1/${plural}/${id}`)).status).toBe(404);
		}
	});

	test('templates carry their engine: pdf_engine_id and pdf_engine_draft_id; cards its deprecation date', async () => {
		const engines = (await send('GET', '/api/v1/pdf_engines')).json.pdf_engines as Array<{
			id: string;
			deprecated_on: string | null;
		}>;
		const old = engines.find((e) => e.deprecated_on)!;
		expect(old.deprecated_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
		const cards = (await send('GET', '/api/v1/document_template_cards?page=all')).json
			.document_template_cards as Array<Record<string, unknown>>;
		expect(cards.find((c) => c.identifier === 'receipt')).toMatchObject({
			pdf_engine_name: 'v3',
			pdf_engine_deprecated_on: old.deprecated_on,
		});
		expect(cards.find((c) => c.identifier === 'invoice')).toMatchObject({
			pdf_engine_name: 'v4',
			pdf_engine_deprecated_on: null,
		});
		const body = (draft: unknown) => ({
			document_template: {
				identifier: 'engine-check',
				app_id: sb.workspaces[0].id,
				pdf_engine_draft_id: draft,
			},
		});
		const created = await send('POST', '/api/v1/document_templates', body(old.id));
		expectAnswer(created, 201, 'document_template', {
			pdf_engine_draft_id: old.id,
			pdf_engine_id: expect.any(String),
		});
		expect(created.json.document_template).not.toHaveProperty('pdf_engine_deprecated_on');
		const unknown = await send('POST', '/api/v1/document_templates', body('nope'));
		expect(unknown.status).toBe(422);
		expect(unknown.json).toEqual({ errors: { pdf_engine_draft: ['must exist'] } });
	});

	test('rate limiting, when turned on: 429 with Retry-After in seconds', async () => {
		// On the sandbox's own clock, standing at the start of a minute: the three calls share
		// one window whatever the machine's speed.
		const limited = await startSandbox({
			rateLimit: { requests: 2, perMs: 60_000 },
			clock: 'manual',
			startTime: Date.UTC(2026, 10, 21, 10, 0, 0, 0),
		});
		try {
			const call = async () =>
				await request(`${limited.url}/api/v1/current_user`, {
					headers: { authorization: `Bearer ${limited.apiKey}` },
				});
			expect((await call()).statusCode).toBe(200);
			limited.clock.advance(20_000);
			expect((await call()).statusCode).toBe(200);
			limited.clock.advance(20_000);
			const third = await call();
			expect(third.statusCode).toBe(429);
			// Whole seconds to the window's end.
			expect(third.headers['retry-after']).toBe('20');
			limited.clock.advance(20_000);
			expect((await call()).statusCode).toBe(200);
		} finally {
			await limited.close();
		}
	});
});
