/**
 * Template Fields both ways (templateFields/mapping.ts), as pure functions: the resource
 * mapper's fields of a template and of its list's lines, and the payload made of mapped values.
 * What the editor and a run show of the same is tested on the engine in mapping.edges.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	fieldLabel,
	lineFields,
	listFields,
	mapperFields,
	payloadFromMapping,
	templateFields,
	typedValue,
	valueAtPath,
	type TemplateField,
} from '../../../../nodes/DocumentGeneration/templateFields/mapping';

/** A template field, printed and with no sample unless told. */
const fieldOf = (path: string, extra: Partial<TemplateField> = {}): TemplateField => ({
	path,
	type: 'string',
	printed: true,
	sampleOnly: false,
	itemFields: [],
	...extra,
});

describe('fieldLabel', () => {
	test.each<[string, Partial<TemplateField>, string]>([
		['printed, no sample', {}, 'a'],
		['printed, a sample', { sample: 'x' }, 'a (e.g. x)'],
		['a sample of 31 characters', { sample: 'x'.repeat(31) }, `a (e.g. ${'x'.repeat(30)}…)`],
		['a sample of false', { type: 'boolean', sample: false }, 'a (e.g. false)'],
		['a sample of 0', { type: 'number', sample: 0 }, 'a (e.g. 0)'],
		['not printed', { printed: false, sample: 1, type: 'number' }, 'a · optional (e.g. 1)'],
		['an object', { type: 'object', sample: { b: 1 } }, 'a'],
		['an object not printed', { type: 'object', printed: false, sample: {} }, 'a · optional'],
		['a list that is not printed', { type: 'array', printed: false, sample: [1] }, 'a'],
		[
			'a list of item fields',
			{ type: 'array', printed: false, itemFields: ['b', 'c'], sample: [] },
			'a (list of: b, c)',
		],
		[
			'in the sample data only, not printed',
			{ sampleOnly: true, printed: false, sample: 'x' },
			'a · in the sample data only (e.g. x)',
		],
	])('%s', (_name, extra, label) => {
		expect(fieldLabel(fieldOf('a', extra))).toBe(label);
	});
});

describe('mapperFields', () => {
	test('every field optional, not for matching, shown; a list or object field starts as "[]" or "{}", others with no default', () => {
		const fields = mapperFields([
			fieldOf('s'),
			fieldOf('n', { type: 'number' }),
			fieldOf('b', { type: 'boolean' }),
			fieldOf('l', { type: 'array' }),
			fieldOf('o', { type: 'object' }),
		]);
		const flags = {
			required: false,
			defaultMatch: false,
			canBeUsedToMatch: false,
			display: true,
		};
		expect(fields).toEqual([
			{ id: 's', displayName: 's', type: 'string', ...flags },
			{ id: 'n', displayName: 'n', type: 'number', ...flags },
			{ id: 'b', displayName: 'b', type: 'boolean', ...flags },
			{ id: 'l', displayName: 'l', type: 'array', ...flags, defaultValue: '[]' },
			{ id: 'o', displayName: 'o', type: 'object', ...flags, defaultValue: '{}' },
		]);
		for (const field of fields.slice(0, 3)) expect(field).not.toHaveProperty('defaultValue');
	});
});

describe('listFields and lineFields', () => {
	const body = '{{ title }}{% for line in lines %}{{ line.description }}{{ line.qty }}{% endfor %}';

	test('the list fields only', () => {
		const fields = templateFields(body, { title: 'T', tags: ['a'] });
		expect(listFields(fields).map((f) => f.path)).toEqual(['lines', 'tags']);
	});

	test('no list at the path (a field that is not a list, or nothing): undefined', () => {
		const fields = templateFields(body, { title: 'T' });
		expect(lineFields(fields, 'title')).toBeUndefined();
		expect(lineFields(fields, 'items')).toBeUndefined();
	});

	test("the loop's fields, printed, then the first sample line's others, sample-only; typed from the first line", () => {
		const fields = templateFields(body, {
			lines: [
				{ qty: 2, sku: 'P-1', size: { w: 1 } },
				{ description: 'Ink', colour: 'blue' },
			],
		});
		expect(lineFields(fields, 'lines')).toEqual([
			fieldOf('description'),
			fieldOf('qty', { type: 'number', sample: 2 }),
			fieldOf('sku', { sampleOnly: true, printed: false, sample: 'P-1' }),
			fieldOf('size', { type: 'object', sampleOnly: true, printed: false, sample: { w: 1 } }),
		]);
	});

	test.each<[string, unknown[]]>([
		['no line', []],
		['a first line that is null', [null, { qty: 1 }]],
		['a first line that is text', ['Pens']],
		['a first line that is a number', [3]],
	])('sample data with %s: the loop fields, as text without a sample', (_name, lines) => {
		const fields = templateFields(body, { lines });
		expect(lineFields(fields, 'lines')).toEqual([fieldOf('description'), fieldOf('qty')]);
	});
});

describe('typedValue', () => {
	test('a number: finite numbers as they are, text with spaces around it read as its number', () => {
		expect(typedValue('n', 'number', 7)).toBe(7);
		expect(typedValue('n', 'number', -0.5)).toBe(-0.5);
		expect(typedValue('n', 'number', '\t7 ')).toBe(7);
		expect(typedValue('n', 'number', ' 1e3')).toBe(1000);
	});

	test.each<[string, unknown, string]>([
		['Infinity', Infinity, 'Infinity'],
		['-Infinity', -Infinity, '-Infinity'],
		['NaN', NaN, 'NaN'],
		['the text "Infinity"', 'Infinity', 'Infinity'],
		['spaces', '  ', '  '],
		['null', null, 'null'],
		['true', true, 'true'],
	])('a number refused: %s', (_name, value, shown) => {
		expect(() => typedValue('n', 'number', value)).toThrow(
			`The template field "n" must be a number, not ${shown}`,
		);
	});

	test('a boolean: as it is, or its exact text', () => {
		expect(typedValue('b', 'boolean', true)).toBe(true);
		expect(typedValue('b', 'boolean', false)).toBe(false);
		expect(typedValue('b', 'boolean', 'true')).toBe(true);
		expect(typedValue('b', 'boolean', 'false')).toBe(false);
		for (const value of ['True', 'yes', 1, null])
			expect(() => typedValue('b', 'boolean', value)).toThrow(
				`The template field "b" must be true or false, not `,
			);
	});

	test('an object is neither null nor a list; a list is a list; both from JSON text', () => {
		expect(typedValue('o', 'object', { a: 1 })).toEqual({ a: 1 });
		expect(typedValue('o', 'object', ' {"a": 1} ')).toEqual({ a: 1 });
		expect(() => typedValue('o', 'object', null)).toThrow(
			'The template field "o" must be an object, not null',
		);
		expect(() => typedValue('o', 'object', 'null')).toThrow('must be an object, not null');
		expect(() => typedValue('o', 'object', [1])).toThrow('must be an object, not [1]');
		expect(() => typedValue('o', 'object', 3)).toThrow('must be an object, not 3');
		expect(typedValue('l', 'array', [1])).toEqual([1]);
		expect(typedValue('l', 'array', '[]')).toEqual([]);
		expect(() => typedValue('l', 'array', { a: 1 })).toThrow(
			'The template field "l" must be a list, not {"a":1}',
		);
		expect(() => typedValue('l', 'array', 'nope')).toThrow(
			/^The template field "l" must be a list, but its text is not valid JSON: /,
		);
	});

	test('a text field, or one of no known type, takes the value as it is', () => {
		const value = { a: 1 };
		expect(typedValue('s', 'string', value)).toBe(value);
		expect(typedValue('s', undefined, '')).toBe('');
		expect(typedValue('s', 'dateTime', 'x')).toBe('x');
	});
});

test('typedValue: each refusal says how to map the field', () => {
	const hintOf = (type: 'number' | 'boolean' | 'array' | 'object', value: unknown) => {
		try {
			typedValue('total', type, value);
		} catch (error) {
			return (error as Error & { hint?: string }).hint;
		}
		return undefined;
	};
	expect(hintOf('number', 'x')).toBe('Map a number to total, e.g. 42 or {{ $json.total }}');
	expect(hintOf('boolean', 'x')).toBe('Map a boolean to total, e.g. {{ $json.paid }}');
	expect(hintOf('array', 'x')).toBe(
		'Map a list to total with an expression, e.g. {{ $json.total }}, or write it as JSON',
	);
	expect(hintOf('object', 1)).toBe(
		'Map an object to total with an expression, e.g. {{ $json.total }}',
	);
});

describe('valueAtPath', () => {
	test('a path through null, a number or a text is undefined; a key with dots is found even holding null', () => {
		expect(valueAtPath({ a: null }, 'a.b')).toBeUndefined();
		expect(valueAtPath({ a: { b: null } }, 'a.b.c')).toBeUndefined();
		expect(valueAtPath({ a: 3 }, 'a.b')).toBeUndefined();
		// A text's own properties are not fields of the input.
		expect(valueAtPath({ a: 'xyz' }, 'a.length')).toBeUndefined();
		expect(valueAtPath({ a: 'xyz' }, 'a.0')).toBeUndefined();
		expect(valueAtPath({ 'a.b': null, a: { b: 1 } }, 'a.b')).toBeNull();
		expect(valueAtPath({ a: { b: { c: 0 } } }, 'a.b.c')).toBe(0);
		expect(valueAtPath({ a: [5, 6] }, 'a.1')).toBe(6);
	});
});

describe('payloadFromMapping', () => {
	const schema = [
		{ id: 's', type: 'string' },
		{ id: 'n', type: 'number' },
		{ id: 'b', type: 'boolean' },
		{ id: 'l', type: 'array' },
		{ id: 'o', type: 'object' },
	];
	const below = (value: IDataObject) =>
		payloadFromMapping({ mappingMode: 'defineBelow', value, schema }, {});
	const auto = (input: IDataObject) =>
		payloadFromMapping({ mappingMode: 'autoMapInputData', value: null, schema }, input);
	/** The refusal of mapping these values below (its message and hint), or undefined. */
	const refusal = (value: IDataObject) => {
		try {
			payloadFromMapping({ mappingMode: 'defineBelow', value }, {});
		} catch (error) {
			const { message, hint } = error as Error & { hint?: string };
			return { message, hint };
		}
		return undefined;
	};
	/** A dotted name of this many levels: level0.level1.… */
	const path = (levels: number) => Array.from({ length: levels }, (_, i) => `level${i}`).join('.');

	test('mapped below: nothing, null and empty text are left out but in a text field; "[]" and "{}" as the editor left them too', () => {
		expect(below({ s: '', n: '', b: '', l: ' []\n', o: '{}' })).toEqual({ s: '' });
		expect(below({ s: null, n: undefined, b: null, l: null, o: null })).toEqual({});
		expect(below({ s: '[]', l: '[1]', o: '{"a": 1}' })).toEqual({
			s: '[]',
			l: [1],
			o: { a: 1 },
		});
	});

	test('mapped automatically: the input\'s "[]" and "{}" are sent; null and empty text are left out but in a text field', () => {
		expect(auto({ s: '', n: '', b: null, l: '[]', o: ' {} ' })).toEqual({ s: '', l: [], o: {} });
		expect(auto({ n: ' 5 ', b: 'true', other: 1 })).toEqual({ n: 5, b: true });
	});

	test('mapped automatically: the mapping below is not read', () => {
		expect(
			payloadFromMapping(
				{ mappingMode: 'autoMapInputData', value: { s: 'below' }, schema },
				{ s: 'input' },
			),
		).toEqual({ s: 'input' });
		expect(
			payloadFromMapping({ mappingMode: 'defineBelow', value: { s: 'below' }, schema }, { s: 'x' }),
		).toEqual({ s: 'below' });
	});

	test('no mapping, a schema or value that is not what n8n stores: nothing sent; no schema: the values as they are', () => {
		expect(payloadFromMapping(undefined, { s: 'x' })).toEqual({});
		expect(payloadFromMapping({ mappingMode: 'autoMapInputData', schema: 's' }, { s: 1 })).toEqual(
			{},
		);
		expect(payloadFromMapping({ mappingMode: 'defineBelow', value: 's' }, { s: 1 })).toEqual({});
		expect(
			payloadFromMapping({ mappingMode: 'defineBelow', value: { a: '', b: '[]' } }, {}),
		).toEqual({ a: '', b: '[]' });
	});

	test('the bounds: 2,000 fields and 32 levels pass; beyond, refused with what to do instead', () => {
		const fields = (count: number) =>
			Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}`, 'x']));
		expect(Object.keys(payloadFromMapping({ value: fields(2000) }, {}))).toHaveLength(2000);
		expect(refusal(fields(12001))).toEqual({
			message: 'Template Fields maps 12,001 fields, more than the 2,000 a document is built from',
			hint: 'Send this much data as one object: set Payload Mode to JSON, e.g. {{ $json }}',
		});
		expect(payloadFromMapping({ value: { [path(32)]: 1 } }, {})).toHaveProperty('level0');
		expect(refusal({ ok: 1, [path(33)]: 1 })).toEqual({
			message: `The template field "${path(33).slice(0, 60)}…" is nested deeper than 32 levels`,
			hint: 'Map the object at a higher level as one field (an object field takes JSON), or set Payload Mode to JSON',
		});
		expect(refusal({ [`${path(40)}..`]: 1 })?.message).toMatch(/nested deeper than 32 levels$/);
	});

	test('a name starting with a dot is held to the depth bound as any other: 33 levels are refused', () => {
		const name = `.${path(32)}`;
		expect(refusal({ [name]: 1 })).toEqual({
			message: `The template field "${name.slice(0, 60)}…" is nested deeper than 32 levels`,
			hint: 'Map the object at a higher level as one field (an object field takes JSON), or set Payload Mode to JSON',
		});
	});
});
