/**
 * The fields of a template (templateFields/templateFields.ts): the body's variables and the
 * sample data's paths, typed; the same on hostile bodies and sample data; and the fields of a
 * list's lines. Pure.
 */
import { TemplateTooLarge } from '../../../../nodes/DocumentGeneration/templateFields/liquidReader';
import {
	lineFields,
	listFields,
	templateFields,
} from '../../../../nodes/DocumentGeneration/templateFields/templateFields';
import {
	expectOutcome,
	hostileBodies,
	hostileSamples,
	keys,
	outcomeOf,
	REFUSED_AT_500KB,
} from '../../../harness/pathologicalTemplates';
import { fieldOf } from '../../../harness/templateFields';

describe('templateFields', () => {
	test('a path under another replaces it; sample data gives types, and paths the body does not read', () => {
		const fields = templateFields(
			'{{ customer }} {{ customer.name }} {% for l in lines %}{{ l.x }}{% endfor %}',
			{
				customer: { name: 'A', vip: true },
				lines: [{ x: 1, y: 2 }],
				count: 3,
			},
		);
		expect(fields.map((f) => [f.path, f.type, f.sampleOnly])).toEqual([
			['customer.name', 'string', false],
			['lines', 'array', false],
			['customer.vip', 'boolean', true],
			['count', 'number', true],
		]);
	});

	test('sample data that is not a JSON object is ignored', () => {
		expect(templateFields('{{ a }}', '[1, 2]').map((f) => f.type)).toEqual(['string']);
		expect(templateFields('{{ a }}', '{not json').map((f) => f.path)).toEqual(['a']);
		expect(templateFields(undefined, undefined)).toEqual([]);
	});
});

const MB = 1024 * 1024;

describe('the field list on hostile bodies and sample data', () => {
	test.each(Object.keys(hostileSamples))('sample data: %s', (name) => {
		const sample = hostileSamples[name]();
		const { error } = outcomeOf(() => templateFields('', sample));
		expect(error).toBeInstanceOf(TemplateTooLarge);
	});

	test('sample data of 2,000 keys (the bound) is listed', () => {
		const { value } = outcomeOf(() => templateFields('{{ key_1 }}', keys(2000)));
		expect(value).toHaveLength(2000);
		expect(value?.[0]).toMatchObject({ path: 'key_1', type: 'number', sampleOnly: false });
	});

	test('a body of 5 MB and sample data over 512 KB: refused by size before any reading', () => {
		const body = hostileBodies['unclosed {% if %} blocks, a value printed in each'](5 * MB);
		const big = outcomeOf(() => templateFields(body, '{}'));
		expect((big.error as TemplateTooLarge).reason).toBe(
			'its body is 5,120 KB, over the 512 KB the field list reads',
		);
		const hundredThousand = keys(100000);
		const sample = outcomeOf(() => templateFields('', hundredThousand));
		expect((sample.error as TemplateTooLarge).reason).toMatch(
			/^its sample data is [\d,]+ KB, over the 512 KB the field list reads$/,
		);
	});

	test.each(Object.keys(hostileBodies))('body of 500 KB: %s', (name) => {
		const body = hostileBodies[name](500 * 1024);
		const outcome = outcomeOf(() => templateFields(body, keys(1000)));
		// A list it reads holds the sample's 1,000 keys at least.
		expectOutcome(outcome, REFUSED_AT_500KB[name], 1000);
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

describe('the field list at its bounds: 2,000 fields, 32 levels, whatever the bytes of the names', () => {
	const reason = (body: string, sample: unknown) =>
		(outcomeOf(() => templateFields(body, sample)).error as TemplateTooLarge | undefined)?.reason;
	/** Sample data of `count` keys of three-byte names (`名0`, `名1`, …), from `from` on. */
	const named = (count: number, from = 0) =>
		Object.fromEntries(Array.from({ length: count }, (_, i) => [`名${from + i}`, i]));
	/** A body reading `count` variables `v0`, `v1`, …. */
	const reading = (count: number) =>
		Array.from({ length: count }, (_, i) => `{{ v${i} }}`).join('');

	test('sample data of 2,000 keys is listed; 2,001 are refused', () => {
		expect(templateFields('', named(2000))).toHaveLength(2000);
		expect(reason('', named(2001))).toBe(
			'its sample data has more than 2,000 fields, more than the field list shows',
		);
	});

	test('the body and the sample data share the 2,000: 1,000 of each listed, one more refused', () => {
		expect(templateFields(reading(1000), named(1000))).toHaveLength(2000);
		expect(reason(reading(1000), named(1001))).toBe(
			'the template has more than 2,000 fields, more than the field list shows',
		);
	});

	test('a sample value 32 levels deep is listed; 33 levels are refused', () => {
		const deep = (levels: number): unknown =>
			levels === 0 ? 'é' : { [`é${levels}`]: deep(levels - 1) };
		const [field] = templateFields('', deep(32));
		expect(field.path.split('.')).toHaveLength(32);
		expect(reason('', deep(33))).toMatch(/^"é33\.é32\.é31.*" is nested deeper than 32 levels$/);
	});

	test('the first line of a list with 2,000 keys gives its fields; 2,001 are refused', () => {
		const [lines] = templateFields('', { lines: [named(2000)] });
		expect(lines.itemFields).toHaveLength(2000);
		expect(reason('', { lines: [named(2001)] })).toBe(
			'the list "lines" has more than 2,000 fields, more than the field list shows',
		);
	});

	test('a loop reading 2,000 fields of each line is listed; 2,001 are refused', () => {
		const loop = (count: number) =>
			`{% for l in lines %}${Array.from({ length: count }, (_, i) => `{{ l.f${i} }}`).join('')}{% endfor %}`;
		const [lines] = templateFields(loop(2000), {});
		expect(lines.itemFields).toHaveLength(2000);
		expect(reason(loop(2001), {})).toBe(
			'the list "lines" has more than 2,000 fields, more than the field list shows',
		);
	});
});
