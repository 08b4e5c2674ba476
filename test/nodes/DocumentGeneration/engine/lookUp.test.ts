/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * Running a batch again makes every item's document once, on the real engine against the
 * sandbox: Retry On Fail reuses what earlier tries of the run made (with nothing configured);
 * a second run of the node in the same execution makes its own documents; with a Unique Key,
 * a re-run after timeouts, after a killed process, or the same record in another execution
 * reuses, waits for or regenerates the key's document and never makes a second one.
 */
import { spawn } from 'child_process';
import * as path from 'path';
import type { INodeExecutionData } from 'n8n-workflow';

import {
	credentialsFor,
	loadPackage,
	packageNode,
	type NodeSettings,
	runWorkflow,
	startNode,
	type WorkflowJson,
} from '../../../harness';
import type { Sandbox } from '../../../sandbox';
import {
	CONTINUE,
	apiRequests,
	byId,
	creates,
	keyedCreate,
	listRequests,
	numbered,
	numberedCreate as create,
	run,
	templateId,
	withSandbox,
	writes,
} from '../helpers';
import { statusFault } from '../../../harness/fixtures';

const NODE = 'Document Generation';

/** Node settings: Retry On Fail with `tries` tries, none waited between. */
const retries = (tries: number): NodeSettings => ({
	retryOnFail: true,
	maxTries: tries,
	waitBetweenTries: 0,
});
const updates = (sb: Sandbox) =>
	sb.requests.filter((r) => r.method === 'PUT' && r.path.startsWith('/api/v1/documents/'));
const hintsOf = (result: {
	runData: Record<string, Array<{ hints?: Array<{ message: string }> }>>;
}) => (result.runData[NODE]?.[0]?.hints ?? []).map((h) => h.message);

/** Each item's document: one per item, every one of the sandbox's documents named once. */
function expectOneDocumentEach(sb: Sandbox, items: INodeExecutionData[], n: number) {
	expect(items).toHaveLength(n);
	const ids = items.map((i) => String(i.json.id ?? i.json.documentId));
	expect(new Set(ids).size).toBe(n);
	expect([...ids].sort()).toEqual([...sb.documents.keys()].sort());
}

describe('Retry On Fail, with nothing configured', () => {
	test('4 tries, 25 items, one failing to render: 25 documents, the failed one generated again on each retry', async () => {
		await withSandbox({}, async (sb) => {
			const fails = templateId(sb, 'always-fails');
			const parameters = create(sb, { templateId: byId('={{ $json.t }}') });
			const items = numbered(25).map((x) => ({ ...x, t: x.n === 7 ? fails : templateId(sb) }));
			const result = await run(sb, parameters, items, retries(4));
			expect(result.error).toMatchObject({ itemIndex: 7 });
			expect(result.error!.message).toMatch(/failed to generate/);
			expect(sb.documents.size).toBe(25);
			expect(creates(sb)).toHaveLength(25);
			// The failed document went back to pending once per retry, by update.
			const failed = [...sb.documents.values()].find((d) => d.document_template_id === fails)!;
			expect(updates(sb).map((r) => r.path)).toEqual(
				Array(3).fill(`/api/v1/documents/${failed.id}`),
			);
			expect(sb.documents.get(failed.id)!.status).toBe('failure');
		});
	});

	test('a retry outputs the documents earlier tries made, with their files, and creates only the missing ones', async () => {
		await withSandbox({}, async (sb) => {
			// The third create of the first try fails (a 500 after reaching the service: a create is
			// not repeated then); the second try makes only that one.
			sb.faults.add(statusFault(500, 'POST', '/api/v1/documents', { after: 2 }));
			const result = await run(sb, create(sb), numbered(5), retries(2));
			expect(result.error).toBeUndefined();
			expectOneDocumentEach(sb, result.items, 5);
			expect(result.items.every((i) => i.json.status === 'success' && i.binary?.data)).toBe(true);
			expect(creates(sb).filter((r) => r.status === 201)).toHaveLength(5);
			expect(result.items.map((i) => i.json.origin)).toContain('reused');
			expect(hintsOf(result).join(' ')).toMatch(
				/No document was made twice: \d+ documents existed already/,
			);
		});
	});

	test('a try that made nothing costs no look-up: the retry sends only its own requests', async () => {
		await withSandbox({}, async (sb) => {
			sb.faults.add(statusFault(400, 'POST', '/api/v1/documents/sync'));
			const result = await run(sb, create(sb), [{ n: 1 }], retries(2));
			expect(result.error).toBeUndefined();
			expect(apiRequests(sb).map((r) => `${r.method} ${r.path}`)).toEqual([
				'POST /api/v1/documents/sync',
				'POST /api/v1/documents/sync',
			]);
			expect(result.items[0].json.origin).toBe('created');
		});
	});

	test('two identical items in one run are two documents', async () => {
		await withSandbox({}, async (sb) => {
			const result = await run(sb, create(sb, { payload: '{"n": 1}' }), [{}, {}]);
			expectOneDocumentEach(sb, result.items, 2);
		});
	});

	test('a node run twice in one execution (two parents) makes each run its own documents', async () => {
		await withSandbox({}, async (sb) => {
			const pkg = await loadPackage();
			const workflow: WorkflowJson = {
				nodes: [
					startNode([{ n: 1 }, { n: 2 }]),
					packageNode(pkg, 'Account', 'documentGeneration', {
						resource: 'account',
						operation: 'get',
					}),
					packageNode(pkg, NODE, 'documentGeneration', create(sb, { payload: '{"n": 1}' }), 400),
				],
				connections: {
					Start: {
						main: [
							[
								{ node: 'Account', type: 'main', index: 0 },
								{ node: NODE, type: 'main', index: 0 },
							],
						],
					},
					Account: { main: [[{ node: NODE, type: 'main', index: 0 }]] },
				},
			};
			const result = await runWorkflow(workflow, { credentials: credentialsFor(sb) });
			expect(result.error).toBeUndefined();
			const runs = result.runData[NODE];
			expect(runs).toHaveLength(2);
			// Run 0: Start's two items; run 1: the account's two (one per item), the same data
			// again: four documents, none reused.
			expect(sb.documents.size).toBe(4);
			const origins = runs.flatMap((r) => r.data!.main[0]!.map((i) => i.json.origin));
			expect(origins).toEqual(['created', 'created', 'created', 'created']);
		});
	});
});

describe('a Unique Key', () => {
	test('the same record in two executions: one document, both outputs name it with the file', async () => {
		await withSandbox({}, async (sb) => {
			const first = await run(sb, keyedCreate(sb), [{ n: 1 }]);
			const second = await run(sb, keyedCreate(sb), [{ n: 1 }]);
			expect(sb.documents.size).toBe(1);
			expect(second.items[0].json.id).toBe(first.items[0].json.id);
			expect(first.items[0].json.origin).toBe('created');
			expect(second.items[0].json).toMatchObject({ origin: 'reused', status: 'success' });
			expect(second.items[0].binary?.data?.fileName).toBe(first.items[0].binary?.data?.fileName);
			expect(JSON.parse(sb.documents.get(String(first.items[0].json.id))!.meta!)).toMatchObject({
				order_id: 'O-1',
				n8n_key: 'INV-1',
				n8n_digest: expect.stringMatching(/^[0-9a-f]{24}$/),
			});
		});
	});

	test('a re-run after timeouts: 30 items, 30 documents in all, the second run ends with every item done', async () => {
		// The first run times out on every item (the documents would stay pending ten minutes);
		// then half of them finish and the others start generating again, two at a time, so the
		// second run reuses some and waits for the others.
		await withSandbox({ workers: 2, pendingMs: 600_000, generatingMs: 150 }, async (sb) => {
			const parameters = keyedCreate(sb, { waitTimeout: 1 });
			const first = await run(sb, parameters, numbered(30), CONTINUE);
			const timedOut = first.items.filter((i) =>
				/still (pending|generating)/.test(String(i.json.error)),
			);
			expect(timedOut).toHaveLength(30);
			expect(sb.documents.size).toBe(30);
			sb.setOptions({ pendingMs: 20 });
			[...sb.documents.keys()].forEach((id, i) =>
				sb.updateDocument(id, { status: i % 2 ? 'pending' : 'success' }),
			);
			sb.resetRequests();
			const second = await run(sb, keyedCreate(sb, { waitTimeout: 60 }), numbered(30), CONTINUE);
			expect(second.error).toBeUndefined();
			expectOneDocumentEach(sb, second.items, 30);
			expect(second.items.every((i) => i.json.status === 'success' && i.binary?.data)).toBe(true);
			expect(creates(sb)).toHaveLength(0);
			expect(new Set(second.items.map((i) => i.json.origin))).toEqual(new Set(['reused']));
		});
	});

	test('a process killed after half the creates, then the same items run again: each item exactly one document, all done', async () => {
		await withSandbox({}, async (sb) => {
			// The first 12 creates are answered; the 13th and later ones hang (ten minutes, never
			// handled in this test), so the child is killed with exactly 12 made.
			sb.faults.add({
				type: 'delay',
				delayMs: 600_000,
				method: 'POST',
				path: '/api/v1/documents',
				after: 12,
				times: Infinity,
			});
			const parameters = keyedCreate(sb);
			const child = spawn(
				process.execPath,
				[
					path.join(__dirname, 'run-child.js'),
					JSON.stringify({ parameters, items: numbered(24), credentials: credentialsFor(sb) }),
				],
				{ stdio: ['ignore', 'ignore', 'pipe'] },
			);
			let stderr = '';
			child.stderr!.on('data', (chunk) => (stderr += chunk));
			let code: number | null | undefined;
			const exited = new Promise((resolve) => child.once('exit', resolve)).then((c) => {
				code = c as number | null;
			});
			while (creates(sb).length < 13 && code === undefined)
				await new Promise((resolve) => setTimeout(resolve, 5));
			// The child must still be running: killed, not ended on its own (its errors shown if not).
			expect({ code, stderr: stderr.slice(-2000) }).toMatchObject({ code: undefined });
			child.kill('SIGKILL');
			await exited;
			const madeBefore = sb.documents.size;
			expect(madeBefore).toBe(12);
			sb.faults.clear();
			const sentBefore = creates(sb).length;
			const again = await run(sb, parameters, numbered(24));
			expect(again.error).toBeUndefined();
			expectOneDocumentEach(sb, again.items, 24);
			expect(again.items.every((i) => i.json.status === 'success' && i.binary?.data)).toBe(true);
			expect(again.items.filter((i) => i.json.origin === 'reused')).toHaveLength(madeBefore);
			// The second run created exactly the documents the killed one had not made.
			expect(creates(sb).length - sentBefore).toBe(24 - madeBefore);
		});
	});

	test('a key twice in one batch: one document, both items output it, and a hint says so', async () => {
		await withSandbox({}, async (sb) => {
			const result = await run(sb, keyedCreate(sb), [{ n: 1 }, { n: 2 }, { n: 1 }]);
			expect(sb.documents.size).toBe(2);
			expect(result.items[2].json.id).toBe(result.items[0].json.id);
			expect(result.items[2].binary?.data).toBeDefined();
			expect(result.items.map((i) => i.json.origin)).toEqual(['created', 'created', 'reused']);
			expect(result.items.map((i) => i.pairedItem)).toEqual([
				{ item: 0 },
				{ item: 1 },
				{ item: 2 },
			]);
			expect(hintsOf(result).join(' ')).toMatch(
				/1 item repeated the Unique Key of an earlier item/,
			);
		});
	});

	test('a key twice in one batch with other data: refused before anything is sent, naming both items', async () => {
		await withSandbox({}, async (sb) => {
			const parameters = create(sb, { options: { uniqueKey: 'same' } });
			const result = await run(sb, parameters, [{ n: 1 }, { n: 2 }]);
			expect(result.error).toMatchObject({ itemIndex: 1 });
			expect(result.error!.message).toBe(
				'The Unique Key "same" is also item 1\'s, with other data (item 2)',
			);
			expect(apiRequests(sb)).toEqual([]);
		});
	});

	test('an empty key is refused before anything is sent', async () => {
		await withSandbox({}, async (sb) => {
			const parameters = create(sb, { options: { uniqueKey: '={{ $json.missing }}' } });
			const result = await run(sb, parameters, [{ n: 1 }]);
			expect(result.error!.message).toBe('The Unique Key is empty (item 1)');
			expect(result.error!.description).toMatch(/\$json\.invoice_number/);
			expect(apiRequests(sb)).toEqual([]);
		});
	});

	test("a key's document that failed is generated again (update to pending), one that is pending is waited for", async () => {
		await withSandbox({}, async (sb) => {
			const first = await run(sb, { ...keyedCreate(sb), waitForCompletion: false }, [
				{ n: 1 },
				{ n: 2 },
			]);
			const [failedId, pendingId] = first.items.map((i) => String(i.json.id));
			sb.updateDocument(failedId, { status: 'failure', failure_cause: 'boom' });
			sb.updateDocument(pendingId, { status: 'pending' });
			sb.resetRequests();
			const again = await run(sb, keyedCreate(sb), [{ n: 1 }, { n: 2 }]);
			expect(again.error).toBeUndefined();
			expect(sb.documents.size).toBe(2);
			expect(again.items.map((i) => [i.json.id, i.json.status, i.json.origin])).toEqual([
				[failedId, 'success', 'regenerated'],
				[pendingId, 'success', 'reused'],
			]);
			expect(updates(sb).map((r) => [r.path, r.body])).toEqual([
				[`/api/v1/documents/${failedId}`, { document: { status: 'pending' } }],
			]);
			expect(creates(sb)).toHaveLength(0);
		});
	});

	test("a key's document deleted since is created again", async () => {
		await withSandbox({}, async (sb) => {
			const first = await run(sb, keyedCreate(sb), [{ n: 1 }]);
			sb.deleteDocument(String(first.items[0].json.id));
			const again = await run(sb, keyedCreate(sb), [{ n: 1 }]);
			expect(again.items[0].json.origin).toBe('created');
			expect(again.items[0].json.id).not.toBe(first.items[0].json.id);
			expect(sb.documents.size).toBe(1);
		});
	});

	test('the same key with other data: the item fails naming the document (default), or regenerates it with the new data', async () => {
		await withSandbox({}, async (sb) => {
			const parameters = (n: number, keyConflict?: string) =>
				create(sb, {
					payload: `{"n": ${n}}`,
					options: { uniqueKey: 'INV-9', ...(keyConflict ? { keyConflict } : {}) },
				});
			const first = await run(sb, parameters(1), [{ n: 1 }]);
			const id = String(first.items[0].json.id);
			const refused = await run(sb, parameters(2), [{ n: 1 }], CONTINUE);
			expect(refused.items[0].json).toMatchObject({
				error: `The Unique Key "INV-9" already has document ${id}, made with other data`,
				documentId: id,
				status: 'success',
			});
			expect(String(refused.items[0].json.message)).toMatch(/Regenerate the Document/);
			expect(sb.documents.size).toBe(1);
			const regenerated = await run(sb, parameters(2, 'regenerate'), [{ n: 1 }]);
			expect(regenerated.items[0].json).toMatchObject({
				id,
				origin: 'regenerated',
				status: 'success',
			});
			expect(JSON.parse(sb.documents.get(id)!.payload)).toEqual({ n: 2 });
			expect(sb.documents.size).toBe(1);
			// The new data's digest is now the document's: running it again reuses it.
			const again = await run(sb, parameters(2), [{ n: 1 }]);
			expect(again.items[0].json).toMatchObject({ id, origin: 'reused' });
		});
	});

	test("a key's document updated while the look-up reads the list (it moves to page 1 after page 1 was read) is still found", async () => {
		// Pages of 24 (a service that ignores page[size]): the key's document is on page 2.
		await withSandbox({ honourPageSize: false }, async (sb) => {
			const first = await run(sb, keyedCreate(sb), [{ n: 1 }]);
			const id = String(first.items[0].json.id);
			sb.updateDocument(id, { updated_at: Date.now() - 3600_000 });
			// 30 newer documents: the key's is on page 2 of a list ordered by update time.
			for (let i = 0; i < 30; i++)
				sb.createDocument({
					document_template_id: templateId(sb),
					status: 'success',
					updated_at: Date.now() - 600_000 + i,
				});
			sb.resetRequests();
			sb.faults.add({
				type: 'delay',
				delayMs: 300,
				method: 'GET',
				path: '/api/v1/document_cards',
				after: 1,
			});
			const again = run(sb, keyedCreate(sb), [{ n: 1 }]);
			while (listRequests(sb).length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
			sb.updateDocument(id, {});
			const result = await again;
			expect(result.items[0].json).toMatchObject({ id, origin: 'reused' });
			expect(sb.documents.size).toBe(31);
			// The pass (2 pages), then one look at the cards updated since it began.
			expect(listRequests(sb).map((r) => r.query['page[number]'])).toEqual(['1', '2', '1']);
		});
	});

	test('the look-up over 480 recent documents of the template: one pass over their pages more than a run without the key', async () => {
		// Pages of 24 (a service that ignores page[size]); pages of 100: test/nodes/shared/transport/paging.lists.test.ts.
		await withSandbox({ honourPageSize: false }, async (sb) => {
			// Made over the last 8 hours, one a minute.
			for (let i = 0; i < 480; i++) {
				const at = Date.now() - (i + 1) * 60_000;
				sb.createDocument({
					document_template_id: templateId(sb),
					status: 'success',
					meta: { other: i },
					created_at: at,
					updated_at: at,
				});
			}
			await run(sb, create(sb), numbered(10));
			const without = listRequests(sb).length;
			sb.resetRequests();
			const result = await run(sb, keyedCreate(sb), numbered(10));
			expect(result.error).toBeUndefined();
			const lookUp = listRequests(sb).length - without;
			expect(lookUp).toBeGreaterThanOrEqual(20);
			expect(lookUp).toBeLessThanOrEqual(Math.ceil(490 / 24) + 1);
			// The look-up goes before the first create.
			const firstCreate = sb.requests.findIndex((r) => r.method === 'POST');
			expect(
				sb.requests.slice(0, firstCreate).every((r) => r.path === '/api/v1/document_cards'),
			).toBe(true);
		});
	});

	test('no key: no look-up; one item is still 2 requests, a batch creates first', async () => {
		await withSandbox({}, async (sb) => {
			await run(sb, create(sb), [{ n: 1 }]);
			expect(sb.requests.map((r) => r.method)).toEqual(['POST', 'GET']);
			sb.resetRequests();
			await run(sb, create(sb), numbered(10));
			expect(sb.requests.slice(0, 10).map((r) => r.method)).toEqual(Array(10).fill('POST'));
		});
	});
});
/** Two items with one Unique Key, the first on the invoice template, the second on the receipt. */
function sameKeyTwoTemplates(sb: Sandbox, keyConflict: 'fail' | 'regenerate') {
	const parameters = create(sb, {
		templateId: byId('={{ $json.t }}'),
		options: { uniqueKey: 'K-1', keyConflict },
	});
	const items = [
		{ n: 1, t: templateId(sb, 'invoice') },
		{ n: 2, t: templateId(sb, 'receipt') },
	];
	return { parameters, items };
}

describe('a Unique Key is per template', () => {
	// Planted mistake caught: the key's identity without its template (in the batch or the look-up).
	test.each(['fail', 'regenerate'] as const)(
		'one key under two templates makes two documents, and a second run reuses both (%s)',
		async (keyConflict) => {
			await withSandbox({}, async (sb) => {
				const { parameters, items } = sameKeyTwoTemplates(sb, keyConflict);
				const first = await run(sb, parameters, items);
				expect(first.error).toBeUndefined();
				expect(first.items.map((i) => i.json.document_template_id)).toEqual(items.map((x) => x.t));
				expect(new Set(first.items.map((i) => i.json.id)).size).toBe(2);
				expect(first.items.map((i) => i.json.origin)).toEqual(['created', 'created']);

				const again = await run(sb, parameters, items);
				expect(again.error).toBeUndefined();
				expect(again.items.map((i) => i.json.id)).toEqual(first.items.map((i) => i.json.id));
				expect(again.items.map((i) => i.json.origin)).toEqual(['reused', 'reused']);
				expect(sb.documents.size).toBe(2);
				expect(writes(sb)).toHaveLength(2);
			});
		},
	);

	test.each(['fail', 'regenerate'] as const)(
		"a key's document under another template is not the item's: it is created, never that one rewritten (%s)",
		async (keyConflict) => {
			await withSandbox({}, async (sb) => {
				const { parameters, items } = sameKeyTwoTemplates(sb, keyConflict);
				const receipt = await run(sb, parameters, [items[1]]);
				const both = await run(sb, parameters, items);
				expect(both.error).toBeUndefined();
				expect(both.items.map((i) => i.json.origin)).toEqual(['created', 'reused']);
				expect(both.items[1].json.id).toBe(receipt.items[0].json.id);
				expect(both.items[0].json.document_template_id).toBe(items[0].t);
				expect(sb.documents.size).toBe(2);
				expect(writes(sb)).toHaveLength(2);
			});
		},
	);
});
