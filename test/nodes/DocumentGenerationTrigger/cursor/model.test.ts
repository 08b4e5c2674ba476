/**
 * The list model's order and clock readings when what the service lists comes in any order:
 * documents stamped the same instant fire in the order of their keys, the newest card is found
 * wherever it stands, and the newest download link of an answer reads the service's clock.
 */
import {
	ServiceClock,
	entryOf,
	newest,
	oldestFirst,
	type Entry,
} from '../../../../nodes/DocumentGenerationTrigger/cursor/model';

const BASE = Date.UTC(2030, 5, 1, 12, 0, 0, 0);
const entry = (id: string, ms: number): Entry =>
	entryOf({ id, updated_at: new Date(ms).toISOString() })!;
const amz = (ms: number) =>
	new Date(ms)
		.toISOString()
		.replace(/[-:]/g, '')
		.replace(/\.\d{3}/, '');
const linked = (ms: number) => ({
	download_url: `https://bucket.s3.amazonaws.com/doc.pdf?X-Amz-Date=${amz(ms)}&X-Amz-Expires=900&X-Amz-Signature=ab`,
});

describe('documents stamped the same instant', () => {
	test('fire in the order of their keys, whichever order they were listed in', () => {
		const a = entry('a', BASE);
		const b = entry('b', BASE);
		expect(oldestFirst(a, b)).toBe(-1);
		expect(oldestFirst(b, a)).toBe(1);
		expect([b, a].sort(oldestFirst)).toEqual([a, b]);
		expect([a, b].sort(oldestFirst)).toEqual([a, b]);
	});

	test('a card compared with itself is neither older nor newer', () => {
		const a = entry('a', BASE);
		expect(oldestFirst(a, entry('a', BASE))).toBe(0);
	});
});

describe('the newest card', () => {
	test('is found wherever it stands in the list', () => {
		const newer = entry('n', BASE + 5000);
		expect(newest([newer, entry('o', BASE), entry('m', BASE + 1000)])).toBe(newer);
	});

	test('of two stamped the same instant, the one with the later key', () => {
		const b = entry('b', BASE);
		expect(newest([b, entry('a', BASE)])).toBe(b);
	});
});

describe("the service's clock from an answer", () => {
	test('the newest download link counts, wherever it stands among the cards', () => {
		const clock = new ServiceClock();
		clock.observe([linked(BASE + 10_000), linked(BASE + 2000), { download_url: null }], 5000);
		expect(clock.lowerBoundAt(5000)).toBe(BASE + 10_000);
	});
});
