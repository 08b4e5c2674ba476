/** What a Liquid body reads (variablesOf), the fields made of it, and the payload mapped back. */
import { variablesOf } from '../../../../nodes/DocumentGeneration/templateFields/liquid';
import {
	payloadFromMapping,
	templateFields,
	typedValue,
	valueAtPath,
} from '../../../../nodes/DocumentGeneration/templateFields/mapping';

const paths = (body: string) => variablesOf(body).map((v) => v.path);

describe('variablesOf', () => {
	test('outputs, filters and their arguments, conditions, comparisons', () => {
		expect(
			paths(
				'{{ a.b | upcase }} {{ c | times: d.e | money: currency }} {% if f and g > 1 or h == "x" %}{% elsif i contains "y" %}{% endif %}',
			),
		).toEqual(['a.b', 'c', 'd.e', 'currency', 'f', 'g', 'h', 'i']);
	});

	test('literals, keywords and string contents are not variables', () => {
		expect(
			paths(
				'{{ "customer.name" | append: \'x.y\' }} {% if a == empty or b != blank or c == nil %}{% endif %} {{ 3 | plus: 4 }} {{ true }}',
			),
		).toEqual(['a', 'b', 'c']);
	});

	test('a loop: its collection is a list with the fields its items are read for; the loop variable and forloop are not fields', () => {
		const [lines] = variablesOf(
			'{% for line in lines reversed %}{{ forloop.index }} {{ line.description }} {{ line.price | times: line.qty }}{% endfor %}{{ line }}',
		);
		expect(lines).toMatchObject({
			path: 'lines',
			collection: true,
			itemFields: ['description', 'price', 'qty'],
		});
		// After endfor, `line` is a variable of the data again.
		expect(paths('{% for line in lines %}{% endfor %}{{ line.x }}')).toEqual(['lines', 'line.x']);
	});

	test('nested loops read their items through the outer item', () => {
		const [orders] = variablesOf(
			'{% for order in orders %}{% for item in order.items %}{{ item.sku }}{% endfor %}{% endfor %}',
		);
		expect(orders.itemFields).toEqual(['items', 'items.sku']);
	});

	test('assign, capture, increment and ranges make names that are not fields', () => {
		expect(
			paths(
				'{% assign total = price | times: qty %}{% capture greeting %}Hi {{ name }}{% endcapture %}{% increment n %}{{ total }}{{ greeting }}{% for i in (1..count) %}{{ i }}{% endfor %}',
			),
		).toEqual(['price', 'qty', 'name', 'count']);
	});

	test('printed without a default, with one, or not printed at all', () => {
		const found = Object.fromEntries(
			variablesOf('{{ a }} {{ b | default: "x" }} {% if c %}{% endif %} {{ d | default: e }}').map(
				(v) => [v.path, [v.printed, v.defaulted]],
			),
		);
		expect(found).toEqual({
			a: [true, false],
			b: [false, true],
			c: [false, false],
			d: [false, true],
			e: [false, false],
		});
	});

	test('comments, raw blocks and inline comments are skipped; the liquid tag and echo are read', () => {
		expect(
			paths(
				'{% comment %}{{ hidden }}{% endcomment %}{% raw %}{{ shown_as_text }}{% endraw %}{% # note %}{%- liquid\n  if flag\n    echo message\n  endif\n-%}',
			),
		).toEqual(['flag', 'message']);
	});

	test('indexes, bracket keys, first/last/size', () => {
		const found = variablesOf(
			'{{ lines[0].name }} {{ tags.first }} {{ meta["order id"] }} {{ items.size }}',
		);
		expect(found.map((v) => [v.path, v.collection, v.itemFields])).toEqual([
			['lines', true, ['name']],
			['tags', true, []],
			['meta.order id', false, []],
			['items', false, []],
		]);
	});

	test('render and include arguments are read, the snippet name is not', () => {
		expect(
			paths("{% render 'card', person: customer, title: 'x' %}{% include 'footer' with company %}"),
		).toEqual(['customer', 'company']);
	});

	test('a body without Liquid reads nothing', () => {
		expect(variablesOf('<p>Plain text { not liquid }</p>')).toEqual([]);
	});
});

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

describe('the payload from mapped values', () => {
	test('typedValue converts what it safely can and refuses the rest', () => {
		expect(typedValue('n', 'number', '4.5')).toBe(4.5);
		expect(typedValue('b', 'boolean', 'false')).toBe(false);
		expect(typedValue('o', 'object', '{"a": 1}')).toEqual({ a: 1 });
		expect(typedValue('s', 'string', 12)).toBe(12);
		expect(() => typedValue('n', 'number', '')).toThrow('The template field "n" must be a number');
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
