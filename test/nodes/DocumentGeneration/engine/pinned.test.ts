/**
 * Behaviours of the create engine that a restructuring could break unseen: a Unique Key is per
 * template, a 429 never spends the retry attempts, a failed look-up sends no write, the retry
 * memory of a run outlives other executions and a long first try, and deleted documents fail
 * the wait at once. Each was checked to fail on a planted mistake (see the comments).
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { memoryOf } from '../../../../nodes/DocumentGeneration/engine/retryMemory';
import { until } from '../../../harness/fixtures';
import type { Sandbox } from '../../../sandbox';
import {
	CONTINUE,
	byId,
	numbered,
	numberedCreate,
	onDocument,
	run,
	templateId,
	withSandbox,
	writes,
} from '../helpers';

/** Two items with one Unique Key, the first on the invoice template, the second on the receipt. */
function sameKeyTwoTemplates(sb: Sandbox, keyConflict: 'fail' | 'regenerate') {
	const parameters = numberedCreate(sb, {
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

describe('the request limit never spends the retry attempts', () => {
	// Planted mistake caught: a 429 counted as one of the retry policy's attempts.
	test('a request answered 429 ten times in a row (Retry-After: 0) still succeeds', async () => {
		await withSandbox({}, async (sb) => {
			const { id } = sb.createDocument({ status: 'success' });
			const path = `/api/v1/document_cards/${id}`;
			sb.faults.add({
				type: 'status',
				status: 429,
				retryAfter: '0',
				times: 10,
				method: 'GET',
				path,
			});
			const result = await run(sb, onDocument('get', id));
			expect(result.error).toBeUndefined();
			expect(result.items[0].json.id).toBe(id);
			const tries = sb.requests.filter((r) => r.path === path);
			expect(tries.map((r) => r.status)).toEqual([...Array(10).fill(429), 200]);
		});
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
				const parameters = numberedCreate(sb, {
					options: { uniqueKey: '={{ "INV-" + $json.n }}' },
				});
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

describe('the retry memory of a run', () => {
	/** A stand-in for what memoryOf reads of n8n's context: execution id, node name, run index. */
	const contextOf = (executionId: string, runIndex = 0) =>
		({
			getExecutionId: () => executionId,
			getNode: () => ({ name: 'Document Generation' }),
			getWorkflowDataProxy: () => ({ $runIndex: runIndex }),
		}) as unknown as IExecuteFunctions;

	// Planted mistakes caught: forgetting after a minute or so, or forgetting the runs touched
	// before the newest ones while under the cap.
	test('survives other executions touching the memory and a first try longer than 90 s', () => {
		const t0 = Date.now();
		const mine = contextOf('exec-mine');
		memoryOf(mine, t0)!.set(3, { id: 'doc-3', digest: 'd', templateId: 't', updatedAt: t0 });
		for (let i = 0; i < 300; i++) memoryOf(contextOf(`exec-other-${i}`), t0 + 1_000 + i * 300);
		const retry = memoryOf(mine, t0 + 95_000)!;
		expect(retry.get(3)).toMatchObject({ id: 'doc-3' });
		// Another run index of the same node is another run: it starts empty.
		expect(memoryOf(contextOf('exec-mine', 1), t0 + 96_000)!.size).toBe(0);
		expect(memoryOf(mine, t0 + 3 * 3600_000)!.get(3)).toMatchObject({ id: 'doc-3' });
	});
});

describe('documents deleted while waited for', () => {
	// Planted mistake caught: a document missing from the list waited for until the Wait Timeout.
	test('two documents both deleted fail as not found within seconds, not at the Wait Timeout', async () => {
		await withSandbox({ pendingMs: 600_000 }, async (sb) => {
			const parameters = numberedCreate(sb, { options: { waitTimeout: 600 } });
			const seeded = new Set(sb.documents.keys());
			const running = run(sb, parameters, numbered(2), CONTINUE);
			const made = () => [...sb.documents.keys()].filter((id) => !seeded.has(id));
			await until(() => made().length >= 2);
			const ids = made();
			expect(ids).toHaveLength(2);
			for (const id of ids) expect(sb.deleteDocument(id)).toBe(true);
			// Were the wait to last until the 600 s Wait Timeout, the test's own 60 s would end it.
			const result = await running;
			expect(result.items).toHaveLength(2);
			for (const item of result.items) {
				const text = JSON.stringify(item.json);
				expect(text).toMatch(/couldn't find|not found/i);
				expect(text).not.toMatch(/still pending/);
			}
		});
	});
});
