/**
 * Stage 5, pure: one output item per document in input order, paired with its items; an item
 * that repeats an earlier item's Unique Key outputs that item's document (or its error).
 */
import type { IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { output } from '../../../../nodes/DocumentGeneration/engine/output';
import { Run, type DocumentGroup } from '../../../../nodes/DocumentGeneration/engine/record';
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
