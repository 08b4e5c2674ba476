/** A value put at a payload path: copied along the way (the input's own data never changes), refused through a value; and the size bound. Pure. */
import * as parts from '../../../../nodes/DocumentGeneration/descriptions/payloadParts';
const { PAYLOAD_BOUNDS, checkPayloadSize, sizeText, withValueAt } = parts;
import { FileBudget } from '../../../../nodes/DocumentGeneration/descriptions/payloadFiles';

describe('withValueAt', () => {
	test('puts the value at a dotted path, making the objects on the way; the payload given is not changed', () => {
		const input = { customer: { name: 'Ada' }, lines: ['old'] };
		const frozen = JSON.stringify(input);
		const out = withValueAt(input, 'customer.logo.small', 'data:x', 'file');
		expect(out).toEqual({ customer: { name: 'Ada', logo: { small: 'data:x' } }, lines: ['old'] });
		expect(JSON.stringify(input)).toBe(frozen);
		expect(withValueAt(input, ' lines ', [1, 2], 'line items').lines).toEqual([1, 2]);
	});

	test('a path through a value, a list or null is refused; an empty part too', () => {
		expect(() => withValueAt({ a: 'text' }, 'a.b', 1, 'file')).toThrow(
			/goes under "a", but the payload has a value there/,
		);
		expect(() => withValueAt({ a: [1] }, 'a.b', 1, 'file')).toThrow(/goes under "a"/);
		expect(() => withValueAt({ a: null }, 'a.b', 1, 'file')).toThrow(/goes under "a"/);
		expect(() => withValueAt({}, 'a..b', 1, 'file')).toThrow(/empty part/);
	});

	test('__proto__ is an own key, never a prototype change', () => {
		const out = withValueAt({}, '__proto__.polluted', 'yes', 'file');
		expect(Object.prototype.hasOwnProperty.call(out, '__proto__')).toBe(true);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});
});

describe('checkPayloadSize', () => {
	test('at the bound it passes; one byte over it is refused with both sizes', () => {
		const overhead = JSON.stringify({ t: '' }).length;
		expect(() =>
			checkPayloadSize({ t: 'x'.repeat(PAYLOAD_BOUNDS.payloadBytes - overhead) }),
		).not.toThrow();
		expect(() =>
			checkPayloadSize({ t: 'x'.repeat(PAYLOAD_BOUNDS.payloadBytes - overhead + 1) }),
		).toThrow(/The payload is 20\.0 MB, more than the 20\.0 MB one document accepts/);
	});

	test('sizes read as people write them', () => {
		expect(sizeText(40)).toBe('40 bytes');
		expect(sizeText(812 * 1024)).toBe('812 KB');
		expect(sizeText(5.25 * 1024 * 1024)).toBe('5.3 MB');
	});
});

describe('FileBudget', () => {
	test('a run reads files up to its bound; the byte past it is refused, saying how to send fewer', () => {
		const budget = new FileBudget(100);
		budget.take(60);
		budget.take(40);
		expect(() => budget.take(1)).toThrow(/more than the .* one run reads into payloads/);
		expect(PAYLOAD_BOUNDS.runFileBytes).toBe(256 * 1024 * 1024);
	});
});
