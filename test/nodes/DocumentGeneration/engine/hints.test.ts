/**
 * The execution hints about the service's queue and the quota count what the run made: items
 * when each item is its own document, documents (from how many items) when Create's Documents
 * grouped them (One per Group, One for All Items). Pure: the hints a context is given.
 */
import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';

import type { BatchFacts } from '../../../../nodes/DocumentGeneration/engine/hints';
import {
	QUEUE_HINT_MS,
	batchSize,
	reportBatch,
} from '../../../../nodes/DocumentGeneration/engine/hints';
import type { ItemError } from '../../../../nodes/shared/helpers/items';

/** The messages of the hints `reportBatch` gives for these facts. */
function hintsFor(facts: Partial<BatchFacts>): string[] {
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
	return hints.map((hint) => hint.message);
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
