/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/** Plain unit tests of the pure pieces behind waiting, downloads and output items. */
import {
	fileNameFor,
	mimeTypeFor,
	normalizeDocument,
} from '../../../../nodes/shared/helpers/document';
import { timeOf } from '../../../../nodes/shared/helpers/dates';
import { createLimiter, mapConcurrent } from '../../../../nodes/shared/helpers/items';
import {
	isAfterWrite,
	pollDelay,
	templateFilter,
	updatedSinceFor,
} from '../../../../nodes/DocumentGeneration/engine/pollTiming';

describe('poll schedule', () => {
	test('first looks after about a second, then backs off by half up to 10 s', () => {
		expect([0, 1, 2, 3, 4, 5].map((r) => pollDelay(r))).toEqual([
			1000, 1000, 1500, 2250, 3375, 5063,
		]);
		expect(pollDelay(30)).toBe(10_000);
		for (let round = 1; round < 40; round++)
			expect(pollDelay(round)).toBeGreaterThanOrEqual(pollDelay(round - 1));
	});

	test('quick (no request limit met): four looks a quarter second apart after the first, then the same back-off', () => {
		const delays = Array.from({ length: 9 }, (_, r) => pollDelay(r, true));
		expect(delays).toEqual([1000, 250, 250, 250, 250, 1000, 1500, 2250, 3375]);
		expect(pollDelay(40, true)).toBe(10_000);
	});
});

describe('list window', () => {
	test('q[updated_since] is the earliest write, a second early, on the service clock', () => {
		const at = '2026-03-02T10:00:05.900+00:00';
		const later = '2026-03-02T10:00:09.100+00:00';
		expect(updatedSinceFor([later, at], 0)).toBe(Math.floor(Date.parse(at) / 1000) - 1);
		expect(updatedSinceFor([undefined, 'junk'], 1_700_000_000_500)).toBe(1_699_999_999);
	});

	test('a finished view older than the write is not its outcome; unknown times are trusted', () => {
		const write = timeOf('2026-03-02T10:00:05.000Z')!;
		expect(isAfterWrite('2026-03-02T10:00:04.999Z', write)).toBe(false);
		expect(isAfterWrite('2026-03-02T10:00:05.000Z', write)).toBe(true);
		expect(isAfterWrite('2026-03-02T10:00:06.500Z', write)).toBe(true);
		expect(isAfterWrite(undefined, write)).toBe(true);
		expect(isAfterWrite('2026-03-02T10:00:04Z', NaN)).toBe(true);
	});
});

describe('list narrowing', () => {
	const templates = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);

	test('up to 20 distinct templates are named, 20 included; 21 name none (the whole list)', () => {
		expect(templateFilter(templates(20))).toEqual(templates(20));
		expect(templateFilter([...templates(20), 't0', undefined])).toEqual(templates(20));
		expect(templateFilter(templates(21))).toEqual([]);
	});
});

describe('concurrency helpers', () => {
	test('mapConcurrent keeps order and never runs more than the limit', async () => {
		let active = 0;
		let most = 0;
		const out = await mapConcurrent([5, 1, 4, 2, 3, 0], 2, async (n) => {
			active++;
			most = Math.max(most, active);
			await new Promise((resolve) => setTimeout(resolve, n * 3));
			active--;
			return n * 10;
		});
		expect(out).toEqual([50, 10, 40, 20, 30, 0]);
		expect(most).toBe(2);
		expect(await mapConcurrent([], 8, async () => 1)).toEqual([]);
	});

	test('createLimiter lets work that arrives over time run at most N at once, and passes errors on', async () => {
		const limit = createLimiter(3);
		let active = 0;
		let most = 0;
		const task = (n: number) => async () => {
			active++;
			most = Math.max(most, active);
			await new Promise((resolve) => setTimeout(resolve, 5));
			active--;
			if (n === 4) throw new Error('four');
			return n;
		};
		const first = [0, 1, 2, 3].map((n) => limit(task(n)));
		await new Promise((resolve) => setTimeout(resolve, 1));
		const later = [4, 5, 6].map((n) => limit(task(n)));
		const settled = await Promise.allSettled([...first, ...later]);
		expect(
			settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message)),
		).toEqual([0, 1, 2, 3, 'four', 5, 6]);
		expect(most).toBe(3);
	});
});

describe('output items and files', () => {
	test('meta and payload strings become objects; other values are left as they are', () => {
		expect(
			normalizeDocument({ id: 'a', meta: '{"order_id":"A-1"}', payload: '{"x":[1]}' }),
		).toEqual({
			id: 'a',
			meta: { order_id: 'A-1' },
			payload: { x: [1] },
		});
		expect(normalizeDocument({ meta: { order_id: 'B' } }).meta).toEqual({ order_id: 'B' });
		expect(normalizeDocument({ meta: null }).meta).toBeNull();
		expect(normalizeDocument({ meta: '' }).meta).toBeNull();
		expect(normalizeDocument({ meta: '{oops' }).meta).toBe('{oops');
		expect(normalizeDocument({ id: 'c' })).toEqual({ id: 'c' });
	});

	test('MIME type from the extension; file name from the document', () => {
		expect(mimeTypeFor('a.pdf')).toBe('application/pdf');
		expect(mimeTypeFor('a.PNG')).toBe('image/png');
		expect(mimeTypeFor('a.jpg')).toBe('image/jpeg');
		expect(mimeTypeFor('a.jpeg')).toBe('image/jpeg');
		expect(mimeTypeFor('a.webp')).toBe('image/webp');
		expect(mimeTypeFor(null, 'image')).toBe('image/png');
		expect(mimeTypeFor('noext')).toBe('application/pdf');
		expect(fileNameFor({ id: 'x', filename: 'invoice.pdf' })).toBe('invoice.pdf');
		expect(fileNameFor({ id: 'x', filename: null })).toBe('x.pdf');
		expect(fileNameFor({ id: 'x', output_type: 'image' })).toBe('x.png');
	});
});
