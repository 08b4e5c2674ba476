/* eslint-disable no-console -- test code: runs in Node under jest, never inside n8n */
/**
 * The template resource, one document in one round trip (documents/sync, and every way it can
 * go wrong), image outputs and the PDF password: on the engine against the sandbox.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../../../../harness/use-sandbox';
import { byId, invoiceCreate, run, templateId } from '../../helpers';
import { statusFault } from '../../../../harness/fixtures';

const sb = useSandbox({ pendingMs: 20, generatingMs: 150 });

const workspace = () => sb.workspaces.find((w) => w.identifier === 'Acme Billing')!.id;
const onTemplate = (operation: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'template',
	operation,
	...extra,
});
const apiCalls = () =>
	sb.requests.map((r) => `${r.method} ${r.path.replace(/^\/files\/.*/, 'file')}`);

describe('template resource', () => {
	test('Get Many: the cards of one workspace in one request; a limit, or all', async () => {
		const all = await run(
			sb,
			onTemplate('getAll', { workspaceId: byId(workspace()), returnAll: true }),
		);
		expect(all.error).toBeUndefined();
		expect(all.items.map((i) => i.json.identifier)).toEqual(['always-fails', 'invoice', 'receipt']);
		expect(sb.requests).toHaveLength(1);
		expect(sb.requests[0].query).toMatchObject({ page: 'all', 'q[workspace_id]': workspace() });
		const limited = await run(
			sb,
			onTemplate('getAll', { workspaceId: byId(workspace()), limit: 2 }),
		);
		expect(limited.items).toHaveLength(2);
	});

	test('Get: the full template, without its auth_token', async () => {
		const id = templateId(sb);
		expect(sb.templates.find((t) => t.id === id)).toHaveProperty('auth_token');
		const result = await run(sb, onTemplate('get', { templateId: byId(id) }));
		expect(result.items[0].json).toMatchObject({
			id,
			identifier: 'invoice',
			body_draft: expect.any(String),
		});
		expect(JSON.stringify(result.items)).not.toMatch(/auth_token/);
	});

	test('Create: only the given fields, under the service names, in the chosen workspace', async () => {
		const result = await run(
			sb,
			onTemplate('create', {
				workspaceId: byId(workspace()),
				templateFields: {
					identifier: 'letter',
					body: '<p>Dear {{ name }}</p>',
					sampleData: '{"name": "Ada"}',
					outputType: 'webp',
				},
			}),
		);
		expect(result.error).toBeUndefined();
		expect(sb.requests[0].body).toEqual({
			document_template: {
				app_id: workspace(),
				identifier: 'letter',
				body_draft: '<p>Dear {{ name }}</p>',
				sample_data_draft: '{"name":"Ada"}',
				output_type: 'webp',
			},
		});
		expect(result.items[0].json).toMatchObject({ identifier: 'letter', output_type: 'webp' });
		expect(JSON.stringify(result.items)).not.toMatch(/auth_token/);
	});

	test('Create without a name, Update with nothing, bad sample data: refused, nothing sent', async () => {
		const noName = await run(
			sb,
			onTemplate('create', { workspaceId: byId(workspace()), templateFields: { body: 'x' } }),
		);
		expect(noName.error!.message).toBe('The new template has no name (item 1)');
		const nothing = await run(sb, onTemplate('update', { templateId: byId(templateId(sb)) }));
		expect(nothing.error!.message).toMatch(/^Nothing to update/);
		const badJson = await run(
			sb,
			onTemplate('update', {
				templateId: byId(templateId(sb)),
				templateFields: { sampleData: '{a: 1}' },
			}),
		);
		expect(badJson.error!.message).toMatch(
			/sample data is not valid JSON \(the name a needs double quotes/,
		);
		expect(sb.requests).toHaveLength(0);
	});

	test('Update sends only the given fields; Delete outputs {deleted, id}', async () => {
		const id = templateId(sb, 'receipt');
		const updated = await run(
			sb,
			onTemplate('update', { templateId: byId(id), templateFields: { styles: 'h1 {}' } }),
		);
		expect(sb.requests[0]).toMatchObject({
			method: 'PUT',
			path: `/api/v1/document_templates/${id}`,
		});
		expect(sb.requests[0].body).toEqual({ document_template: { scss_style_draft: 'h1 {}' } });
		expect(updated.items[0].json.scss_style_draft).toBe('h1 {}');
		const deleted = await run(sb, onTemplate('delete', { templateId: byId(id) }));
		expect(deleted.items[0].json).toEqual({ deleted: true, id });
		expect(sb.templates.some((t) => t.id === id)).toBe(false);
	});
});

const createOne = (extra: INodeParameters = {}) => invoiceCreate(sb, '{"number": "INV-1"}', extra);

describe('one document in one round trip (documents/sync)', () => {
	test('with download: two requests (sync + file), the time taken printed, not asserted', async () => {
		const started = Date.now();
		const result = await run(sb, createOne());
		const elapsed = Date.now() - started;
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.status).toBe('success');
		expect(result.items[0].binary?.data?.mimeType).toBe('application/pdf');
		expect(apiCalls()).toEqual(['POST /api/v1/documents/sync', 'GET file']);
		console.log(
			`one document with download: ${apiCalls().length} requests, ${elapsed} ms (generation 170 ms)`,
		);
	});

	test('the service answers while still generating: the node waits the normal way, one document', async () => {
		sb.setOptions({ syncLimitMs: 50, generatingMs: 600 });
		const result = await run(sb, createOne());
		expect(result.error).toBeUndefined();
		sb.setOptions({ syncLimitMs: 30_000, generatingMs: 150 });
		expect(result.items[0].json.status).toBe('success');
		expect(sb.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
		expect(apiCalls()).toContain(`GET /api/v1/document_cards/${String(result.items[0].json.id)}`);
	});

	test.each([
		['drops the connection after creating', { type: 'reset-after-handling' as const }],
		['answers 503 after creating', { type: 'status' as const, status: 503, afterHandling: true }],
		[
			'answers 201 of an unknown shape after creating',
			{ type: 'status' as const, status: 201, body: {}, afterHandling: true },
		],
	])('the sync request %s: the document is found, never created twice', async (label, fault) => {
		sb.faults.add({ ...fault, method: 'POST', path: '/api/v1/documents/sync' });
		// Each case its own meta: documents of earlier cases must not make the search ambiguous.
		const order = `A-${label}`;
		const result = await run(
			sb,
			createOne({ additionalFields: { meta: JSON.stringify({ order }) } }),
		);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ status: 'success', meta: { order } });
		expect(sb.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
	});

	test('a sync failure that cannot be traced to one document fails without creating again', async () => {
		// Two earlier documents with the same template and meta: the search cannot tell which.
		for (let i = 0; i < 2; i++)
			sb.createDocument({ document_template_id: templateId(sb), meta: { order: 'B' } });
		sb.faults.add(statusFault(503, 'POST', '/api/v1/documents/sync', { body: 'oops' }));
		const result = await run(sb, createOne({ additionalFields: { meta: '{"order": "B"}' } }));
		expect(result.error?.message).toMatch(/failed with 503/);
		expect(result.error?.description).toMatch(/look for it/);
		expect(sb.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
	});

	test('a refused sync create (422) is an error, and nothing else is sent', async () => {
		const result = await run(
			sb,
			createOne({ templateId: byId('00000000-0000-4000-8000-00000000abcd') }),
		);
		expect(result.error?.message).toMatch(/refused the data \(422\)/);
		expect(apiCalls()).toEqual(['POST /api/v1/documents/sync']);
	});

	test('batches (two items and more) keep the create-then-wait path', async () => {
		const result = await run(sb, createOne({ download: false }), [{}, {}]);
		expect(result.error).toBeUndefined();
		expect(sb.requests.filter((r) => r.path === '/api/v1/documents')).toHaveLength(2);
		expect(sb.requests.filter((r) => r.path === '/api/v1/documents/sync')).toHaveLength(0);
	});
});

describe('output types and the PDF password', () => {
	test('an image template gives an image file with its MIME type and extension', async () => {
		const result = await run(sb, createOne({ templateId: byId(templateId(sb, 'badge')) }));
		expect(result.items[0].binary?.data).toMatchObject({
			mimeType: 'image/png',
			fileExtension: 'png',
		});
		expect(String(result.items[0].binary?.data?.fileName)).toMatch(/\.png$/);
	});

	test.each([
		['jpg', 'image/jpeg'],
		['webp', 'image/webp'],
	])('a %s template: %s, whatever file name was asked for', async (format, mime) => {
		const created = await run(
			sb,
			onTemplate('create', {
				workspaceId: byId(workspace()),
				templateFields: { identifier: `pic-${format}`, outputType: format },
			}),
		);
		const id = String(created.items[0].json.id);
		const result = await run(
			sb,
			createOne({ templateId: byId(id), additionalFields: { filename: 'card' } }),
		);
		expect(result.items[0].binary?.data).toMatchObject({
			mimeType: mime,
			fileName: `card.${format}`,
		});
	});

	test('the PDF password is sent as meta._password and is in no output', async () => {
		const result = await run(
			sb,
			createOne({ additionalFields: { password: 's3cret-pw', meta: '{"k": 1}' } }),
		);
		const sent = sb.requests[0].body as { document: IDataObject };
		expect(sent.document.meta).toEqual({ k: 1, _password: 's3cret-pw' });
		expect(result.items[0].json.meta).toEqual({ k: 1 });
		expect(JSON.stringify(result.items)).not.toContain('s3cret-pw');
		const got = await run(sb, {
			resource: 'document',
			operation: 'get',
			documentId: byId(String(result.items[0].json.id)),
		});
		expect(JSON.stringify(got.items)).not.toContain('s3cret-pw');
	});
});
