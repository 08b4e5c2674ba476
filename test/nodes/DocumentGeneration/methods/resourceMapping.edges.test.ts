/**
 * The edges of Create's Template Fields and Line Fields of the Template in the editor
 * (methods/resourceMapping.ts) that mutation testing found unpinned: the picked template as
 * the editor may send it (a plain ID, only spaces, text that is no ID), a template whose draft
 * differs from its published version or that was never published, and each notice the Line
 * Fields mapper shows, word for word; on the real engine against the sandbox.
 */
import type { Sandbox } from '../../../sandbox';
import { useSandbox } from '../../../harness/use-sandbox';
import { byId, templateId } from '../helpers';
import { addTemplate, fieldsOf, lineFieldsOf } from './helpers';

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
