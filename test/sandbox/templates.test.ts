// The sandbox's templates over HTTP, as docs/spec/service-facts.md describes them under
// Templates: settings replaced whole, retention (ttl), preview URLs, folders and sorting.
import { request } from 'undici';
import { startSandbox, type Sandbox, type SandboxOptions } from './index';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Answer {
	status: number;
	contentType: string;
	bytes: Buffer;
	json: Json;
}

async function call(sb: Sandbox, method: string, path: string, body?: unknown): Promise<Answer> {
	const keyless = path.startsWith('http');
	const headers: Record<string, string> = keyless ? {} : { authorization: `Bearer ${sb.apiKey}` };
	if (body !== undefined) headers['content-type'] = 'application/json';
	const url = keyless ? path : `${sb.url}${path}`;
	const res = await request(url, {
		method: method as 'GET',
		headers,
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const bytes = Buffer.from(await res.body.arrayBuffer());
	let json: Json;
	try {
		json = JSON.parse(bytes.toString('utf8'));
	} catch {
		json = undefined;
	}
	return { status: res.statusCode, contentType: String(res.headers['content-type']), bytes, json };
}

const sandboxes: Sandbox[] = [];
async function open(options: SandboxOptions = { seed: 53 }): Promise<Sandbox> {
	const sb = await startSandbox(options);
	sandboxes.push(sb);
	return sb;
}
afterAll(async () => {
	await Promise.all(sandboxes.map((s) => s.close()));
});

const PAGE = {
	paper_format: 'a4',
	orientation: 'landscape',
	margin: { top: 20, right: 15, bottom: 25, left: 15 },
	header: { left: 'Acme Billing', center: '', right: 'Invoice' },
	footer: { left: '', center: 'Page [page] of [topage]', right: '' },
};

const templateOf = (sb: Sandbox, identifier: string) => {
	const t = sb.templates.find((x) => x.identifier === identifier);
	if (!t) throw new Error(`no template ${identifier}`);
	return t;
};

/** Creates a template in the first workspace and answers its record. */
async function createTemplate(sb: Sandbox, fields: Record<string, unknown>): Promise<Json> {
	const answer = await call(sb, 'POST', '/api/v1/document_templates', {
		document_template: { identifier: 'letter', app_id: sb.workspaces[0].id, ...fields },
	});
	expect(answer.status).toBe(201);
	return answer.json.document_template;
}

const update = async (sb: Sandbox, id: string, fields: Record<string, unknown>) =>
	await call(sb, 'PUT', `/api/v1/document_templates/${id}`, { document_template: fields });

const fetchTemplate = async (sb: Sandbox, id: string): Promise<Json> =>
	(await call(sb, 'GET', `/api/v1/document_templates/${id}`)).json.document_template;

describe('settings_draft: a JSON field, replaced whole on update', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await open();
	});

	it('a new PDF template starts A4 portrait with zero margins; an image one 500 x 500', async () => {
		const pdf = await createTemplate(sb, {});
		expect(pdf.settings_draft).toEqual({
			paper_format: 'a4',
			orientation: 'portrait',
			margin: { top: 0, right: 0, bottom: 0, left: 0 },
		});
		expect(pdf.settings).toEqual(pdf.settings_draft);
		const image = await createTemplate(sb, { identifier: 'card', output_type: 'png' });
		expect(image.settings_draft).toEqual({ width: 500, height: 500, transparent: false });
	});

	it('keeps the page settings sent, [page] and [topage] as written, and returns an object', async () => {
		const created = await createTemplate(sb, { settings_draft: PAGE });
		expect(created.settings_draft).toEqual(PAGE);
		expect((await fetchTemplate(sb, created.id)).settings_draft).toEqual(PAGE);
		expect(typeof created.settings_draft).toBe('object');
	});

	it('an update of one margin replaces the draft settings whole: the rest is gone', async () => {
		const created = await createTemplate(sb, { settings_draft: PAGE });
		const answer = await update(sb, created.id, { settings_draft: { margin: { top: 5 } } });
		expect(answer.status).toBe(200);
		expect(answer.json.document_template.settings_draft).toEqual({ margin: { top: 5 } });
		const stored = await fetchTemplate(sb, created.id);
		expect(stored.settings_draft).toEqual({ margin: { top: 5 } });
		// The published settings are not the draft's: an update leaves them.
		expect(stored.settings).toEqual(created.settings);
	});

	it('an update without settings_draft leaves the draft settings as they are', async () => {
		const created = await createTemplate(sb, { settings_draft: PAGE });
		expect((await update(sb, created.id, { body_draft: '<p>x</p>' })).status).toBe(200);
		expect((await fetchTemplate(sb, created.id)).settings_draft).toEqual(PAGE);
	});

	it('a custom paper size with both dimensions, and image settings, pass', async () => {
		const custom = { paper_format: 'custom', paper_width: 100, paper_height: 150 };
		expect((await createTemplate(sb, { settings_draft: custom })).settings_draft).toEqual(custom);
		const image = { width: 1200, height: 630, transparent: true };
		const card = await createTemplate(sb, { output_type: 'png', settings_draft: image });
		expect(card.settings_draft).toEqual(image);
	});

	it.each([
		[{ margin: { top: -1 } }, 'margin.top must be a number of mm, 0 or more'],
		[{ margin: { top: '10mm' } }, 'margin.top must be a number of mm, 0 or more'],
		[{ margin: { middle: 1 } }, 'margin.middle is not a side (top, right, bottom, left)'],
		[
			{ paper_format: 'custom', paper_width: 100 },
			'paper_format custom needs paper_width and paper_height',
		],
		[{ paper_format: 'A4' }, 'paper_format "A4" is not one of a3, a4, a5, letter, legal, custom'],
		[{ orientation: 'sideways' }, 'orientation "sideways" is not portrait or landscape'],
		[{ footer: 'Page [page]' }, 'footer must be an object of left, center, right'],
		[{ header: { middle: 'x' } }, 'header.middle is not one of left, center, right, content'],
		[{ footer: { center: 1 } }, 'footer.center must be a text'],
		[{ width: 0 }, 'width must be a number greater than 0'],
		[{ transparent: 'yes' }, 'transparent must be true or false'],
		[{ margins: { top: 1 } }, 'margins is not a template setting'],
		[JSON.stringify(PAGE), 'must be a JSON object'],
	])(
		'refuses %j with 422, naming settings_draft, and changes nothing',
		async (settings, message) => {
			const t = templateOf(sb, 'invoice');
			const before = await fetchTemplate(sb, t.id);
			const answer = await update(sb, t.id, { settings_draft: settings, body_draft: 'changed' });
			expect(answer.status).toBe(422);
			expect(answer.json).toEqual({ errors: { settings_draft: [message] } });
			expect(await fetchTemplate(sb, t.id)).toEqual(before);
		},
	);
});

describe('ttl: the retention of a template, in whole seconds, capped by the plan', () => {
	it('is kept as sent on create and update; new templates start with the cap', async () => {
		const sb = await open();
		const created = await createTemplate(sb, {});
		expect(created.ttl).toBe(30 * 24 * 3600);
		expect(created.deleted_at).toBeNull();
		expect((await createTemplate(sb, { ttl: 7 * 86400 })).ttl).toBe(604800);
		const answer = await update(sb, created.id, { ttl: 3600 });
		expect(answer.json.document_template.ttl).toBe(3600);
		expect((await fetchTemplate(sb, created.id)).ttl).toBe(3600);
	});

	it.each([
		[1.5, 'must be an integer (seconds)'],
		['3600', 'must be an integer (seconds)'],
		[null, 'must be an integer (seconds)'],
		[0, 'must be greater than 0'],
		[-60, 'must be greater than 0'],
	])('refuses %j with 422 on ttl', async (ttl, message) => {
		const sb = await open();
		const answer = await update(sb, templateOf(sb, 'invoice').id, { ttl });
		expect(answer.status).toBe(422);
		expect(answer.json).toEqual({ errors: { ttl: [message] } });
	});

	it('refuses more than the plan allows (maxTemplateTtl)', async () => {
		const sb = await open({ maxTemplateTtl: 86400 });
		const id = templateOf(sb, 'invoice').id;
		expect((await update(sb, id, { ttl: 86400 })).status).toBe(200);
		const answer = await update(sb, id, { ttl: 86401 });
		expect(answer.status).toBe(422);
		expect(answer.json).toEqual({
			errors: { ttl: ["must be less than or equal to 86400 (the plan's longest)"] },
		});
		expect((await createTemplate(sb, {})).ttl).toBe(86400);
	});
});

describe('preview_url and the draft debug preview', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await open();
	});

	it("a template's preview_url opens its draft rendered with its sample data, with no key", async () => {
		const record = await fetchTemplate(sb, templateOf(sb, 'invoice').id);
		expect(record.preview_url).toBe(`${sb.url}/template_previews/${record.id}`);
		expect(record.checksum).toMatch(/^[0-9a-f]{32}$/);
		const page = await call(sb, 'GET', record.preview_url);
		expect(page.status).toBe(200);
		expect(page.contentType).toBe('text/html; charset=utf-8');
		expect(page.bytes.toString('utf8')).toContain('Ada Lovelace');
	});

	it('GET document_template_debugs/ID answers {document_template_debug: {url}}: a PDF of the draft', async () => {
		const t = templateOf(sb, 'invoice');
		const answer = await call(sb, 'GET', `/api/v1/document_template_debugs/${t.id}`);
		expect(answer.status).toBe(200);
		expect(answer.json).toEqual({ document_template_debug: { url: expect.any(String) } });
		const url = answer.json.document_template_debug.url as string;
		expect(url).toMatch(new RegExp(`^${sb.url}/template_debugs/[0-9a-f]{24}/invoice-draft\\.pdf$`));
		const file = await call(sb, 'GET', url);
		expect(file.status).toBe(200);
		expect(file.contentType).toBe('application/pdf');
		expect(file.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
		expect(file.bytes.toString('latin1')).toContain('Ada Lovelace');
	});

	it('each debug renders the draft as it is then; an earlier URL keeps its snapshot', async () => {
		const t = templateOf(sb, 'payslip');
		const debugUrl = async () =>
			(await call(sb, 'GET', `/api/v1/document_template_debugs/${t.id}`)).json
				.document_template_debug.url as string;
		const first = await debugUrl();
		await update(sb, t.id, { body_draft: '# Draft for {{ employee.name }} v2' });
		const second = await debugUrl();
		expect(second).not.toBe(first);
		expect((await call(sb, 'GET', second)).bytes.toString('latin1')).toContain(
			'Draft for Grace Hopper v2',
		);
		expect((await call(sb, 'GET', first)).bytes.toString('latin1')).not.toContain('Draft for');
	});

	it('an image template previews as a PNG; an unknown template is 404 shape 1; no key is 401', async () => {
		const image = await call(
			sb,
			'GET',
			`/api/v1/document_template_debugs/${templateOf(sb, 'badge').id}`,
		);
		const png = await call(sb, 'GET', image.json.document_template_debug.url);
		expect(png.contentType).toBe('image/png');
		expect(png.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
		const missing = '00000000-0000-4000-8000-000000000000';
		const unknown = await call(sb, 'GET', `/api/v1/document_template_debugs/${missing}`);
		expect(unknown.status).toBe(404);
		expect(unknown.json.errors[0]).toEqual({
			status: '404',
			title: 'Not Found',
			detail: `We couldn't find any DocumentTemplate with ID "${missing}"`,
		});
		const keyless = await call(sb, 'GET', `${sb.url}/api/v1/document_template_debugs/${missing}`);
		expect(keyless.status).toBe(401);
		expect((await call(sb, 'GET', `${sb.url}/template_debugs/nope/x.pdf`)).status).toBe(404);
	});
});

describe('template cards: q[folders] and sort', () => {
	let sb: Sandbox;
	const names = async (query: string): Promise<string[]> => {
		const answer = await call(sb, 'GET', `/api/v1/document_template_cards?page=all&${query}`);
		expect(answer.status).toBe(200);
		return answer.json.document_template_cards.map((c: Json) => c.identifier);
	};
	const folderId = (identifier: string) => {
		const folder = sb.library.folders.find((f) => f.identifier === identifier);
		if (!folder) throw new Error(`no folder ${identifier}`);
		return folder.id;
	};
	beforeAll(async () => {
		sb = await open();
	});

	it('narrows to one folder, to several (comma-joined), to none, or to all', async () => {
		expect(await names(`q[folders]=${folderId('Billing')}`)).toEqual(['invoice', 'receipt']);
		expect(await names(`q[folders]=${folderId('Billing')},${folderId('Payroll')}`)).toEqual([
			'invoice',
			'payslip',
			'receipt',
		]);
		expect(await names('q[folders]=none')).toEqual(['always-fails', 'badge', 'contract']);
		const every = ['always-fails', 'badge', 'contract', 'invoice', 'payslip', 'receipt'];
		expect(await names('q[folders]=all')).toEqual(every);
		expect(await names('')).toEqual(every);
		expect(await names('q[folders]=00000000-0000-4000-8000-000000000000')).toEqual([]);
		const workspace = sb.workspaces[1].id;
		expect(await names(`q[workspace_id]=${workspace}&q[folders]=none`)).toEqual([
			'badge',
			'contract',
		]);
	});

	it('a paged list narrowed to a folder counts only that folder', async () => {
		const answer = await call(
			sb,
			'GET',
			`/api/v1/document_template_cards?q[folders]=${folderId('Payroll')}`,
		);
		expect(answer.json.document_template_cards.map((c: Json) => c.identifier)).toEqual(['payslip']);
		expect(answer.json.meta).toEqual({
			current_page: 1,
			next_page: null,
			prev_page: null,
			total_pages: 1,
		});
	});

	it('sorts by identifier (the default), its reverse, or the newest update first', async () => {
		const byName = ['always-fails', 'badge', 'contract', 'invoice', 'payslip', 'receipt'];
		expect(await names('sort=identifier')).toEqual(byName);
		expect(await names('sort=-identifier')).toEqual([...byName].reverse());
		const newestFirst = [...sb.templates]
			.sort((a, b) => b.updated_at - a.updated_at)
			.map((t) => t.identifier);
		expect(await names('sort=-updated_at')).toEqual(newestFirst);
		expect(newestFirst).not.toEqual(byName);
	});

	it.each([
		[
			'q[sort]=identifier',
			'q[sort] is not a parameter the service knows: send sort=identifier or sort=-updated_at',
		],
		['sort=name', 'sort=name is not an order the service knows: sort=identifier or -updated_at'],
		[
			'q[folders][]=none',
			'q[folders][] is not a form the service knows: send q[folders]=all, none or ID1,ID2',
		],
	])('answers 400 to %s, a form the service does not know', async (query, detail) => {
		const answer = await call(sb, 'GET', `/api/v1/document_template_cards?${query}`);
		expect(answer.status).toBe(400);
		expect(answer.json).toEqual({ errors: [{ status: '400', title: 'Bad Request', detail }] });
	});
});
