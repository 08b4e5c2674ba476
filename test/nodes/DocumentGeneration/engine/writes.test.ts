/**
 * Stage 3, the writes (engine/writes.ts), on the real n8n engine against the sandbox: the Unique
 * Key's bounds and marks, the request limit never spending the retry attempts, the retry memory.
 */
import type { IDataObject, INodeParameters, IExecuteFunctions } from 'n8n-workflow';
import { memoryOf } from '../../../../nodes/DocumentGeneration/engine/writes';
import type { Sandbox } from '../../../sandbox';
import {
	apiRequests,
	createWithOptions,
	creates,
	run,
	templateId,
	withSandbox,
	onDocument,
} from '../helpers';

/** Create of item `{ n: 1 }` with these Options (a Unique Key, a Reuse Window). */
const keyedRun = async (sb: Sandbox, options: INodeParameters) =>
	await run(sb, createWithOptions(sb, options), [{ n: 1 }]);

/** The mark (`n8n_key`) of the document an output item names, as the service stores it. */

const markOf = (sb: Sandbox, id: unknown) =>
	(JSON.parse(String(sb.documents.get(String(id))!.meta)) as IDataObject).n8n_key;

test('a Unique Key of exactly 200 characters marks its document; 201 are refused before anything is sent, saying the bound', async () => {
	await withSandbox({}, async (sb) => {
		const longest = 'K'.repeat(200);
		const made = await keyedRun(sb, { uniqueKey: longest });
		expect(made.error).toBeUndefined();
		expect(markOf(sb, made.items[0].json.id)).toBe(longest);

		sb.resetRequests();
		const refused = await keyedRun(sb, { uniqueKey: `${longest}K` });
		expect(refused.error).toMatchObject({ name: 'NodeOperationError', itemIndex: 0 });
		expect(refused.error!.message).toBe('The Unique Key is 201 characters long (item 1)');
		expect(refused.error!.description).toBe(
			'Use a short value that names the record (200 characters at most), e.g. {{ $json.invoice_number }}',
		);
		expect(apiRequests(sb)).toEqual([]);
	});
});

test.each([[0], [1.5], ['a day']])(
	'a Reuse Window of %p is refused naming the option and how to set it; nothing is sent',
	async (reuseWindow) => {
		await withSandbox({}, async (sb) => {
			const result = await keyedRun(sb, { uniqueKey: 'INV-1', reuseWindow });
			expect(result.error).toMatchObject({ name: 'NodeOperationError', itemIndex: 0 });
			expect(result.error!.message).toMatch(
				/^The reuse window must be a whole number of at least 1, but it is .+ \(item 1\)$/,
			);
			expect(result.error!.description).toBe(
				'Set Options → Reuse Window to a number of hours, e.g. 24',
			);
			expect(apiRequests(sb)).toEqual([]);
		});
	},
);

test.each([
	['undefined', 'a document of the template without a mark', { order_id: 'O-1' }],
	['null', 'a document whose mark is null', { order_id: 'O-1', n8n_key: null }],
] as Array<[string, string, IDataObject]>)(
	'the Unique Key "%s" does not take %s: its own document is created',
	async (uniqueKey, _what, meta) => {
		await withSandbox({}, async (sb) => {
			const other = sb.createDocument({
				document_template_id: templateId(sb),
				status: 'success',
				meta,
			});
			const result = await keyedRun(sb, { uniqueKey });
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({ status: 'success', origin: 'created' });
			expect(result.items[0].json.id).not.toBe(other.id);
			expect(creates(sb)).toHaveLength(1);
			expect(markOf(sb, result.items[0].json.id)).toBe(uniqueKey);
			expect(markOf(sb, other.id)).toBe(meta.n8n_key);
		});
	},
);

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
