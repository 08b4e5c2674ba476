/* eslint-disable no-console -- test code: runs in Node under jest, never inside n8n */
/**
 * Create of one waited-for document in one round trip (documents/sync), on the real n8n engine
 * against the sandbox; the output types and the PDF password.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { statusFault } from '../../../../../harness/fixtures';
import { useSandbox } from '../../../../../harness/use-sandbox';
import { byId, fileRequests, invoiceCreate, libraryOf, run, templateId } from '../../../helpers';

const sb = useSandbox({ pendingMs: 20, generatingMs: 150 });

const { workspace, on } = libraryOf(sb);

const apiCalls = () =>
	sb.requests.map((r) => `${r.method} ${r.path.replace(/^\/files\/.*/, 'file')}`);

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

	test('the sync request waits up to the Wait Timeout in seconds: a generation of 0.6 s is answered in one round trip', async () => {
		sb.setOptions({ generatingMs: 600 });
		try {
			const result = await run(sb, createOne({ options: { waitTimeout: 30 } }));
			expect(result.error).toBeUndefined();
			expect(result.items[0].json.status).toBe('success');
			expect(apiCalls()).toEqual(['POST /api/v1/documents/sync', 'GET file']);
		} finally {
			sb.setOptions({ generatingMs: 150 });
		}
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
			on('template', 'create', {
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

describe('a file name before success', () => {
	const sb = useSandbox({ pendingMs: 20, generatingMs: 80, earlyFilename: true });

	test('Create with wait: the file is fetched once the document succeeds, under its final name', async () => {
		// The sync answer comes while the document generates, already with a file name.
		sb.setOptions({ syncLimitMs: 40 });
		try {
			const result = await run(sb, {
				resource: 'document',
				operation: 'create',
				templateId: byId(templateId(sb)),
				payload: '{"number": "INV-9"}',
				additionalFields: { filename: 'final-name.pdf' },
			});
			expect(result.error).toBeUndefined();
			expect(result.items[0].json.status).toBe('success');
			expect(result.items[0].binary?.data?.fileName).toBe('final-name.pdf');
			expect(fileRequests(sb)).toHaveLength(1);
		} finally {
			sb.setOptions({ syncLimitMs: 30_000 });
		}
	});
});
