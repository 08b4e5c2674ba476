/**
 * Stage 5 and an item's result (engine/output.ts), pure: one output item per document in input
 * order, paired with its items (a follower outputs its leader's document or error); the hints
 * about the queue, the quota and what was reused.
 */
import type { IExecuteFunctions, INode, NodeExecutionHint } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { BatchFacts } from '../../../../nodes/DocumentGeneration/engine/output';
import {
	output,
	QUEUE_HINT_MS,
	batchSize,
	reportBatch,
	reportReuse,
} from '../../../../nodes/DocumentGeneration/engine/output';
import { Run, type DocumentGroup } from '../../../../nodes/DocumentGeneration/engine/record';
import type { ItemError } from '../../../../nodes/shared/helpers/items';
import { nodeFixture } from '../../../harness/fixtures';

function runOf(groups: DocumentGroup[], onError?: INode['onError']) {
	const node = nodeFixture({ onError });
	const ctx = { getNode: () => node, continueOnFail: () => true } as unknown as IExecuteFunctions;
	return { ctx, node, run: new Run(ctx, groups) };
}

const sent = (id: string, origin: 'created' | 'reused' | 'regenerated') => ({
	document: { id, status: 'pending', meta: '{"order":"A-1"}', payload: null },
	origin,
	at: 0,
	held: 0,
});

describe('output items', () => {
	test('a grouped document pairs with every item of its group, a lone one with its item', () => {
		const { ctx, run } = runOf([
			{ index: 0, members: [0, 2] },
			{ index: 1, members: [1] },
		]);
		run.record(0).sent = sent('doc-a', 'created');
		run.record(1).sent = sent('doc-b', 'created');
		expect(output(ctx, run, false).map((item) => item.pairedItem)).toEqual([
			[{ item: 0 }, { item: 2 }],
			{ item: 1 },
		]);
	});

	test('the finished card is output when it was waited for, read like every card; else the card as sent', () => {
		const { ctx, run } = runOf([
			{ index: 0, members: [0] },
			{ index: 1, members: [1] },
		]);
		run.record(0).sent = sent('doc-a', 'created');
		run.record(0).finished = { id: 'doc-a', status: 'success', meta: '{"order":"A-1"}' };
		run.record(1).sent = sent('doc-b', 'created');
		expect(output(ctx, run, false).map((item) => item.json)).toEqual([
			{ id: 'doc-a', status: 'success', meta: { order: 'A-1' } },
			{ id: 'doc-b', status: 'pending', meta: { order: 'A-1' }, payload: {} },
		]);
	});

	test('with origins on, each item says where its document came from; a follower says reused', () => {
		const { ctx, run } = runOf([
			{ index: 0, members: [0] },
			{ index: 1, members: [1] },
			{ index: 2, members: [2] },
		]);
		run.record(0).sent = sent('doc-a', 'created');
		run.record(1).sent = sent('doc-b', 'regenerated');
		run.record(2).follows = 0;
		const items = output(ctx, run, true);
		expect(items.map((item) => [item.json.id, item.json.origin])).toEqual([
			['doc-a', 'created'],
			['doc-b', 'regenerated'],
			['doc-a', 'reused'],
		]);
		expect(items[2].pairedItem).toEqual({ item: 2 });
		expect(output(ctx, run, false).some((item) => 'origin' in item.json)).toBe(false);
	});

	test("the file goes with its document, a follower's too", () => {
		const { ctx, run } = runOf([
			{ index: 0, members: [0] },
			{ index: 1, members: [1] },
			{ index: 2, members: [2] },
		]);
		const binary = { data: { data: 'JVBERi0=', mimeType: 'application/pdf' } };
		run.record(0).sent = sent('doc-a', 'created');
		run.record(0).binary = binary;
		run.record(1).follows = 0;
		run.record(2).sent = sent('doc-c', 'created');
		const items = output(ctx, run, false);
		expect(items[0].binary).toBe(binary);
		expect(items[1].binary).toBe(binary);
		expect(items[2]).not.toHaveProperty('binary');
	});
});

describe('failed items', () => {
	test('with Continue, the error item names its document by id and status', () => {
		const { ctx, node, run } = runOf([{ index: 0, members: [0, 1] }]);
		run.record(0).error = new NodeOperationError(node, 'Timed out', {
			description: 'Raise the Wait Timeout.',
		});
		run.made(0, 'doc-a', 'pending');
		const [item] = output(ctx, run, true);
		expect(item.json).toEqual({
			error: 'Timed out',
			message: expect.stringMatching(/^Raise the Wait Timeout\. Its document was made: doc-a/),
			documentId: 'doc-a',
			status: 'pending',
		});
		expect(item.pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
	});

	test('with the error output, the error item has only error and message', () => {
		const { ctx, node, run } = runOf([{ index: 0, members: [0] }], 'continueErrorOutput');
		run.record(0).error = new NodeOperationError(node, 'Timed out');
		run.made(0, 'doc-a', 'pending');
		const [item] = output(ctx, run, false);
		expect(Object.keys(item.json).sort()).toEqual(['error', 'message']);
		expect(item.json.message).toMatch(/^Its document was made: doc-a/);
	});

	test("a follower of a failed item outputs that item's error, numbered as its own item", () => {
		const { ctx, node, run } = runOf([
			{ index: 0, members: [0] },
			{ index: 1, members: [1] },
		]);
		run.record(0).error = new NodeOperationError(node, 'The service refused the payload');
		run.record(1).follows = 0;
		run.made(0, 'doc-a', 'failure');
		const items = output(ctx, run, false);
		expect(items[1].json).toMatchObject({
			error: 'The service refused the payload',
			documentId: 'doc-a',
			status: 'failure',
		});
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(items[0].json.error).toBe('The service refused the payload');
	});

	test('an item that failed itself is output with its own error even when it follows another', () => {
		const { ctx, node, run } = runOf([
			{ index: 0, members: [0] },
			{ index: 1, members: [1] },
		]);
		run.record(0).sent = sent('doc-a', 'created');
		run.record(1).follows = 0;
		run.record(1).error = new NodeOperationError(node, 'The Unique Key is too long');
		const items = output(ctx, run, true);
		expect(items[1].json).toEqual({ error: 'The Unique Key is too long' });
		expect(items[0].json.id).toBe('doc-a');
	});
});

/** The hints `reportBatch` gives for these facts, whole. */
function fullHintsFor(facts: Partial<BatchFacts>): NodeExecutionHint[] {
	const hints: NodeExecutionHint[] = [];
	const ctx = { addExecutionHints: (...given: NodeExecutionHint[]) => hints.push(...given) };
	reportBatch(ctx as unknown as IExecuteFunctions, {
		documents: 1,
		items: 1,
		queueTimes: [],
		timeoutSeconds: 300,
		notSent: 0,
		quotaFailures: 0,
		...facts,
	});
	return hints;
}

/** The messages of the hints `reportBatch` gives for these facts. */

function hintsFor(facts: Partial<BatchFacts>): string[] {
	return fullHintsFor(facts).map((hint) => hint.message);
}

/** The hints `reportReuse` gives for these origins and followers. */

function reuseHintsFor(origins: string[], followers = 0): NodeExecutionHint[] {
	const hints: NodeExecutionHint[] = [];
	const ctx = { addExecutionHints: (...given: NodeExecutionHint[]) => hints.push(...given) };
	reportReuse(ctx as unknown as IExecuteFunctions, origins, followers);
	return hints;
}

const QUEUED = [QUEUE_HINT_MS + 2000, QUEUE_HINT_MS + 3000];

const QUOTA = new Error('Quota exceeded') as ItemError;

describe("the service's queue hint", () => {
	test('one document per item: it counts items', () => {
		expect(hintsFor({ documents: 9, items: 9, queueTimes: QUEUED })).toEqual([
			expect.stringMatching(/^9 items: 2 documents waited up to 8 s in the service's queue/),
		]);
	});

	test('items grouped into documents: it counts documents, and the items they came from', () => {
		const [hint] = hintsFor({ documents: 2, items: 40, queueTimes: QUEUED });
		expect(hint).toMatch(/^2 documents from 40 items: 2 documents waited up to 8 s/);
		expect(hint).not.toMatch(/^40 items/);
	});

	test('all items into one document', () => {
		const [hint] = hintsFor({ documents: 1, items: 12, queueTimes: [QUEUE_HINT_MS] });
		expect(hint).toMatch(/^1 document from 12 items: 1 document waited up to 5 s/);
	});

	test('no document waited long: no hint', () => {
		expect(hintsFor({ documents: 2, items: 40, queueTimes: [QUEUE_HINT_MS - 1] })).toEqual([]);
	});
});

describe('the quota hint', () => {
	test('one document per item: the items not sent', () => {
		const [hint] = hintsFor({ documents: 5, items: 5, quota: QUOTA, notSent: 3 });
		expect(hint).toMatch(/: 3 items were not sent after the service refused one/);
	});

	test('grouped: the documents not sent', () => {
		const [hint] = hintsFor({ documents: 3, items: 30, quota: QUOTA, notSent: 2 });
		expect(hint).toMatch(/: 2 documents were not sent after the service refused one/);
	});
});

test('batchSize: singular and plural', () => {
	expect(batchSize({ documents: 1, items: 1 })).toBe('1 item');
	expect(batchSize({ documents: 3, items: 3 })).toBe('3 items');
	expect(batchSize({ documents: 1, items: 2 })).toBe('1 document from 2 items');
});

describe("the service's queue hint, in full", () => {
	test('an info hint in the output pane naming the slowest wait and the Wait Timeout', () => {
		expect(
			fullHintsFor({ documents: 3, items: 3, queueTimes: [6000], timeoutSeconds: 120 }),
		).toEqual([
			{
				type: 'info',
				location: 'outputPane',
				message:
					"3 items: 1 document waited up to 6 s in the service's queue before generating (it renders a few documents at a time). Each document's Wait Timeout (now 120 s) runs during that wait: for larger batches raise it, or send fewer items per run; a plan with more capacity renders sooner.",
			},
		]);
	});

	test('waits in any order: the slowest is named, and only the long ones are counted', () => {
		const [hint] = hintsFor({
			documents: 4,
			items: 4,
			queueTimes: [9000, 1000, QUEUE_HINT_MS, QUEUE_HINT_MS - 1],
		});
		expect(hint).toMatch(/^4 items: 2 documents waited up to 9 s in the service's queue/);
	});

	test('the slowest wait last among short ones', () => {
		expect(hintsFor({ documents: 3, items: 3, queueTimes: [1000, 12_000, 2000] })).toEqual([
			expect.stringMatching(/^3 items: 1 document waited up to 12 s/),
		]);
	});

	test('no document waited at all: no hint', () => {
		expect(hintsFor({ documents: 3, items: 3, queueTimes: [] })).toEqual([]);
	});
});

describe('the quota hint, in full', () => {
	test('a warning in the output pane: what was not sent, what failed, and what to do', () => {
		expect(
			fullHintsFor({ documents: 4, items: 4, quota: QUOTA, notSent: 1, quotaFailures: 2 }),
		).toEqual([
			{
				type: 'warning',
				location: 'outputPane',
				message:
					'The account\'s document quota ran out during this run: 1 item was not sent after the service refused one, and 2 documents failed with "Quota exceeded". Add documents or upgrade the plan in the dashboard, then run again with the failed items only.',
			},
		]);
	});

	test('only documents that failed with "Quota exceeded", none refused', () => {
		expect(hintsFor({ documents: 2, items: 2, quotaFailures: 1 })).toEqual([
			'The account\'s document quota ran out during this run: 1 document failed with "Quota exceeded". Add documents or upgrade the plan in the dashboard, then run again with the failed items only.',
		]);
	});

	test('one grouped document not sent', () => {
		const [hint] = hintsFor({ documents: 2, items: 9, quota: QUOTA, notSent: 1 });
		expect(hint).toMatch(
			/ran out during this run: 1 document was not sent after the service refused one\. Add/,
		);
	});

	test('no quota refused and none failed: no hint', () => {
		expect(hintsFor({ documents: 2, items: 2, notSent: 0, quotaFailures: 0 })).toEqual([]);
	});
});

describe('the hint that nothing was made twice', () => {
	test('documents reused and created, items repeating a Unique Key: an info hint saying each', () => {
		expect(reuseHintsFor(['reused', 'created', 'reused', 'created', 'created'], 2)).toEqual([
			{
				type: 'info',
				location: 'outputPane',
				message:
					"No document was made twice: 2 documents existed already and were reused; 3 documents were created; 2 items repeated the Unique Key of an earlier item and output its document. Each item's origin field says which.",
			},
		]);
	});

	test('one of each, in the singular', () => {
		expect(reuseHintsFor(['reused', 'regenerated', 'created'], 1).map((h) => h.message)).toEqual([
			"No document was made twice: 1 document existed already and was reused; 1 document was generated again (failed, a draft, or changed data); 1 document was created; 1 item repeated the Unique Key of an earlier item and output its document. Each item's origin field says which.",
		]);
	});

	test('documents generated again, none reused', () => {
		expect(reuseHintsFor(['regenerated', 'regenerated']).map((h) => h.message)).toEqual([
			"No document was made twice: 2 documents were generated again (failed, a draft, or changed data); 0 documents were created. Each item's origin field says which.",
		]);
	});

	test('only items repeating a Unique Key', () => {
		expect(reuseHintsFor(['created'], 3).map((h) => h.message)).toEqual([
			"No document was made twice: 1 document was created; 3 items repeated the Unique Key of an earlier item and output its document. Each item's origin field says which.",
		]);
	});

	test('every document created anew: no hint', () => {
		expect(reuseHintsFor(['created', 'created'])).toEqual([]);
		expect(reuseHintsFor([])).toEqual([]);
	});
});

describe('an n8n without execution hints', () => {
	test('the run reports nothing and does not fail', () => {
		const ctx = {} as unknown as IExecuteFunctions;
		expect(() =>
			reportBatch(ctx, {
				documents: 2,
				items: 2,
				queueTimes: [60_000],
				timeoutSeconds: 300,
				quota: QUOTA,
				notSent: 1,
				quotaFailures: 1,
			}),
		).not.toThrow();
		expect(() => reportReuse(ctx, ['reused'], 1)).not.toThrow();
	});
});
