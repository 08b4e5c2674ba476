/**
 * Create's Template Fields and Line Fields of the Template (templateFields/resourceMapper.ts): the
 * fields the editor lists for the picked template, as pure functions and through the engine
 * against the sandbox, and the payload a run builds from the mapped values, within the bounds.
 */
import {
	fieldLabel,
	mapperFields,
	payloadFromMapping,
	typedValue,
	valueAtPath,
} from '../../../../nodes/DocumentGeneration/templateFields/resourceMapper';
import { type TemplateField } from '../../../../nodes/DocumentGeneration/templateFields/templateFields';
import {
	hostileBodies,
	hostileSamples,
	keys,
	outcomeOf,
} from '../../../harness/pathologicalTemplates';
import { type IDataObject, type INodeParameters, type ResourceMapperField } from 'n8n-workflow';
import {
	addTemplate,
	addTemplate as addNamedTemplate,
	fieldOf,
	fieldsOf,
	fieldsOf as fieldsOfTemplate,
	lineFieldsOf,
	lineFieldsOf as lineFieldsOfTemplate,
	templateFieldsCreate,
} from '../../../harness/templateFields';
import { useSandbox } from '../../../harness/use-sandbox';
import { apiRequests, byId, run, sentPayloads, templateId } from '../helpers';
import type { Sandbox } from '../../../sandbox';
import { editorNode, loadPackage } from '../../../harness';
import { nodeParameterIssues } from '../../../harness/versions';

describe('the payload from mapped values', () => {
	describe('the payload from mapped values', () => {
		test('typedValue converts what it safely can and refuses the rest', () => {
			expect(typedValue('n', 'number', '4.5')).toBe(4.5);
			expect(typedValue('b', 'boolean', 'false')).toBe(false);
			expect(typedValue('o', 'object', '{"a": 1}')).toEqual({ a: 1 });
			expect(typedValue('s', 'string', 12)).toBe(12);
			expect(() => typedValue('n', 'number', '')).toThrow(
				'The template field "n" must be a number',
			);
			expect(() => typedValue('b', 'boolean', 'yes')).toThrow('must be true or false');
			expect(() => typedValue('o', 'object', '[1]')).toThrow('must be an object');
			expect(() => typedValue('l', 'array', '{"a": 1}')).toThrow('must be a list');
		});

		test('valueAtPath: a key with dots first, then the nested path', () => {
			expect(valueAtPath({ 'a.b': 1, a: { b: 2 } }, 'a.b')).toBe(1);
			expect(valueAtPath({ a: { b: 2 } }, 'a.b')).toBe(2);
			expect(valueAtPath({ a: 'x' }, 'a.b')).toBeUndefined();
		});

		test('fields left empty are not sent; a removed field is not auto-mapped', () => {
			const schema = [
				{ id: 'a', type: 'string' },
				{ id: 'n', type: 'number' },
				{ id: 'x.y', type: 'string', removed: true },
			];
			expect(
				payloadFromMapping({ mappingMode: 'defineBelow', value: { a: 'v', n: '' }, schema }, {}),
			).toEqual({ a: 'v' });
			expect(
				payloadFromMapping(
					{ mappingMode: 'autoMapInputData', value: null, schema },
					{ a: 'v', n: 2, x: { y: 'z' } },
				),
			).toEqual({ a: 'v', n: 2 });
		});
	});
});

describe('at run time, the mapping is bounded the same way', () => {
	test('more than 2,000 mapped fields, or a name deeper than 32 levels: refused, naming the field', () => {
		const many = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`f${i}`, i]));
		expect(() => payloadFromMapping({ mappingMode: 'defineBelow', value: many }, {})).toThrow(
			'Template Fields maps 2,001 fields, more than the 2,000 a document is built from',
		);
		const deep = Array.from({ length: 33 }, (_, i) => `p${i}`).join('.');
		expect(() =>
			payloadFromMapping({ mappingMode: 'defineBelow', value: { [deep]: 1 } }, {}),
		).toThrow(/^The template field "p0\.p1\.p2.*" is nested deeper than 32 levels$/);
		const { value } = outcomeOf(() =>
			payloadFromMapping(
				{
					mappingMode: 'defineBelow',
					value: Object.fromEntries(
						Array.from({ length: 2000 }, (_, i) => [
							`${Array.from({ length: 31 }, (__, d) => `l${d}`).join('.')}.f${i}`,
							i,
						]),
					),
				},
				{},
			),
		);
		expect(Object.keys(value as object)).toEqual(['l0']);
	});
});

describe('labels, mapper fields and typed values', () => {
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
		const path = (levels: number) =>
			Array.from({ length: levels }, (_, i) => `level${i}`).join('.');

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
				payloadFromMapping(
					{ mappingMode: 'defineBelow', value: { s: 'below' }, schema },
					{ s: 'x' },
				),
			).toEqual({ s: 'below' });
		});

		test('no mapping, a schema or value that is not what n8n stores: nothing sent; no schema: the values as they are', () => {
			expect(payloadFromMapping(undefined, { s: 'x' })).toEqual({});
			expect(
				payloadFromMapping({ mappingMode: 'autoMapInputData', schema: 's' }, { s: 1 }),
			).toEqual({});
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
});

describe("the editor's field list", () => {
	const sb = useSandbox({ pendingMs: 20, generatingMs: 80 });

	const fieldsOf = (template: unknown) => fieldsOfTemplate(sb, template);

	const byPath = (fields: ResourceMapperField[]) =>
		Object.fromEntries(fields.map((f) => [f.id, { type: f.type, label: f.displayName }]));

	describe('the field list of a template', () => {
		test('the invoice: nested names, the loop as one list field with its items, types and examples from the sample data, defaults optional', async () => {
			const { fields } = await fieldsOf(byId(templateId(sb)));
			expect(fields.map((f) => f.id)).toEqual([
				'number',
				'issued_on',
				'due_on',
				'seller.name',
				'seller.address',
				'seller.vat',
				'customer.name',
				'customer.address',
				'customer.email',
				'lines',
				'currency',
				'total',
				'notes',
			]);
			const fieldsByPath = byPath(fields);
			expect(fieldsByPath).toMatchObject({
				total: { type: 'number', label: 'total (e.g. 1300)' },
				'customer.name': { type: 'string', label: 'customer.name (e.g. Ada Lovelace)' },
				lines: { type: 'array', label: 'lines (list of: description, quantity, unit_price)' },
			});
			// Printed with a default, or only in a condition: optional.
			expect(fieldsByPath.issued_on.label).toBe('issued_on · optional (e.g. 2026-11-01)');
			expect(fieldsByPath['seller.vat'].label).toBe('seller.vat · optional (e.g. GB123456789)');
			expect(fieldsByPath.due_on.label).toMatch(/^due_on · optional /);
			expect(fieldsByPath.number.label).not.toMatch(/optional/);
			for (const field of fields)
				expect(field).toMatchObject({ required: false, display: true, defaultMatch: false });
		});

		test('the payslip: two loops, conditions, a path only the sample data has', async () => {
			const { fields } = await fieldsOf(byId(templateId(sb, 'payslip')));
			const fieldsByPath = byPath(fields);
			expect(fieldsByPath.earnings).toEqual({
				type: 'array',
				label: 'earnings (list of: label, hours, rate)',
			});
			expect(fieldsByPath.deductions.label).toBe('deductions (list of: label, amount)');
			expect(fieldsByPath['employee.number']).toEqual({
				type: 'number',
				label: 'employee.number (e.g. 1906)',
			});
			expect(fieldsByPath.bonus).toEqual({ type: 'number', label: 'bonus · optional (e.g. 0)' });
			expect(fieldsByPath['employer.registration']).toEqual({
				type: 'string',
				label: 'employer.registration · in the sample data only (e.g. HR-2020-77)',
			});
			expect(fields.map((f) => f.id)).not.toContain('earning');
		});

		test('loop variables, forloop, assign and capture are not fields; filters and their arguments are read', async () => {
			const id = addTemplate(
				sb,
				'certificate',
				[
					'{% assign year = issued | date: "%Y" %}',
					'{% capture title %}{{ course.name | upcase }}{% endcapture %}',
					'<h1>{{ title }}</h1><p>{{ student.first_name }} {{ student.last_name | default: "" }}</p>',
					'{% for module in course.modules %}{{ forloop.index }}. {{ module.title }} ({{ module.hours | times: rate }}){% endfor %}',
					'{% if honours and grade > 90 %}With honours{% endif %}',
					'{% unless signed %}Unsigned{% endunless %}',
					'{{ year }}',
				].join('\n'),
				{ course: { name: 'Liquid', hours: 12 }, student: { first_name: 'Ada' }, grade: 95 },
			);
			const { fields } = await fieldsOf(byId(id));
			expect(fields.map((f) => f.id)).toEqual([
				'issued',
				'course.name',
				'student.first_name',
				'student.last_name',
				'course.modules',
				'rate',
				'honours',
				'grade',
				'signed',
				'course.hours',
			]);
			expect(byPath(fields)).toMatchObject({
				grade: { type: 'number' },
				'course.modules': { type: 'array', label: 'course.modules (list of: title, hours)' },
				'course.hours': { label: expect.stringMatching(/in the sample data only/) },
			});
		});

		test('variables read only through a snippet come from the sample data; nested sample objects are listed by their leaves', async () => {
			const id = addTemplate(
				sb,
				'with-snippet',
				"{% include 'letterhead' %}<p>{{ body_text }}</p>",
				{
					letterhead: { company: 'Acme', address: { city: 'Bristol' } },
					body_text: 'Hello',
					tags: ['a', 'b'],
				},
			);
			const { fields } = await fieldsOf(byId(id));
			expect(fields.map((f) => [f.id, f.type])).toEqual([
				['body_text', 'string'],
				['letterhead.company', 'string'],
				['letterhead.address.city', 'string'],
				['tags', 'array'],
			]);
		});

		test('an empty template, an expression, no template, an unknown one, a key the service refuses: one line that says why and how to go on', async () => {
			const empty = addTemplate(sb, 'static', '<h1>Terms and conditions</h1>', '{}');
			expect(await fieldsOf(byId(empty))).toEqual({
				fields: [],
				emptyFieldsNotice: expect.stringMatching(/reads no variables and has no sample data/),
			});
			const expression = await fieldsOf({ __rl: true, mode: 'id', value: '={{ $json.template }}' });
			expect(expression.emptyFieldsNotice).toMatch(
				/given by an expression.*pick it From List or By ID.*Payload Mode to JSON/,
			);
			expect((await fieldsOf({ __rl: true, mode: 'list', value: '' })).emptyFieldsNotice).toMatch(
				/^Pick a template above/,
			);
			const unknown = await fieldsOf(byId('00000000-0000-4000-8000-000000000000'));
			expect(unknown.emptyFieldsNotice).toMatch(/could not be loaded \(.*\): check the credential/);
			sb.faults.add({ type: 'status', status: 401, path: '/api/v1/document_templates/' });
			const down = await fieldsOf(byId(templateId(sb)));
			expect(down.fields).toEqual([]);
			expect(down.emptyFieldsNotice).toMatch(/could not be loaded/);
			expect(down.emptyFieldsNotice).not.toContain(sb.apiKey);
		});
	});

	describe('a run with Template Fields', () => {
		const mapped = (
			value: IDataObject | null,
			schema: IDataObject[],
			mappingMode = 'defineBelow',
		) => templateFieldsCreate(sb, value, schema, mappingMode);
		const schema = [
			{ id: 'number', type: 'string' },
			{ id: 'customer.name', type: 'string' },
			{ id: 'customer.email', type: 'string' },
			{ id: 'lines', type: 'array' },
			{ id: 'total', type: 'number' },
			{ id: 'paid', type: 'boolean' },
		];
		const sentPayload = (index = 0) => sentPayloads(sb)[index];

		test('the mapped values go out as the nested, typed payload the template reads', async () => {
			const result = await run(
				sb,
				mapped(
					{
						number: '={{ $json.invoice }}',
						'customer.name': '={{ $json.client.name }}',
						lines: '={{ $json.items }}',
						total: '={{ $json.amount }}',
						paid: 'true',
					},
					schema,
				),
				[
					{
						invoice: 'INV-7',
						client: { name: 'Ada' },
						items: [{ description: 'x', quantity: 2 }],
						amount: '42.5',
					},
				],
			);
			expect(result.error).toBeUndefined();
			expect(sentPayload()).toEqual({
				number: 'INV-7',
				customer: { name: 'Ada' },
				lines: [{ description: 'x', quantity: 2 }],
				total: 42.5,
				paid: true,
			});
		});

		test('a list field given JSON text is parsed; one that is not valid JSON is refused naming field and item, before anything is sent', async () => {
			await run(sb, mapped({ number: 'A', lines: '[{"description": "y"}]' }, schema), [{}]);
			expect(sentPayload()).toEqual({ number: 'A', lines: [{ description: 'y' }] });
			sb.resetRequests();
			const refused = await run(sb, mapped({ number: 'A', lines: '={{ $json.lines }}' }, schema), [
				{ lines: '[{"a": 1}]' },
				{ lines: '[{"a": 1},]' },
			]);
			expect(refused.error).toMatchObject({ itemIndex: 1 });
			expect(refused.error!.message).toMatch(
				/^The template field "lines" must be a list, but its text is not valid JSON: .* \(item 2\)$/,
			);
			expect(apiRequests(sb)).toEqual([]);
		});

		test('a number field given text that is no number is refused naming field and item', async () => {
			// (A fixed value of the wrong type is an issue n8n itself shows before the run.)
			const refused = await run(sb, mapped({ number: 'A', total: '={{ $json.total }}' }, schema), [
				{ total: 3 },
				{ total: 'forty' },
			]);
			expect(refused.error!.message).toBe(
				'The template field "total" must be a number, not forty (item 2)',
			);
			expect(apiRequests(sb)).toEqual([]);
		});

		test('Map Automatically takes the input fields of the same names, nested ones by their path', async () => {
			await run(sb, mapped(null, schema, 'autoMapInputData'), [
				{
					number: 'N-1',
					customer: { name: 'Grace', email: 'g@example.com' },
					total: 7,
					other: 'x',
				},
			]);
			expect(sentPayload()).toEqual({
				number: 'N-1',
				customer: { name: 'Grace', email: 'g@example.com' },
				total: 7,
			});
		});

		test('a template given by an expression (no field list): the values mapped are sent as they are', async () => {
			await run(
				sb,
				{
					...mapped({ number: 'X-1', 'customer.name': '={{ $json.who }}' }, []),
					templateId: byId('={{ $json.template }}'),
				},
				[{ template: templateId(sb), who: 'Ada' }],
			);
			expect(sentPayload()).toEqual({ number: 'X-1', customer: { name: 'Ada' } });
		});

		test('nothing mapped: refused as a blank document, saying how to map', async () => {
			const refused = await run(sb, mapped({}, schema), [{}]);
			expect(refused.error!.message).toBe(
				'The payload is empty, so the document would be blank (item 1)',
			);
			expect(refused.error!.description).toMatch(/Template Fields/);
		});

		test('the PDF holds the mapped values', async () => {
			const result = await run(
				sb,
				{
					...mapped(
						{ number: 'INV-MAPPED-1', 'customer.name': '={{ $json.who }}', total: 99 },
						schema,
					),
					waitForCompletion: true,
					download: true,
				},
				[{ who: 'Mapped Person' }],
			);
			expect(result.error).toBeUndefined();
			const pdf = await (
				await import('../../../harness')
			).getBinaryBuffer(result.items[0].binary!.data);
			const text = pdf.toString('latin1');
			expect(text).toContain('INV-MAPPED-1');
			expect(text).toContain('Mapped Person');
		});
	});
});

describe("the editor's field list at its edges", () => {
	const sb = useSandbox({ pendingMs: 10, generatingMs: 30 });

	/** How each mapper's notices end: the JSON mode of the payload, or of the lines. */
	const OR_JSON = 'or set Payload Mode to JSON. Fields mapped below are still sent.';
	const OR_LINE_JSON = 'or set Line Mode to JSON. Line fields mapped below are still sent.';

	/** A notice in place of the fields. */
	const notice = (words: string) => ({ fields: [], emptyFieldsNotice: words });

	/** The sandbox's record of a template, to change its published and draft versions. */
	function templateRecord(box: Sandbox, id: string): Record<string, unknown> {
		const record = box.templates.find((template) => template.id === id);
		if (!record) throw new Error(`no template ${id}`);
		return record as unknown as Record<string, unknown>;
	}

	/** Each field's id and label, in the order listed. */
	const labels = (answer: { fields: Array<{ id: string; displayName: string }> }) =>
		answer.fields.map((field) => [field.id, field.displayName]);

	describe('Line Fields of the Template: what the mapper says when it lists nothing', () => {
		test('no template picked: how to go on in Line Mode', async () => {
			expect(await lineFieldsOf(sb, { __rl: true, mode: 'list', value: '' })).toEqual(
				notice(`Pick a template above to list its fields, ${OR_LINE_JSON}`),
			);
		});

		test('a Line Items Path with spaces around it names the same list', async () => {
			const template = byId(templateId(sb));
			const padded = await lineFieldsOf(sb, template, '  lines ');
			expect(padded.fields.map((field) => field.id)).toEqual([
				'description',
				'quantity',
				'unit_price',
			]);
			expect(padded).toEqual(await lineFieldsOf(sb, template, 'lines'));
		});

		test('no list at the path: the notice names every list of the template, or says it has none', async () => {
			const twoLists = addTemplate(
				sb,
				'two-lists',
				'{% for line in lines %}{{ line.a }}{% endfor %}{% for tax in taxes %}{{ tax.rate }}{% endfor %}',
			);
			expect(await lineFieldsOf(sb, byId(twoLists), 'items')).toEqual(
				notice(
					'This template has no list at "items": set Line Items Path to one of its lists. Its lists: lines, taxes. Or set Line Mode to JSON.',
				),
			);
			const noList = addTemplate(sb, 'no-list', '<p>{{ total }}</p>', { total: 1 });
			expect(await lineFieldsOf(sb, byId(noList))).toEqual(
				notice(
					'This template has no list at "lines": set Line Items Path to one of its lists. It has no list. Or set Line Mode to JSON.',
				),
			);
		});

		test('a list whose loop reads nothing of its lines, nor has a sample line: set Line Mode to JSON', async () => {
			const id = addTemplate(sb, 'bare-list', '{% for line in lines %}<hr>{% endfor %}', {
				lines: [],
			});
			expect(await lineFieldsOf(sb, byId(id))).toEqual(
				notice(`The template's list "lines" shows no field of its lines: set Line Mode to JSON.`),
			);
		});
	});

	describe('the picked template, as the editor sends it', () => {
		test('a plain ID (a workflow written by hand, not a resource locator) lists the same fields', async () => {
			const id = templateId(sb);
			const plain = await fieldsOf(sb, id);
			expect(plain.fields.length).toBeGreaterThan(0);
			expect(plain).toEqual(await fieldsOf(sb, byId(id)));
		});

		test('a locator whose value is null (as a workflow written by hand may hold) asks for a template', async () => {
			expect(await fieldsOf(sb, { __rl: true, mode: 'list', value: null })).toEqual(
				notice(`Pick a template above to list its fields, ${OR_JSON}`),
			);
		});

		test('By ID left as spaces asks for a template; text that is no ID says so; each says how to go on', async () => {
			expect(await fieldsOf(sb, byId('   '))).toEqual(
				notice(`Pick a template above to list its fields, ${OR_JSON}`),
			);
			expect(await fieldsOf(sb, byId('invoice-2024'))).toEqual(
				notice(`"invoice-2024" is not a template ID: pick the template From List, ${OR_JSON}`),
			);
		});

		test('text with a space before its "=" is fixed text, not an expression: said not to be an ID, as a run says', async () => {
			const text = ' ={{ $json.templateId }}';
			expect(await fieldsOf(sb, byId(text))).toEqual(
				notice(`"${text}" is not a template ID: pick the template From List, ${OR_JSON}`),
			);
			expect(await fieldsOf(sb, byId(text.trim()))).toEqual(
				notice(
					`The template is given by an expression, so its fields cannot be listed here: pick it From List or By ID to see them, ${OR_JSON}`,
				),
			);
		});
	});

	describe("a template's published version and its draft", () => {
		test('a draft not yet published: the fields of the published body and sample data', async () => {
			const id = addTemplate(sb, 'edited', '<p>{{ customer }}</p>', { customer: 'Ada' });
			Object.assign(templateRecord(sb, id), {
				body_draft: '<p>{{ client }} {{ total }}</p>',
				sample_data_draft: JSON.stringify({ client: 'Grace', total: 3 }),
			});
			expect(labels(await fieldsOf(sb, byId(id)))).toEqual([['customer', 'customer (e.g. Ada)']]);
		});

		test('never published (no body, no sample data): the fields of its draft, typed from its sample data', async () => {
			const id = addTemplate(sb, 'unpublished', '');
			Object.assign(templateRecord(sb, id), {
				body: null,
				sample_data: null,
				body_draft: '<p>{{ client }} {{ total }}</p>',
				sample_data_draft: JSON.stringify({ client: 'Grace', total: 3 }),
			});
			const answer = await fieldsOf(sb, byId(id));
			expect(labels(answer)).toEqual([
				['client', 'client (e.g. Grace)'],
				['total', 'total (e.g. 3)'],
			]);
			expect(answer.fields[1].type).toBe('number');
		});
	});
});

describe('hostile templates in the editor and at run time', () => {
	const sb = useSandbox({ pendingMs: 20, generatingMs: 80 });

	const MB = 1024 * 1024;

	/** A template of the sandbox with this body and sample data (JSON text); answers its id. */
	const addTemplate = (sandbox: Sandbox, body: string, sampleData = '{}') =>
		addNamedTemplate(sandbox, `hostile-${sandbox.templates.length}`, body, sampleData);
	const fieldsOf = (template: unknown) => fieldsOfTemplate(sb, template);

	/** The editor's answer for a template with this body and sample data (engine, sandbox, reader). */
	async function fieldsFor(body: string, sampleData?: string) {
		return await fieldsOf(byId(addTemplate(sb, body, sampleData)));
	}

	const TOO_LARGE =
		/^This template's fields are not listed here: .+\. Map its data as JSON: set Payload Mode to JSON\. Fields mapped below are still sent\.$/;

	describe('hostile templates answer in the editor', () => {
		test.each(Object.keys(hostileBodies))('a body of 1 MB: %s', async (name) => {
			const answer = await fieldsFor(hostileBodies[name](MB));
			expect(answer.fields).toEqual([]);
			expect(answer.emptyFieldsNotice).toMatch(TOO_LARGE);
			expect(answer.emptyFieldsNotice).toMatch(
				/its body is 1,\d{3} KB, over the 512 KB the field list reads/,
			);
		});

		test.each(Object.keys(hostileBodies))(
			'a body just under the bound (500 KB): %s',
			async (name) => {
				const answer = await fieldsFor(hostileBodies[name](500 * 1024));
				// Read to the end: its fields, a notice that it has none, or one naming the bound it passed.
				if (answer.fields.length === 0)
					expect(answer.emptyFieldsNotice).toEqual(expect.any(String));
				expect(answer.emptyFieldsNotice ?? '').not.toMatch(/could not be loaded/);
			},
		);

		test.each(Object.keys(hostileSamples))('sample data: %s', async (name) => {
			const answer = await fieldsFor('{{ a }}', hostileSamples[name]());
			expect(answer.fields).toEqual([]);
			expect(answer.emptyFieldsNotice).toMatch(TOO_LARGE);
		});

		test('a body of 5 MB', async () => {
			const body = hostileBodies['unclosed {% if %} blocks, a value printed in each'](5 * MB);
			const answer = await fieldsFor(body);
			expect(answer.emptyFieldsNotice).toBe(
				"This template's fields are not listed here: its body is 5,120 KB, over the 512 KB the field list reads. Map its data as JSON: set Payload Mode to JSON. Fields mapped below are still sent.",
			);
		});

		test('the notices name the bound: too many fields, nested too deep', async () => {
			const many = await fieldsFor('', keys(8000));
			expect(many.emptyFieldsNotice).toBe(
				"This template's fields are not listed here: its sample data has more than 2,000 fields, more than the field list shows. Map its data as JSON: set Payload Mode to JSON. Fields mapped below are still sent.",
			);
			const deep = await fieldsFor('', hostileSamples['nested 50,000 levels deep']());
			expect(deep.emptyFieldsNotice).toMatch(
				/: "a\.a\.a.*" is nested deeper than 32 levels\. Map its data/,
			);
		});

		test('sample data of 2,000 keys (the bound) is listed', async () => {
			const answer = await fieldsFor('{{ key_1 }}', keys(2000));
			expect(answer.fields).toHaveLength(2000);
			expect(answer.fields[0]).toMatchObject({ id: 'key_1', type: 'number' });
		});
	});

	describe('an empty list or object field shows no error before the user types', () => {
		/**
		 * What n8n's editor does with the answer: each field's value starts as its `defaultValue`
		 * (null without one), a list or object field is shown in a JSON editor (its text: the value,
		 * '' for null) whose linter marks text that is not JSON, and the node's issues come from
		 * NodeHelpers.getNodeParametersIssues over the stored value.
		 */
		function asTheEditorShowsIt(fields: ResourceMapperField[]) {
			return Object.fromEntries(fields.map((field) => [field.id, field.defaultValue ?? null]));
		}
		const jsonEditorText = (value: unknown) => (value === null ? '' : String(value));
		const lintError = (text: string) => {
			try {
				JSON.parse(text);
				return undefined;
			} catch (error) {
				return (error as Error).message;
			}
		};

		test('the payslip: earnings, deductions and an object field start as valid JSON, with no node issue', async () => {
			const id = addTemplate(
				sb,
				'{{ employee.name }}{% for e in earnings %}{{ e.label }}{% endfor %}{{ meta }}',
				JSON.stringify({ employee: { name: 'Ada' }, earnings: [], meta: {} }),
			);
			const { fields } = await fieldsOf(byId(id));
			const byIdOf = Object.fromEntries(fields.map((f) => [f.id, f]));
			expect(byIdOf.earnings).toMatchObject({ type: 'array', required: false, defaultValue: '[]' });
			expect(byIdOf.meta).toMatchObject({ type: 'object', required: false, defaultValue: '{}' });
			expect(byIdOf['employee.name'].defaultValue).toBeUndefined();
			const value = asTheEditorShowsIt(fields);
			for (const field of fields.filter((f) => f.type === 'array' || f.type === 'object'))
				expect([field.id, lintError(jsonEditorText(value[field.id]))]).toEqual([
					field.id,
					undefined,
				]);

			const pkg = await loadPackage();
			const description = pkg.nodeDescription('documentGeneration');
			const parameters: INodeParameters = {
				resource: 'document',
				operation: 'create',
				templateId: byId(id) as unknown as INodeParameters,
				payloadMode: 'templateFields',
				mappedFields: {
					mappingMode: 'defineBelow',
					value,
					schema: fields,
				} as unknown as INodeParameters,
			};
			const node = editorNode(pkg, 'documentGeneration', parameters, { name: 'Create' });
			const issues = nodeParameterIssues(description.properties, node, description);
			expect(issues?.parameters ?? {}).toEqual({});
		});

		const schema = [
			{ id: 'number', type: 'string' },
			{ id: 'lines', type: 'array' },
			{ id: 'customer', type: 'object' },
		];
		const mapped = (value: IDataObject) => templateFieldsCreate(sb, value, schema);
		/** The payload of the last create sent. */
		const sentPayload = () => sentPayloads(sb).slice(-1)[0];

		test('left as they start, they are not sent; filled in, or given by an expression, they are', async () => {
			const untouched = await run(sb, mapped({ number: 'A-1', lines: '[]', customer: '{}' }));
			expect(untouched.error).toBeUndefined();
			expect(sentPayload()).toEqual({ number: 'A-1' });

			const filled = await run(
				sb,
				mapped({ number: 'A-2', lines: '[{"description": "x"}]', customer: '={{ $json.c }}' }),
				[{ c: {} }],
			);
			expect(filled.error).toBeUndefined();
			expect(sentPayload()).toEqual({
				number: 'A-2',
				lines: [{ description: 'x' }],
				customer: {},
			});
		});

		test('at run time the same bounds hold: a mapping beyond them is refused naming the item, nothing sent', async () => {
			sb.resetRequests();
			const deep = Array.from({ length: 33 }, (_, i) => `p${i}`).join('.');
			const refused = await run(
				sb,
				{
					...mapped({ number: 'A-3' }),
					mappedFields: {
						mappingMode: 'autoMapInputData',
						value: null,
						schema: [
							{ id: 'number', type: 'string' },
							{ id: deep, type: 'string' },
						],
					} as unknown as INodeParameters,
				},
				[{ number: 'A-3' }],
			);
			expect(refused.error!.message).toMatch(
				/^The template field "p0\.p1\.p2.*" is nested deeper than 32 levels \(item 1\)$/,
			);
			const many = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`f${i}`, 'x']));
			const tooMany = await run(sb, mapped(many));
			expect(tooMany.error!.message).toBe(
				'Template Fields maps 2,001 fields, more than the 2,000 a document is built from (item 1)',
			);
			expect(apiRequests(sb)).toEqual([]);
		});
	});
});

describe('a run with Template Fields at its edges', () => {
	const sb = useSandbox({ pendingMs: 10, generatingMs: 30 });

	/** A field as the editor receives it, the flags every template field has filled in. */
	const field = (id: string, type: string, displayName: string, extra: IDataObject = {}) => ({
		id,
		displayName,
		type,
		required: false,
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: true,
		...extra,
	});

	describe('the fields the editor receives', () => {
		test('each label says optional or sample-only, then an example cut at 30 characters, or none: an object or list field, a field without sample', async () => {
			const id = addTemplate(
				sb,
				'fields-labels',
				[
					'<h1>{{ title }}</h1>{{ meta }}{{ note | default: "" }}',
					'{% if paid %}Paid{% endif %}{% for tag in tags %}{{ tag }}{% endfor %}',
				].join(''),
				{
					title: 'A quarterly report for the board of directors',
					meta: {},
					paid: false,
					tags: ['x'],
					count: 0,
				},
			);
			const { fields } = await fieldsOf(sb, byId(id));
			expect(fields).toEqual([
				field('title', 'string', 'title (e.g. A quarterly report for the boa…)'),
				field('meta', 'object', 'meta', { defaultValue: '{}' }),
				field('note', 'string', 'note · optional'),
				field('paid', 'boolean', 'paid · optional (e.g. false)'),
				field('tags', 'array', 'tags', { defaultValue: '[]' }),
				field('count', 'number', 'count · in the sample data only (e.g. 0)'),
			]);
		});
	});

	describe("the Line Fields of a template's list", () => {
		const lineFieldsOf = async (body: string, sampleData: IDataObject) =>
			await lineFieldsOfTemplate(sb, byId(addTemplate(sb, 'line-fields', body, sampleData)));

		test("what the loop reads of each line, then what only the sample's first line has; typed and exemplified from that first line", async () => {
			const { fields } = await lineFieldsOf(
				'{% for line in lines %}{{ line.description }} {{ line.qty }} {{ line.note }}{% endfor %}',
				{
					lines: [
						{ description: 'Pens', qty: 2, sku: 'P-1', tags: ['red'], size: { w: 3 } },
						{ description: 'Ink', qty: 1, colour: 'blue' },
					],
				},
			);
			expect(fields).toEqual([
				field('description', 'string', 'description (e.g. Pens)'),
				field('qty', 'number', 'qty (e.g. 2)'),
				field('note', 'string', 'note'),
				field('sku', 'string', 'sku · in the sample data only (e.g. P-1)'),
				field('tags', 'array', 'tags · in the sample data only', { defaultValue: '[]' }),
				field('size', 'object', 'size · in the sample data only', { defaultValue: '{}' }),
			]);
		});

		test.each([
			['no line', []],
			['a first line that is null', [null, { qty: 1 }]],
			['a first line that is text', ['Pens']],
		])('sample data with %s: the fields the loop reads, as text', async (_name, lines) => {
			const { fields } = await lineFieldsOf(
				'{% for line in lines %}{{ line.description }}{{ line.qty }}{% endfor %}',
				{ lines } as IDataObject,
			);
			expect(fields).toEqual([
				field('description', 'string', 'description'),
				field('qty', 'string', 'qty'),
			]);
		});
	});

	describe('a run with Template Fields: empty, odd and out-of-bounds values', () => {
		const schema = [
			{ id: 'number', type: 'string' },
			{ id: 'customer.name', type: 'string' },
			{ id: 'customer', type: 'object' },
			{ id: 'lines', type: 'array' },
			{ id: 'total', type: 'number' },
			{ id: 'paid', type: 'boolean' },
		];
		/** Create in Template Fields mode over `fields` (else the schema above). */
		const mapped = (value: IDataObject | null, mappingMode = 'defineBelow', fields = schema) =>
			templateFieldsCreate(sb, value, fields, mappingMode);
		/** The payload of the one create sent. */
		const sentPayload = () => {
			const payloads = sentPayloads(sb);
			expect(payloads).toHaveLength(1);
			return payloads[0];
		};
		/** The one error of a run that sent nothing. */
		const refusal = async (parameters: INodeParameters, items: IDataObject[] = [{}]) => {
			const result = await run(sb, parameters, items);
			expect(apiRequests(sb)).toEqual([]);
			return { message: result.error?.message, description: result.error?.description };
		};

		test('mapped below: null, and empty text in a number or object field, are left out; empty text in a text field is sent; a list left "[]" with a line break is left out', async () => {
			const result = await run(
				sb,
				mapped({
					number: 'A-1',
					'customer.name': '',
					// (A fixed empty text in an object field is an issue n8n shows before the run.)
					customer: '={{ "" }}',
					lines: '[]\n',
					total: '',
					paid: null,
				}),
			);
			expect(result.error).toBeUndefined();
			expect(sentPayload()).toEqual({ number: 'A-1', customer: { name: '' } });
		});

		test('mapped automatically: an input field "[]" or "{}" is sent as the empty list or object; null, or empty text in a number field, is left out', async () => {
			const result = await run(sb, mapped(null, 'autoMapInputData'), [
				{ number: 'A-2', customer: '{}', lines: '[]', total: '', paid: null },
			]);
			expect(result.error).toBeUndefined();
			expect(sentPayload()).toEqual({ number: 'A-2', customer: {}, lines: [] });
		});

		test('mapped automatically: a path through a null input field is left out, the run goes on', async () => {
			const result = await run(
				sb,
				mapped(null, 'autoMapInputData', [
					{ id: 'number', type: 'string' },
					{ id: 'customer.name', type: 'string' },
				]),
				[{ number: 'A-3', customer: null }],
			);
			expect(result.error).toBeUndefined();
			expect(sentPayload()).toEqual({ number: 'A-3' });
		});

		test('a number with spaces around it is sent as the number', async () => {
			await run(sb, mapped({ number: 'A-4', total: '={{ " 42.5 " }}' }));
			expect(sentPayload()).toEqual({ number: 'A-4', total: 42.5 });
		});

		test.each([
			['Infinity', '={{ 1 / 0 }}', 'Infinity'],
			['the text "Infinity"', 'Infinity', 'Infinity'],
			['spaces only', '={{ "   " }}', '   '],
		])(
			'a number field given %s is refused naming field and item, with how to map a number',
			async (_name, total, shown) => {
				expect(await refusal(mapped({ number: 'A-5', total }))).toEqual({
					message: `The template field "total" must be a number, not ${shown} (item 1)`,
					description: 'Map a number to total, e.g. 42 or {{ $json.total }}',
				});
			},
		);

		test('a boolean field given other text is refused, with how to map a boolean', async () => {
			expect(await refusal(mapped({ number: 'A-6', paid: '={{ "yes" }}' }))).toEqual({
				message: 'The template field "paid" must be true or false, not yes (item 1)',
				description: 'Map a boolean to paid, e.g. {{ $json.paid }}',
			});
		});

		test('an object field given JSON null, or text that is not JSON, is refused, with how to map an object', async () => {
			expect(await refusal(mapped({ number: 'A-7', customer: '={{ "null" }}' }))).toEqual({
				message: 'The template field "customer" must be an object, not null (item 1)',
				description: 'Map an object to customer with an expression, e.g. {{ $json.customer }}',
			});
			const notJson = await refusal(mapped({ number: 'A-7', customer: '={{ "{name: 1}" }}' }));
			expect(notJson.message).toMatch(
				/^The template field "customer" must be an object, but its text is not valid JSON: .+ \(item 1\)$/,
			);
			expect(notJson.description).toBe(
				'Map an object to customer with an expression, e.g. {{ $json.customer }}, or write it as JSON',
			);
		});

		test('a list field given an object is refused, with how to map a list', async () => {
			expect(
				await refusal(mapped({ number: 'A-8', lines: '={{ $json.lines }}' }), [
					{ lines: { a: 1 } },
				]),
			).toEqual({
				message: 'The template field "lines" must be a list, not {"a":1} (item 1)',
				description: 'Map a list to lines with an expression, e.g. {{ $json.lines }}',
			});
		});

		test('beyond the bounds: the refusal says what to do instead, and a deep name is cut at 60 characters', async () => {
			const many = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`f${i}`, 'x']));
			expect(await refusal(mapped(many, 'defineBelow', []))).toEqual({
				message:
					'Template Fields maps 2,001 fields, more than the 2,000 a document is built from (item 1)',
				description:
					'Send this much data as one object: set Payload Mode to JSON, e.g. {{ $json }}',
			});
			const deep = Array.from({ length: 33 }, (_, i) => `level${i}`).join('.');
			expect(await refusal(mapped({ [deep]: 'x' }, 'defineBelow', []))).toEqual({
				message: `The template field "${deep.slice(0, 60)}…" is nested deeper than 32 levels (item 1)`,
				description:
					'Map the object at a higher level as one field (an object field takes JSON), or set Payload Mode to JSON',
			});
		});
	});
});
