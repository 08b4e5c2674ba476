/**
 * Create's Template Fields, on the real engine against the sandbox: the resource mapper's
 * field list of a template (what its Liquid body reads, typed from its sample data), what the
 * editor says when it cannot list them, and a run that sends the mapped values as the nested,
 * typed payload the template reads (or refuses them, naming field and item, sending nothing).
 */
import type { IDataObject, ResourceMapperField } from 'n8n-workflow';

import { useSandbox } from '../../../harness/use-sandbox';
import { apiRequests, byId, run, sentPayloads, templateId } from '../helpers';
import { addTemplate, fieldsOf as fieldsOfTemplate, templateFieldsCreate } from './helpers';

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
		const id = addTemplate(sb, 'with-snippet', "{% include 'letterhead' %}<p>{{ body_text }}</p>", {
			letterhead: { company: 'Acme', address: { city: 'Bristol' } },
			body_text: 'Hello',
			tags: ['a', 'b'],
		});
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
	const mapped = (value: IDataObject | null, schema: IDataObject[], mappingMode = 'defineBelow') =>
		templateFieldsCreate(sb, value, schema, mappingMode);
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
			{ number: 'N-1', customer: { name: 'Grace', email: 'g@example.com' }, total: 7, other: 'x' },
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
