/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: runs in Node under jest, never inside n8n */
/**
 * Every operation through the router, on the real engine against the sandbox: malformed input
 * refused before any request, naming the item; the service's error answers as NodeApiErrors that
 * say what to do; continueOnFail and the error output, paired; the API key in no output or error.
 */
/**
 * Every operation through the router: refusals of malformed input (before any request, naming the item), the service's error
 * answers as NodeApiErrors that say what happened and what to do, continueOnFail, pairedItem,
 * and the API key staying out of every output and error. Real engine, sandbox.
 */
import { parameterIssue } from '../../../harness/versions';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../../../harness';
import { useSandbox } from '../../../harness/use-sandbox';
import {
	CONTINUE,
	apiRequests,
	byId,
	containsSecret,
	invoiceCreate,
	pairs,
	run,
	templateId,
	onDocument,
} from '../helpers';

const sb = useSandbox({ pendingMs: 10, generatingMs: 40 });
const UNKNOWN = '0b5c2a8e-1111-4222-8333-944455556666';

const create = (extra: INodeParameters = {}) => invoiceCreate(sb, '{"a": 1}', extra);

describe('malformed input is refused before any request, naming the item', () => {
	const cases: Array<[string, () => INodeParameters, RegExp]> = [
		[
			'payload that is an array',
			() => create({ payload: '[{"a": 1}]' }),
			/payload must be one JSON object, but it is an array/,
		],
		[
			'payload that is a number',
			() => create({ payload: '42' }),
			/payload must be one JSON object, but it is a number/,
		],
		[
			'payload that is not JSON',
			() => create({ payload: '{"a": 1,' }),
			/payload is not valid JSON/,
		],
		[
			'payload from an expression giving an array',
			() => create({ payload: '={{ [1, 2] }}' }),
			/payload must be one JSON object/,
		],
		[
			'meta that is an array',
			() => create({ additionalFields: { meta: '[1]' } }),
			/meta must be one JSON object/,
		],
		[
			'meta that is not JSON',
			() => create({ additionalFields: { meta: 'order=1' } }),
			/meta is not valid JSON/,
		],
		// IDs from expressions (static values the editor's checks already refuse, see below)
		[
			'a template that is not a UUID',
			() => create({ templateId: byId('={{ "invoice" }}') }),
			/template "invoice" is not a valid ID/,
		],
		[
			'an empty template',
			() => create({ templateId: { __rl: true, mode: 'list', value: '={{ "" }}' } }),
			/template is empty/,
		],
		[
			'a template given as a plain string that is not a UUID',
			() => create({ templateId: 'invoice' }),
			/template "invoice" is not a valid ID/,
		],
		[
			'a wait timeout of 0',
			() => create({ options: { waitTimeout: 0 } }),
			/wait timeout must be a whole number of at least 1/,
		],
		[
			'get with a document ID that is not a UUID',
			() => ({ resource: 'document', operation: 'get', documentId: byId('={{ 12345 }}') }),
			/document ID "12345" is not a valid ID/,
		],
		[
			'delete with an empty document ID',
			() => ({
				resource: 'document',
				operation: 'delete',
				documentId: byId('={{ $json.missing }}'),
			}),
			/document ID is empty/,
		],
		[
			'download with a document ID that is not a UUID',
			() => ({ resource: 'document', operation: 'download', documentId: 'abc' }),
			/not a valid ID/,
		],
		[
			'update with a document ID that is not a UUID',
			() => ({
				resource: 'document',
				operation: 'update',
				documentId: 'x',
				updateFields: { status: 'pending' },
			}),
			/not a valid ID/,
		],
		[
			'update with nothing to update',
			() => ({
				resource: 'document',
				operation: 'update',
				documentId: byId(UNKNOWN),
				updateFields: {},
			}),
			/nothing to update/,
		],
		[
			'update with a payload array',
			() => ({
				resource: 'document',
				operation: 'update',
				documentId: byId(UNKNOWN),
				updateFields: { payload: '[]' },
			}),
			/payload must be one JSON object/,
		],
		[
			'getAll with limit 0',
			() => ({ resource: 'document', operation: 'getAll', limit: 0 }),
			/limit must be a whole number of at least 1/,
		],
		[
			'getAll with a negative limit',
			() => ({ resource: 'document', operation: 'getAll', limit: -5 }),
			/limit must be a whole number of at least 1/,
		],
		[
			'getAll with a bad date',
			() => ({
				resource: 'document',
				operation: 'getAll',
				filters: { updatedSince: 'last tuesday-ish' },
			}),
			/Updated Since date "last tuesday-ish" is not a date/,
		],
		[
			'getAll with a template filter that is not a UUID',
			() => ({ resource: 'document', operation: 'getAll', filters: { templateIds: ['invoice'] } }),
			/template filter contains "invoice", which is not a valid ID/,
		],
		[
			'getAll with a workspace filter that is not a UUID',
			() => ({ resource: 'document', operation: 'getAll', filters: { workspaceId: 'Acme' } }),
			/workspace ID "Acme" is not a valid ID/,
		],
		[
			'download with an empty binary field name',
			() => ({
				resource: 'document',
				operation: 'download',
				documentId: byId(UNKNOWN),
				binaryPropertyName: ' ',
			}),
			/binary field name is empty/,
		],
	];

	test.each(cases)('%s', async (_name, parameters, message) => {
		const result = await run(sb, parameters());
		expect(result.error).toMatchObject({ name: 'NodeOperationError', itemIndex: 0 });
		expect(result.error!.message).toMatch(message);
		expect(result.error!.message).toMatch(/\(item 1\)/);
		// And how to fix it.
		expect(result.error!.description).toEqual(expect.any(String));
		expect(result.error!.description!.length).toBeGreaterThan(10);
		expect(sb.requests).toHaveLength(0);
	});

	test('static values n8n itself checks (ID format, required) stop the run before the node, with no request', async () => {
		await expect(run(sb, create({ templateId: byId('invoice') }))).rejects.toThrow(
			parameterIssue(/Not a valid template ID/),
		);
		await expect(
			run(sb, { resource: 'document', operation: 'get', documentId: byId('12345') }),
		).rejects.toThrow(parameterIssue(/Not a valid document ID/));
		await expect(
			run(sb, create({ templateId: { __rl: true, mode: 'list', value: '' } })),
		).rejects.toThrow(parameterIssue(/Template.*required/));
		expect(sb.requests).toHaveLength(0);
	});

	test('a bad third item stops the run before the good first two are sent', async () => {
		for (const parameters of [
			create({ payload: '={{ $json.p }}' }),
			{ resource: 'document', operation: 'get', documentId: byId('={{ $json.id }}') },
			{ resource: 'document', operation: 'delete', documentId: byId('={{ $json.id }}') },
			{ resource: 'document', operation: 'getAll', limit: '={{ $json.limit }}' },
		] as INodeParameters[]) {
			sb.resetRequests();
			const good = sb.createDocument();
			const result = await run(sb, parameters, [
				{ p: '{"a": 1}', id: good.id, limit: 1 },
				{ p: '{"a": 2}', id: good.id, limit: 2 },
				{ p: '["no"]', id: 'not-an-id', limit: 0 },
			]);
			expect(result.error).toMatchObject({ name: 'NodeOperationError', itemIndex: 2 });
			expect(result.error!.message).toMatch(/\(item 3\)/);
			expect(sb.requests).toHaveLength(0);
			expect(sb.documents.has(good.id)).toBe(true);
		}
	});

	test('continueOnFail: one error item for the bad input, the others are handled, all paired', async () => {
		const result = await run(
			sb,
			create({ payload: '={{ $json.p }}', waitForCompletion: false }),
			[{ p: '{"a": 1}' }, { p: '[1]' }, { p: '{"a": 3}' }],
			CONTINUE,
		);
		expect(result.items).toHaveLength(3);
		expect(pairs(result)).toEqual([0, 1, 2]);
		expect(result.items[0].json.status).toBe('pending');
		expect(result.items[1].json).toEqual({
			error: expect.stringMatching(
				/payload must be one JSON object, but it is an array \(item 2\)/,
			),
			message: expect.stringMatching(/Wrap the list in an object/),
		});
		expect(result.items[2].json.status).toBe('pending');
		expect(
			apiRequests(sb).map((r) => (r.body as { document: IDataObject }).document.payload),
		).toEqual([{ a: 1 }, { a: 3 }]);
	});
});

describe('error answers of the service become NodeApiErrors that say what to do', () => {
	test('401 (wrong key): says the key was refused and where to fix it', async () => {
		const wrongKey = 'sk_live_wrong_0123456789';
		const result = await runNode({
			parameters: { resource: 'document', operation: 'get', documentId: byId(UNKNOWN) },
			credentials: { baseUrl: sb.url, apiKey: wrongKey },
		});
		expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: '401', itemIndex: 0 });
		expect(result.error!.message).toBe('The API key was refused by the service');
		expect(result.error!.description).toMatch(/credential of this node .*paste the API key again/);
		// The node does not repeat a refused key (only n8n's own credential refresh could).
		expect(sb.requests.length).toBeGreaterThanOrEqual(1);
		expect(sb.requests.length).toBeLessThanOrEqual(2);
		expect(sb.requests.every((r) => r.status === 401)).toBe(true);
		expect(containsSecret(result.run, wrongKey)).toBe(false);
		expect(containsSecret(result.error, wrongKey)).toBe(false);
	});

	test('404 (unknown document): says it was not found, with the service words and how to check', async () => {
		const result = await run(sb, onDocument('get', UNKNOWN));
		expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: '404' });
		expect(result.error!.message).toMatch(/Not found \(404\)/);
		expect(result.error!.message).toContain(UNKNOWN);
		expect(result.error!.description).toMatch(/couldn't find any DocumentCard/);
		expect(result.error!.description).toMatch(/Check the ID/);
		expect(sb.requests).toHaveLength(1);
	});

	test('422 (field hash): the field and its message are in the error', async () => {
		// A UUID that is no template of the account: the service answers {"errors": {"document_template": ["must exist"]}}.
		const result = await run(sb, create({ templateId: byId(UNKNOWN) }));
		expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: '422' });
		expect(result.error!.message).toMatch(/refused the data \(422\).*document template must exist/);
		expect(result.error!.description).toMatch(/Correct/);
		// A create that the service refused is not repeated.
		expect(sb.requests).toHaveLength(1);
	});

	test('422 with the quota message (status key) reads as the service wrote it', async () => {
		sb.faults.add({
			type: 'status',
			status: 422,
			method: 'POST',
			body: { errors: { status: ["You've reached your quota of documents for this month"] } },
		});
		const result = await run(sb, create());
		expect(result.error!.message).toMatch(/You've reached your quota of documents for this month/);
	});

	test('400 {"error": ...}: the service words are in the error', async () => {
		sb.faults.add({
			type: 'status',
			status: 400,
			method: 'POST',
			body: { error: 'unexpected character at line 1 column 12' },
		});
		const result = await run(sb, create());
		expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: '400' });
		expect(result.error!.message).toMatch(
			/could not read the request \(400\): unexpected character at line 1 column 12/,
		);
		expect(result.error!.description).toMatch(/JSON/);
	});

	test('continueOnFail: one error item per failing input, in order, paired', async () => {
		const docs = [sb.createDocument({ meta: { n: 0 } }), sb.createDocument({ meta: { n: 2 } })];
		const result = await run(
			sb,
			{ resource: 'document', operation: 'get', documentId: byId('={{ $json.id }}') },
			[{ id: docs[0].id }, { id: UNKNOWN }, { id: docs[1].id }, { id: UNKNOWN }],
			CONTINUE,
		);
		expect(result.items).toHaveLength(4);
		expect(pairs(result)).toEqual([0, 1, 2, 3]);
		expect(result.items[0].json.meta).toEqual({ n: 0 });
		expect(result.items[1].json).toEqual({
			error: expect.stringMatching(/Not found \(404\)/),
			message: expect.stringMatching(/Check the ID/),
		});
		expect(result.items[2].json.meta).toEqual({ n: 2 });
		expect(result.items[3].json).toMatchObject({
			error: expect.stringMatching(/Not found \(404\)/),
		});
	});

	test('without continueOnFail the first failing item stops the node', async () => {
		const doc = sb.createDocument();
		const result = await run(
			sb,
			{ resource: 'document', operation: 'delete', documentId: byId('={{ $json.id }}') },
			[{ id: UNKNOWN }, { id: doc.id }],
		);
		expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: '404', itemIndex: 0 });
		expect(result.items).toEqual([]);
	});
});

describe('the API key appears in no output and no error', () => {
	test('across operations, successes and failures', async () => {
		const doc = sb.createDocument({ status: 'success', meta: { order_id: 'K-1' } });
		const runs = [
			await run(sb, { resource: 'account', operation: 'get' }),
			await run(
				sb,
				onDocument('get', doc.id, {
					options: { includePayload: true },
				}),
			),
			await run(sb, { resource: 'document', operation: 'download', documentId: byId(doc.id) }),
			await run(sb, { resource: 'document', operation: 'getAll', returnAll: true }),
			await run(sb, create({ download: true })),
			await run(sb, { resource: 'document', operation: 'get', documentId: byId(UNKNOWN) }),
			await run(sb, create({ templateId: byId(UNKNOWN) })),
			await run(
				sb,
				{ resource: 'document', operation: 'get', documentId: byId(UNKNOWN) },
				[{}],
				CONTINUE,
			),
		];
		for (const result of runs) {
			expect(containsSecret(result.items, sb.apiKey)).toBe(false);
			expect(containsSecret(result.error, sb.apiKey)).toBe(false);
			expect(containsSecret(result.runData, sb.apiKey)).toBe(false);
		}
		// The key was really used (so the checks above could have found it).
		expect(sb.requests.some((r) => r.authorization === `Bearer ${sb.apiKey}`)).toBe(true);
		// And the file host never saw it.
		expect(
			sb.requests
				.filter((r) => r.path.startsWith('/files/'))
				.every((r) => r.authorization === undefined),
		).toBe(true);
	});
});

describe('errors to the error output ("Continue (using error output)")', () => {
	test('failing items go to the second output, the others to the first, all paired', async () => {
		const docs = [sb.createDocument({ meta: { n: 0 } }), sb.createDocument({ meta: { n: 2 } })];
		const result = await run(
			sb,
			{ resource: 'document', operation: 'get', documentId: byId('={{ $json.id }}') },
			[{ id: docs[0].id }, { id: UNKNOWN }, { id: docs[1].id }, { id: '={{ "bad" }}' }],
			{ onError: 'continueErrorOutput' },
		);
		expect(result.outputs).toHaveLength(2);
		const [ok, failed] = result.outputs;
		expect(ok.map((i) => [(i.json.meta as IDataObject).n, i.pairedItem])).toEqual([
			[0, { item: 0 }],
			[2, { item: 2 }],
		]);
		expect(failed.map((i) => i.pairedItem)).toEqual([{ item: 1 }, { item: 3 }]);
		expect(failed[0].json.error).toMatch(/Not found \(404\)/);
		expect(failed[1].json.error).toMatch(/not a valid ID \(item 4\)/);
		// Refused input sent nothing; the other three were fetched.
		expect(apiRequests(sb)).toHaveLength(3);
	});

	test('create and wait: a failed generation goes to the error output', async () => {
		const result = await run(
			sb,
			create({ templateId: byId('={{ $json.t }}') }),
			[{ t: templateId(sb) }, { t: templateId(sb, 'always-fails') }],
			{ onError: 'continueErrorOutput' },
		);
		const [ok, failed] = result.outputs;
		expect(ok.map((i) => [i.json.status, i.pairedItem])).toEqual([['success', { item: 0 }]]);
		expect(failed.map((i) => i.pairedItem)).toEqual([{ item: 1 }]);
		expect(failed[0].json.error).toMatch(/failed to generate: Template rendering failed/);
	});
});
