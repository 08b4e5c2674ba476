/**
 * Template Fields in the editor, on the real engine against the sandbox, whatever the
 * template: each hostile body or sample data (megabyte scale) answers with the fields or the
 * editor's one-line notice that says which bound it passed (the time each takes, against the
 * issue's 1 s, is measured by `npm run bench -- --only fields`, scripts/bench-fields.js). And
 * an empty list or object field shows no error before the user types, and a run sends it only
 * once the user fills it.
 */
import {
	NodeHelpers,
	type IDataObject,
	type INodeParameters,
	type ResourceMapperField,
} from 'n8n-workflow';

import { editorNode, loadPackage } from '../../../harness';
import { useSandbox } from '../../../harness/use-sandbox';
import type { Sandbox } from '../../../sandbox';
import { apiRequests, byId, run, sentPayloads } from '../helpers';
import {
	addTemplate as addNamedTemplate,
	fieldsOf as fieldsOfTemplate,
	templateFieldsCreate,
} from './helpers';
import { hostileBodies, hostileSamples, keys } from '../templateFields/pathological-templates';

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
			if (answer.fields.length === 0) expect(answer.emptyFieldsNotice).toEqual(expect.any(String));
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
			expect([field.id, lintError(jsonEditorText(value[field.id]))]).toEqual([field.id, undefined]);

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
		const issues = NodeHelpers.getNodeParametersIssues(description.properties, node, description);
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
