/**
 * What a payload is built of (descriptions/payloadParts.ts): the name/value rows as the editor
 * shows them, a value put at a payload path, and the size bounds. Pure but for the editor.
 */
import type {
	IDataObject,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodeTypeDescription,
} from 'n8n-workflow';
import { displayedNames, displayedProperty, loadPackage } from '../../../harness';
import { FileBudget } from '../../../../nodes/DocumentGeneration/descriptions/payload';
import {
	checkPayloadSize,
	PAYLOAD_BOUNDS,
	requirePayload,
	sizeText,
	withValueAt,
} from '../../../../nodes/DocumentGeneration/descriptions/payloadParts';

describe('name/value rows in the editor', () => {
	const CREATE: INodeParameters = { resource: 'document', operation: 'create' };
	const PAYLOAD_FIELDS: INodeParameters = { payloadMode: 'fields' };
	const LINE_FIELDS: INodeParameters = { grouping: 'byKey', lineMode: 'fields' };

	function shownNames(action: INodeTypeDescription, values: INodeParameters): string[] {
		return displayedNames(action, { ...CREATE, ...values });
	}

	/** What a saved workflow relies on of a rows property: its kind, its row and the row's fields. */
	function rowsShape(rows: INodeProperties) {
		const [row, ...others] = (rows.options ?? []) as INodePropertyCollection[];
		return {
			type: rows.type,
			default: rows.default,
			typeOptions: rows.typeOptions,
			rows: [row.name, others.length],
			fields: row.values.map((field) => [field.name, field.type, field.default]),
		};
	}

	test('Payload Fields and Line Fields: many sortable rows of a name and a value, each only in its mode', async () => {
		const action = (await loadPackage()).nodeDescription('documentGeneration');
		expect(shownNames(action, { payloadMode: 'json' })).not.toContain('payloadFields');
		expect(shownNames(action, { ...LINE_FIELDS, lineMode: 'json' })).not.toContain('lineFields');
		expect(shownNames(action, { grouping: 'perItem', lineMode: 'fields' })).not.toContain(
			'lineFields',
		);

		const payloadFields = displayedProperty(
			action,
			{ ...CREATE, ...PAYLOAD_FIELDS },
			'payloadFields',
		);
		const lineFields = displayedProperty(action, { ...CREATE, ...LINE_FIELDS }, 'lineFields');
		for (const rows of [payloadFields, lineFields]) {
			expect(rowsShape(rows)).toEqual({
				type: 'fixedCollection',
				default: {},
				typeOptions: { multipleValues: true, sortable: true },
				rows: ['values', 0],
				fields: [
					['key', 'string', ''],
					['value', 'string', ''],
				],
			});
		}
		expect(payloadFields.hint).toBe(
			'A dotted name such as customer.name builds nested data: {"customer": {"name": …}}',
		);
		expect(lineFields).not.toHaveProperty('hint');
	});
});

describe('a value at a path and the size bound', () => {
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
});

describe('sizes, paths and bounds at their edges', () => {
	test('sizes change unit at exactly 1 KB and 1 MB', () => {
		expect(sizeText(0)).toBe('0 bytes');
		expect(sizeText(1023)).toBe('1023 bytes');
		expect(sizeText(1024)).toBe('1 KB');
		expect(sizeText(1535)).toBe('1 KB');
		expect(sizeText(1536)).toBe('2 KB');
		expect(sizeText(1024 * 1024 - 1)).toBe('1024 KB');
		expect(sizeText(1024 * 1024)).toBe('1.0 MB');
	});

	test('the bounds a document and a run are held to', () => {
		expect(PAYLOAD_BOUNDS).toEqual({
			fileBytes: 5 * 1024 * 1024,
			payloadBytes: 20 * 1024 * 1024,
			lines: 10_000,
			runFileBytes: 256 * 1024 * 1024,
		});
	});

	test('a path through a value is refused with the part and a top-level name to use instead', () => {
		let refusal: { message: string; hint: string } | undefined;
		try {
			withValueAt({ company: { logo: 'text' } }, 'company.logo.small', 1, 'file "logo"');
		} catch (error) {
			refusal = error as { message: string; hint: string };
		}
		expect(refusal?.message).toBe(
			'The file "logo" goes under "company.logo", but the payload has a value there, not an object',
		);
		expect(refusal?.hint).toMatch(/e\.g\. "logo_small" at the top level/);
	});

	test('the value replaces what stood at the path; the objects on the way keep their other keys', () => {
		const payload = { a: { b: { old: 1 }, keep: true }, top: 'x' };
		expect(withValueAt(payload, 'a.b', 2, 'file')).toEqual({ a: { b: 2, keep: true }, top: 'x' });
		expect(withValueAt(payload, 'a.b.c', 3, 'file')).toEqual({
			a: { b: { old: 1, c: 3 }, keep: true },
			top: 'x',
		});
		expect(payload).toEqual({ a: { b: { old: 1 }, keep: true }, top: 'x' });
		// An inherited key on the way is not the payload's: a new object is made there.
		const inherited = Object.create({ a: 'inherited' }) as IDataObject;
		expect(withValueAt(inherited, 'a.b', 1, 'file')).toEqual({ a: { b: 1 } });
	});

	test('a run past its file budget says how to send less', () => {
		const budget = new FileBudget(1);
		const refusal = (() => {
			try {
				budget.take(2);
			} catch (error) {
				return error as { hint: string };
			}
			return undefined;
		})();
		expect(refusal?.hint).toMatch(/Send fewer items per run \(Loop Over Items/);
	});

	test('a payload past its bound says how to send less', () => {
		const payload = { t: 'x'.repeat(PAYLOAD_BOUNDS.payloadBytes) };
		const refusal = (() => {
			try {
				checkPayloadSize(payload);
			} catch (error) {
				return error as { hint: string };
			}
			return undefined;
		})();
		expect(refusal?.hint).toMatch(/^Send less data: smaller or fewer files/);
		expect(refusal?.hint).toMatch(/group by a finer key/);
	});
});

describe('1,000 levels for the whole payload of a document, whatever put them there', () => {
	/** Line items under a dotted path of `parts` multibyte names: levels of the whole payload. */
	const withLinesAt = (parts: number) =>
		withValueAt({ title: 'é' }, Array(parts).fill('é').join('.'), [{ qty: 1 }], 'line items');

	test('a path of 998 parts to lines of objects makes 1,000 levels: sent', () => {
		const payload = withLinesAt(998);
		expect(requirePayload(payload, 'json')).toBe(payload);
	});

	test('a path of 999 parts (within the 1,000 a name may have) makes 1,001 levels: refused', () => {
		expect(() => requirePayload(withLinesAt(999), 'json')).toThrow(
			'The payload is nested more than 1000 levels deep',
		);
	});
});
