/**
 * What a Liquid body reads (templateFields/liquidReader.ts, variablesOf), and the reader in
 * bounded time and memory on hostile bodies of megabyte scale: the fields it can list, or a
 * `TemplateTooLarge` naming the bound passed. Their time is measured by `npm run bench -- --only
 * fields`, not asserted here. Pure.
 */
import {
	TEMPLATE_BOUNDS,
	TemplateTooLarge,
	variablesOf,
} from '../../../../nodes/DocumentGeneration/templateFields/liquidReader';
import {
	expectOutcome,
	hostileBodies,
	outcomeOf,
	REFUSED_AT_1MB,
	REFUSED_AT_500KB,
} from '../../../harness/pathologicalTemplates';

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

const MB = 1024 * 1024;

describe('the Liquid reader on hostile bodies of 1 MB', () => {
	test.each(Object.keys(hostileBodies))('%s', (name) => {
		const body = hostileBodies[name](MB);
		expect(body.length).toBeGreaterThan(MB * 0.9);
		const outcome = outcomeOf(() => variablesOf(body));
		// Either what it reads, or a refusal that names the bound: never another failure.
		expectOutcome(outcome, REFUSED_AT_1MB[name]);
	});

	test('the refusals expected are hostile bodies there are', () => {
		const names = Object.keys(hostileBodies);
		expect(names).toEqual(expect.arrayContaining(Object.keys(REFUSED_AT_500KB)));
		expect(names.length).toBeGreaterThan(Object.keys(REFUSED_AT_500KB).length);
	});

	test('what the hostile bodies still read is right', () => {
		const paths = (name: string) =>
			variablesOf(hostileBodies[name](64 * 1024)).map((variable) => variable.path);
		expect(paths('unclosed {{')).toEqual([]);
		expect(paths('unclosed {% if %} blocks, a value printed in each')).toEqual(['a']);
		expect(paths('a long word before a filter argument')).toEqual(['x', 'a'.repeat(64 * 1024)]);
		expect(paths('a long run of .. in a range')).toEqual([]);
		expect(paths('many references in one output')).toEqual(['a']);
		expect(paths('unmatched end tags inside open blocks')).toEqual(['b']);
		// Up to the bound, every variable is read.
		const variables = (count: number) =>
			Array.from({ length: count }, (_, i) => `{{ v${i} }}`).join('');
		expect(variablesOf(variables(TEMPLATE_BOUNDS.fields))).toHaveLength(TEMPLATE_BOUNDS.fields);
		expect(() => variablesOf(variables(TEMPLATE_BOUNDS.fields + 1))).toThrow(TemplateTooLarge);
	});

	test('beyond the bounds: a refusal naming the bound', () => {
		const refusal = (body: string) => {
			try {
				variablesOf(body);
			} catch (error) {
				return (error as TemplateTooLarge).reason;
			}
			return undefined;
		};
		expect(refusal(hostileBodies['thousands of variables'](MB))).toBe(
			'the template reads more than 2,000 fields, more than the field list shows',
		);
		expect(refusal(hostileBodies['loops nested ever deeper'](MB))).toMatch(
			/^"b\.b\.b\.b\.b\.b\.b\.b" is nested deeper than 32 levels$/,
		);
		const deepPath = `{{ ${Array.from({ length: 33 }, (_, i) => `p${i}`).join('.')} }}`;
		expect(refusal(deepPath)).toMatch(/is nested deeper than 32 levels/);
		const atDepth = `{{ ${Array.from({ length: 32 }, (_, i) => `p${i}`).join('.')} }}`;
		expect(refusal(atDepth)).toBeUndefined();
	});
});
