/**
 * The edges of Template Fields (templateFields/mapping.ts) that mutation testing found unpinned:
 * the fields the editor receives for a template and for the lines of its list (labels, types,
 * the JSON an empty list or object field starts with), and what a run sends or refuses for a
 * mapped value (left empty, typed, the refusal naming field and item); on the real engine
 * against the sandbox (the pure functions' unit tests are in mapping.test.ts).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../../../harness/use-sandbox';
import { apiRequests, byId, run, sentPayloads } from '../helpers';
import {
	addTemplate,
	fieldsOf,
	lineFieldsOf as lineFieldsOfTemplate,
	templateFieldsCreate,
} from '../methods/helpers';

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
			await refusal(mapped({ number: 'A-8', lines: '={{ $json.lines }}' }), [{ lines: { a: 1 } }]),
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
			description: 'Send this much data as one object: set Payload Mode to JSON, e.g. {{ $json }}',
		});
		const deep = Array.from({ length: 33 }, (_, i) => `level${i}`).join('.');
		expect(await refusal(mapped({ [deep]: 'x' }, 'defineBelow', []))).toEqual({
			message: `The template field "${deep.slice(0, 60)}…" is nested deeper than 32 levels (item 1)`,
			description:
				'Map the object at a higher level as one field (an object field takes JSON), or set Payload Mode to JSON',
		});
	});
});
