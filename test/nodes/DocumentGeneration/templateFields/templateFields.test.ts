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
