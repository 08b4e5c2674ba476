/**
 * The engine's run (engine/index.ts), on the real n8n engine against the sandbox: generate and
 * wait (success, failure, timeout), batches created first and waited for together, 429 honoured,
 * output in input order with pairedItem; a refused item stops the check; a failed look-up sends
 * no write.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { statusFault } from '../../../harness/fixtures';
import { useSandbox } from '../../../harness/use-sandbox';
import {
	CONTINUE,
	apiRequests,
	byId,
	cardRequests,
	creates,
	keyedCreate,
	listRequests,
	numbered,
	numberedCreate,
	pairs,
	run,
	templateId,
	onDocument,
	withSandbox,
	writes,
} from '../helpers';

const FAILING_CAUSE = "Template rendering failed: undefined variable 'customer'";

describe('fast generations', () => {
	const sb = useSandbox(
		{ pendingMs: 20, generatingMs: 80 },
		{
			beforeEach: (sb) => {
				sb.setOptions({ visibilityLagMs: 0, listOrder: 'newest' });
			},
		},
	);

	const create = (extra: IDataObject = {}) => numberedCreate(sb, extra as INodeParameters);

	test('one item: waits and downloads (by default) until success and outputs the finished card with its file', async () => {
		const result = await run(sb, create(), [{ n: 7 }]);
		expect(result.error).toBeUndefined();
		const json = result.items[0].json;
		expect(json).toMatchObject({
			status: 'success',
			meta: { order_id: 'O-7' },
			filename: expect.stringMatching(/\.pdf$/),
			failure_cause: null,
		});
		expect(json.download_url).toEqual(expect.stringContaining('/files/'));
		expect(result.items[0].binary?.data).toMatchObject({
			mimeType: 'application/pdf',
			fileName: json.filename,
		});
		// One item: one sync create that answers once the file is ready, then the file.
		expect(creates(sb).map((r) => r.path)).toEqual(['/api/v1/documents/sync']);
		expect(sb.requests.map((r) => `${r.method} ${r.path.replace(/^\/files\/.*/, 'file')}`)).toEqual(
			['POST /api/v1/documents/sync', 'GET file'],
		);
		expect(listRequests(sb)).toHaveLength(0);
		expect(sb.documents.get(String(json.id))!.status).toBe('success');
	});

	test('waitForCompletion off: only the create, the item is the pending document', async () => {
		const result = await run(sb, create({ waitForCompletion: false }), numbered(3));
		expect(result.items.map((i) => i.json.status)).toEqual(['pending', 'pending', 'pending']);
		expect(apiRequests(sb).map((r) => r.method)).toEqual(['POST', 'POST', 'POST']);
	});

	test('a batch: every document is created first, then one list request per 100 waits for all of them', async () => {
		const n = 30;
		const result = await run(sb, create(), numbered(n));
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(n);
		expect(result.items.map((i) => (i.json.meta as IDataObject).order_id)).toEqual(
			numbered(n).map((x) => `O-${x.n}`),
		);
		expect(pairs(result)).toEqual(numbered(n).map((x) => x.n));
		expect(result.items.every((i) => i.json.status === 'success')).toBe(true);

		expect(creates(sb)).toHaveLength(n);
		const firstPoll = sb.requests.findIndex((r) => r.method === 'GET');
		expect(sb.requests.slice(0, firstPoll).every((r) => r.method === 'POST')).toBe(true);
		// All finished by the first poll round: 30 cards on one page of 100, no fetch by id.
		const lists = listRequests(sb);
		expect(lists).toHaveLength(1);
		expect(lists[0].query['page[size]']).toBe('100');
		expect(cardRequests(sb)).toHaveLength(0);
		expect(lists[0].query['q[document_template_id]']).toBe(templateId(sb));
		expect(lists[0].query['q[document_template_id][]']).toBeUndefined();
		expect(Number(lists[0].query['q[updated_since]'])).toBeLessThanOrEqual(
			Math.floor(Math.min(...creates(sb).map((r) => r.at)) / 1000),
		);
		expect(apiRequests(sb).length / n).toBeLessThanOrEqual(2);
	});

	test('random list order and a visibility lag: everything is still found, few requests', async () => {
		sb.setOptions({ listOrder: 'random', visibilityLagMs: 1200 });
		const n = 12;
		const result = await run(sb, create(), numbered(n));
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => [i.json.status, (i.json.meta as IDataObject).order_id])).toEqual(
			numbered(n).map((x) => ['success', `O-${x.n}`]),
		);
		expect((apiRequests(sb).length - n) / n).toBeLessThanOrEqual(1);
	});

	test('failure: the item fails with the failure cause; continueOnFail gives an error item in its place', async () => {
		const fails = templateId(sb, 'always-fails');
		const failed = await run(sb, create({ templateId: byId(fails) }), [{ n: 1 }]);
		expect(failed.error).toMatchObject({ name: 'NodeOperationError', itemIndex: 0 });
		expect(failed.error!.message).toContain(FAILING_CAUSE);
		expect(failed.error!.message).toMatch(/^Document [0-9a-f-]{36} failed to generate/);
		expect(failed.error!.description).toMatch(/Update and status "Pending"/);

		sb.resetRequests();
		const mixed = await run(
			sb,
			create({ templateId: byId('={{ $json.t }}') }),
			[
				{ n: 0, t: templateId(sb) },
				{ n: 1, t: fails },
				{ n: 2, t: templateId(sb, 'receipt') },
			],
			CONTINUE,
		);
		expect(mixed.items).toHaveLength(3);
		expect(pairs(mixed)).toEqual([0, 1, 2]);
		expect(mixed.items[0].json).toMatchObject({ status: 'success', meta: { order_id: 'O-0' } });
		expect(mixed.items[1].json.error).toEqual(expect.stringContaining(FAILING_CAUSE));
		expect(mixed.items[2].json).toMatchObject({
			status: 'success',
			meta: { order_id: 'O-2' },
			document_template_identifier: 'receipt',
		});
		// Three documents of two templates waited for together.
		expect(listRequests(sb).length).toBeGreaterThanOrEqual(1);
		expect(
			new Set(String(listRequests(sb)[0].query['q[document_template_id]']).split(',')),
		).toEqual(new Set([templateId(sb), fails, templateId(sb, 'receipt')]));
	});

	test('429 with Retry-After on creates: honoured, every item created once, order kept', async () => {
		sb.faults.add(statusFault(429, 'POST', '/api/v1/documents', { retryAfter: '1', times: 2 }));
		const n = 5;
		const result = await run(sb, create(), numbered(n));
		expect(result.error).toBeUndefined();
		expect(result.items.map((i) => [i.json.status, (i.json.meta as IDataObject).order_id])).toEqual(
			numbered(n).map((x) => ['success', `O-${x.n}`]),
		);
		const posts = creates(sb);
		expect(posts).toHaveLength(n + 2);
		expect(posts.filter((r) => r.status === 201)).toHaveLength(n);
		expect(sb.documents.size).toBeGreaterThanOrEqual(n);
		const limited = posts.filter((r) => r.status === 429);
		const lastCreate = Math.max(...posts.filter((r) => r.status === 201).map((r) => r.at));
		// The refused ones were sent again only after the second the service asked for.
		expect(lastCreate - limited[0].at).toBeGreaterThanOrEqual(950);
	});

	test('429 on a poll: the poll is repeated after Retry-After and the wait goes on', async () => {
		sb.faults.add(
			statusFault(429, 'GET', /^\/api\/v1\/document_cards/, { retryAfter: '1', times: 1 }),
		);
		const result = await run(sb, create(), numbered(3));
		expect(result.error).toBeUndefined();
		expect(result.items.every((i) => i.json.status === 'success')).toBe(true);
		expect(sb.requests.filter((r) => r.status === 429)).toHaveLength(1);
	});

	test('update to pending waits for the new generation, not an old view of the previous one', async () => {
		const doc = sb.createDocument({
			meta: { order_id: 'R-1' },
			status: 'success',
			filename: 'first.pdf',
		});
		const oldCard = sb.cardJson(doc.id);
		// The first poll is answered with the card as it was before the update (a stale view).
		sb.faults.add(
			statusFault(200, 'GET', `/api/v1/document_cards/${doc.id}`, {
				body: { document_card: oldCard },
				times: 1,
			}),
		);
		const result = await run(
			sb,
			onDocument('update', doc.id, {
				updateFields: { status: 'pending', meta: '{"order_id": "R-1"}', filename: 'second.pdf' },
			}),
		);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			status: 'success',
			filename: 'second.pdf',
			meta: { order_id: 'R-1', _filename: 'second.pdf' },
		});
		expect(Date.parse(String(result.items[0].json.updated_at))).toBeGreaterThan(
			Date.parse(String(oldCard.updated_at)),
		);
		// The update, the stale poll (not taken for the result), then a real one.
		expect(apiRequests(sb).map((r) => r.method)).toEqual(['PUT', 'GET', 'GET']);
		expect(apiRequests(sb)[1].fault).toBe('status');
	});

	test('update that does not set pending does not wait', async () => {
		const doc = sb.createDocument({ status: 'draft' });
		const result = await run(
			sb,
			onDocument('update', doc.id, {
				updateFields: { payload: '{"x": 1}' },
			}),
		);
		expect(result.items[0].json.status).toBe('draft');
		expect(apiRequests(sb).map((r) => r.method)).toEqual(['PUT']);
	});
});

describe('the check of every item, through Update', () => {
	const sb = useSandbox({ pendingMs: 10, generatingMs: 40 });

	const LOGO = Buffer.from('\x89PNG\r\n\x1a\n-run-edges-logo-', 'binary');

	/** An item for the update of document `id`, with the logo file when `logo` is set. */
	const itemFor = (id: string, logo: boolean): IDataObject => ({
		id,
		...(logo
			? { $files: { logo: { base64: LOGO.toString('base64'), mimeType: 'image/png' } } }
			: {}),
	});

	/** Update of the document of each item's `id`: its logo file into the stored payload. */
	const logoUpdate = onDocument('update', '={{ $json.id }}', {
		payloadFiles: { files: [{ binaryPropertyName: 'logo', path: 'brand.logo' }] },
		waitForCompletion: false,
	});

	const NO_LOGO = 'The input item has no file "logo" for Files Into Payload';

	/** Two drafts in the sandbox, each with a payload of its own. */

	const twoDrafts = () => [1, 2].map((v) => sb.createDocument({ payload: { v }, status: 'draft' }));

	test("a refused first item stops the check: the next item's document is not read for its file", async () => {
		const docs = twoDrafts();
		const result = await run(sb, logoUpdate, [
			itemFor(docs[0].id, false),
			itemFor(docs[1].id, true),
		]);
		expect(result.error).toMatchObject({ name: 'NodeOperationError', itemIndex: 0 });
		expect(result.error!.message).toBe(`${NO_LOGO} (item 1)`);
		expect(sb.requests).toEqual([]);
	});

	test('every item refused under Continue On Fail: an error item each, paired, nothing sent', async () => {
		const docs = twoDrafts();
		const result = await run(
			sb,
			logoUpdate,
			docs.map((doc) => itemFor(doc.id, false)),
			CONTINUE,
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.error)).toEqual([
			`${NO_LOGO} (item 1)`,
			`${NO_LOGO} (item 2)`,
		]);
		expect(pairs(result)).toEqual([0, 1]);
		expect(sb.requests).toEqual([]);
	});

	test("Update's items are the documents as updated, with no origin (only Create's items have one)", async () => {
		const docs = twoDrafts();
		const result = await run(
			sb,
			logoUpdate,
			docs.map((doc) => itemFor(doc.id, true)),
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.json.id, item.json.status])).toEqual(
			docs.map((doc) => [doc.id, 'draft']),
		);
		for (const item of result.items) expect(item.json).not.toHaveProperty('origin');
	});
});

describe('with a Unique Key, a look-up that fails sends no write', () => {
	// Planted mistake caught: creating anyway when the look-up failed (a second document).
	test.each([
		['a 422', { status: 422, times: 1 }, /422|Unprocessable|invalid/i, [1, 3]],
		['5xx that persist', { status: 503, times: Infinity }, /503|unavailable|server/i, [3]],
	])(
		'%s: the item fails with the look-up error, nothing created',
		async (_what, fault, message, batches) => {
			await withSandbox({}, async (sb) => {
				const seeded = sb.documents.size;
				const parameters = keyedCreate(sb);
				for (const items of batches.map(numbered)) {
					sb.faults.add({
						type: 'status',
						method: 'GET',
						path: '/api/v1/document_cards',
						...fault,
					});
					const result = await run(sb, parameters, items, CONTINUE);
					expect(result.items).toHaveLength(items.length);
					for (const item of result.items)
						expect(String(item.json.error ?? '') + JSON.stringify(item.json)).toMatch(message);
				}
				expect(writes(sb)).toEqual([]);
				expect(sb.documents.size).toBe(seeded);
			});
		},
	);
});
