/**
 * Unit tests of the time a pace held its requests (nodes/shared/transport/heldTime.ts): holds
 * that overlap or follow each other at once counted once. Pure: the tests pass the time in.
 * The simulated fleet's clock starts at instant 0, so a hold may start there.
 */
import { HeldTime } from '../../../../nodes/shared/transport/heldTime';

describe('the time held', () => {
	test('nothing held is no time', () => {
		expect(new HeldTime().at(5_000)).toBe(0);
	});

	test('a hold that starts at instant 0 is counted as it runs and to its end', () => {
		const held = new HeldTime();
		held.extend(0, 1_000);
		expect(held.at(400)).toBe(400);
		expect(held.at(5_000)).toBe(1_000);
	});

	test('a hold extended while under way is one interval', () => {
		const held = new HeldTime();
		held.extend(100, 600);
		held.extend(300, 900);
		expect(held.at(2_000)).toBe(800);
	});

	test('a later end that comes first does not shorten the hold', () => {
		const held = new HeldTime();
		held.extend(100, 900);
		held.extend(300, 500);
		expect(held.at(2_000)).toBe(800);
	});

	test('two holds apart are summed, and the gap between them is not', () => {
		const held = new HeldTime();
		held.extend(0, 1_000);
		held.extend(3_000, 3_500);
		expect(held.at(3_200)).toBe(1_200);
		expect(held.at(10_000)).toBe(1_500);
	});
});
