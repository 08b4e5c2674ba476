/**
 * The run's records, pure: one per document to make, the first failure stopping the run
 * without Continue On Fail, and the error that stops it naming every document the run made.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	Run,
	nameDocuments,
	onePerItem,
	type ItemRecord,
} from '../../../../nodes/DocumentGeneration/engine/record';
import type { GenerationRequest } from '../../../../nodes/DocumentGeneration/engine/options';
import type { ItemError } from '../../../../nodes/shared/helpers/items';
import { InputError } from '../../../../nodes/shared/helpers/parse';
import { nodeFixture } from '../../../harness/fixtures';

const node = nodeFixture();

function runOf(count: number, continueOnFail = false): Run {
	const ctx = { getNode: () => node, continueOnFail: () => continueOnFail };
	return new Run(ctx as unknown as IExecuteFunctions, onePerItem(count));
}

const failure = (message: string, description?: string): ItemError =>
	new NodeOperationError(node, message, { description });

describe('one document per item', () => {
	test('each item is its own document, paired with itself alone', () => {
		expect(onePerItem(3)).toEqual([
			{ index: 0, members: [0] },
			{ index: 1, members: [1] },
			{ index: 2, members: [2] },
		]);
		expect(onePerItem(0)).toEqual([]);
	});

	test("a record is found by its first item's index; an item no document starts from is refused", () => {
		const run = new Run(
			{ getNode: () => node, continueOnFail: () => false } as unknown as IExecuteFunctions,
			[
				{ index: 0, members: [0, 2] },
				{ index: 1, members: [1] },
			],
		);
		expect(run.record(0).members).toEqual([0, 2]);
		expect(run.record(1).members).toEqual([1]);
		expect(() => run.record(2)).toThrow('No document is made from item 3 first');
	});

	test('only the records with a request of their own are sent', () => {
		const run = runOf(3);
		run.record(1).request = {} as GenerationRequest;
		expect(run.requested.map((record) => record.index)).toEqual([1]);
	});
});

describe('a failure without Continue On Fail', () => {
	test("stops the run, and the item keeps its first error (with the item's number)", () => {
		const run = runOf(2);
		expect(run.continueOnFail).toBe(false);
		run.fail(1, new InputError('The Template ID is empty', 'Choose a template'));
		run.fail(1, new Error('a later problem'));
		expect(run.stop.signal.aborted).toBe(true);
		expect(run.record(1).error?.message).toBe('The Template ID is empty (item 2)');
		expect(run.record(0).error).toBeUndefined();
	});

	test('ends the node with the first item in input order that failed', () => {
		const run = runOf(3);
		run.fail(2, failure('third failed'));
		run.fail(1, failure('second failed'));
		expect(() => run.throwFirst()).toThrow('second failed');
	});

	test('no failure: the node does not end with an error', () => {
		const run = runOf(2);
		run.made(0, 'doc-1', 'success');
		expect(() => run.throwFirst()).not.toThrow();
	});

	test('its error names the documents the other items made, once each, in the order they were made', () => {
		const run = runOf(4);
		run.made(2, 'doc-c', 'pending');
		run.made(0, 'doc-a', 'pending');
		run.made(2, 'doc-c', 'success');
		run.made(1, 'doc-b', 'pending');
		run.fail(1, failure('The document failed', 'The template has an error.'));
		let thrown: unknown;
		try {
			run.throwFirst();
		} catch (error) {
			thrown = error;
		}
		expect((thrown as ItemError).description).toBe(
			'The template has an error. Its document was made: doc-b (last status: pending). Fetch it with Get or Download (Document ID doc-b) rather than running this item again without a Unique Key (Create → Options), which would make a second one. This run had also made 2 other documents (doc-c, doc-a); they are kept and keep generating. Retry On Fail reuses them, and so does running the batch again with a Unique Key (Create → Options); otherwise Get Many (Updated Since the start of this run) lists them: run again only the items without one.',
		);
		expect(run.record(2).made).toEqual({ id: 'doc-c', status: 'success' });
	});
});

describe('a failure with Continue On Fail', () => {
	test('the run goes on, and the node does not end with an error', () => {
		const run = runOf(2, true);
		expect(run.continueOnFail).toBe(true);
		run.fail(0, failure('first failed'));
		expect(run.stop.signal.aborted).toBe(false);
		expect(run.record(0).error?.message).toBe('first failed');
		expect(() => run.throwFirst()).not.toThrow();
	});
});

describe('the error that stops a run', () => {
	const record = (index: number, made?: string, error?: ItemError): ItemRecord => ({
		index,
		members: [index],
		error,
		made: made === undefined ? undefined : { id: made, status: 'pending' },
	});

	test('one other document, in the singular; an error without a description starts with it', () => {
		const failed = record(0, undefined, failure('Timed out'));
		const error = nameDocuments(failed, [record(1, 'doc-1')]);
		expect(error.description).toMatch(
			/^This run had also made 1 other document \(doc-1\); they are kept/,
		);
	});

	test('at most 10 documents by id, the rest counted', () => {
		const failed = record(0, undefined, failure('Timed out', 'Raise the Wait Timeout.'));
		const makers = Array.from({ length: 12 }, (_, i) => record(i + 1, `doc-${i + 1}`));
		const error = nameDocuments(failed, makers);
		expect(error.description).toContain(
			'This run had also made 12 other documents (doc-1, doc-2, doc-3, doc-4, doc-5, doc-6, doc-7, doc-8, doc-9, doc-10 and 2 more);',
		);
	});

	test('exactly 10 other documents are all named', () => {
		const failed = record(0, undefined, failure('Timed out'));
		const makers = Array.from({ length: 10 }, (_, i) => record(i + 1, `doc-${i + 1}`));
		const error = nameDocuments(failed, makers);
		expect(error.description).toContain(
			'(doc-1, doc-2, doc-3, doc-4, doc-5, doc-6, doc-7, doc-8, doc-9, doc-10);',
		);
	});

	test('the failed item made the only document: it is named, and no other', () => {
		const failed = record(3, 'doc-own', failure('Timed out', 'Raise the Wait Timeout.'));
		const error = nameDocuments(failed, [failed]);
		expect(error.description).toBe(
			'Raise the Wait Timeout. Its document was made: doc-own (last status: pending). Fetch it with Get or Download (Document ID doc-own) rather than running this item again without a Unique Key (Create → Options), which would make a second one.',
		);
	});

	test('no document made and no description: the error says nothing more', () => {
		const failed = record(0, undefined, failure('Bad template'));
		expect(nameDocuments(failed, []).description).toBe('');
	});
});
