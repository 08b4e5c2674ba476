/**
 * Unit tests of the webhook trigger's pure parts: what a delivery body holds, the items made
 * from it, and the bounded memories of the process (nodes/DocumentGenerationWebhookTrigger/);
 * and its subtitle as n8n evaluates it (needs `npm run build` first).
 */
import {
	deliveryBody,
	documentItem,
	quotaWarningItem,
	updatedAtMs,
	Budget,
	Recent,
} from '../../../nodes/DocumentGenerationWebhookTrigger/delivery';

describe('a delivery told by its shape', () => {
	test('a document, a quota warning, or neither', () => {
		const document = { id: 'd', status: 'success' };
		expect(deliveryBody({ document })).toEqual({ kind: 'document', document });
		expect(deliveryBody(JSON.stringify({ document }))).toEqual({ kind: 'document', document });
		const figures = { period_start: 'a', period_end: 'b', available_documents: 3, threshold: 80 };
		expect(deliveryBody(figures)).toEqual({ kind: 'quotaWarning', figures });
		for (const body of [null, [], 'text', 5, {}, { document: null }, { document: [1] }, { x: 1 }])
			expect(deliveryBody(body)).toEqual({ kind: 'unknown' });
	});

	test('a quota warning as its figures, null for any missing', () => {
		expect(quotaWarningItem({ available_documents: 0, threshold: 100, extra: 'x' })).toEqual({
			event: 'quota.warning',
			period_start: null,
			period_end: null,
			available_documents: 0,
			threshold: 100,
		});
	});

	test('a document: meta as an object, a null payload as {}, a file name only with success', () => {
		expect(
			documentItem({ status: 'failure', filename: 'x.pdf', payload: null, meta: '{"a":1}' }),
		).toEqual({ status: 'failure', filename: null, payload: {}, meta: { a: 1 } });
		expect(documentItem({ status: 'success', filename: 'x.pdf', meta: { a: 1 } })).toEqual({
			status: 'success',
			filename: 'x.pdf',
			meta: { a: 1 },
		});
		expect(documentItem({ status: 'generating', meta: 'not json' })).toEqual({
			status: 'generating',
			meta: 'not json',
		});
	});

	test('updated_at as ms', () => {
		expect(updatedAtMs('2026-11-01T00:00:00.123Z')).toBe(Date.UTC(2026, 10, 1, 0, 0, 0, 123));
		expect(updatedAtMs(12)).toBe(12);
		for (const value of [undefined, null, 'soon', {}, NaN])
			expect(updatedAtMs(value)).toBeUndefined();
	});
});

describe('bounded memories', () => {
	test('Recent forgets past its time to live, and the older half past its size', () => {
		const recent = new Recent<number>(4, 1000);
		recent.set('k1', 1, 0);
		recent.set('k2', 2, 0);
		expect(recent.get('k1', 999)).toBe(1);
		expect(recent.get('k1', 1000)).toBeUndefined();
		// Set again: renewed, and younger than k2.
		recent.set('k1', 10, 500);
		recent.set('k3', 3, 500);
		recent.set('k4', 4, 500);
		expect(recent.size).toBeLessThanOrEqual(4);
		expect(recent.get('k2', 500)).toBeUndefined();
		expect(recent.get('k1', 1400)).toBe(10);
		expect(recent.get('k4', 600)).toBe(4);
		recent.delete('k4');
		expect(recent.get('k4', 600)).toBeUndefined();
	});

	test('Recent stays within its size whatever is set (100,000 keys into 1,000)', () => {
		const recent = new Recent<true>(1000, 60_000);
		for (let i = 0; i < 100_000; i++) {
			recent.set(String(i), true, i);
			if (recent.size > 1000) throw new Error(`${recent.size} entries after ${i + 1}`);
		}
		// The newest half at least is still there.
		for (let i = 99_500; i < 100_000; i++) expect(recent.get(String(i), 100_000)).toBe(true);
	});

	test('Budget allows its number per sliding window', () => {
		const budget = new Budget(2, 1000);
		expect([budget.take(0), budget.take(10), budget.take(20)]).toEqual([true, true, false]);
		expect(budget.take(999)).toBe(false);
		expect(budget.take(1000)).toBe(true);
		expect(budget.take(1005)).toBe(false);
		expect(budget.take(1010)).toBe(true);
	});
});
