/**
 * What the editor shows of Create's payload fields (Payload Mode, Payload (JSON), Payload
 * Fields, Template Fields), as n8n loads the node: their names, kinds and defaults saved
 * workflows rely on, the mode that shows each, and the words a user reads on each.
 */
import type { INodeParameters, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { displayedNames, displayedProperty, loadPackage, wordsOf } from '../../../harness';

const CREATE: INodeParameters = { resource: 'document', operation: 'create' };
const MODES = ['json', 'fields', 'templateFields'];
const MODE_FIELDS = ['payload', 'payloadFields', 'mappedFields'];

/**
 * One test, which loads the package itself: the package is loaded once per file, and
 * mutation testing credits a property only to the test that loads it.
 */
test("Create's payload fields: kinds, defaults, the mode that shows each, and every word a user reads", async () => {
	const action = (await loadPackage()).nodeDescription('documentGeneration');
	const shownIn = (payloadMode: string, name: string): INodeProperties =>
		displayedProperty(action, { ...CREATE, payloadMode }, name);
	const shownFields = (payloadMode: string) =>
		displayedNames(action, { ...CREATE, payloadMode }).filter((name) => MODE_FIELDS.includes(name));

	// Payload Mode: JSON by default; JSON, Fields and Template Fields to choose from.
	const mode = displayedProperty(action, CREATE, 'payloadMode');
	expect([mode.type, mode.default]).toEqual(['options', 'json']);
	expect((mode.options as INodePropertyOptions[]).map((o) => [o.name, o.value])).toEqual([
		['JSON', 'json'],
		['Fields', 'fields'],
		['Template Fields', 'templateFields'],
	]);

	// Each mode shows its own field and hides the other two.
	expect(MODES.map(shownFields)).toEqual([['payload'], ['payloadFields'], ['mappedFields']]);

	// Payload (JSON): a JSON field holding an empty object by default.
	const payload = shownIn('json', 'payload');
	expect([payload.type, payload.default]).toEqual(['json', '{}']);

	// Template Fields: a required resource mapper of the picked template, defined below.
	const mapper = shownIn('templateFields', 'mappedFields');
	expect([mapper.type, mapper.required, mapper.noDataExpression]).toEqual([
		'resourceMapper',
		true,
		true,
	]);
	expect(mapper.default).toEqual({ mappingMode: 'defineBelow', value: null });
	expect(mapper.typeOptions).toEqual({
		loadOptionsDependsOn: ['templateId.value'],
		resourceMapper: {
			resourceMapperMethod: 'getTemplateFields',
			mode: 'add',
			valuesLabel: 'Fields of the Template',
			fieldWords: { singular: 'field', plural: 'fields' },
			addAllFields: true,
			multiKeyMatch: false,
			supportAutoMap: true,
		},
	});

	// The words: labels, help texts, hints, each mode named and described, the rows' examples.
	expect(wordsOf(mode)).toEqual({
		label: 'Payload Mode',
		description: 'How to give the data the template is filled with',
		options: [
			{
				label: 'JSON',
				description: 'Write the data as one JSON object, or map it from the previous node',
			},
			{ label: 'Fields', description: 'Enter the data as name/value rows, without writing JSON' },
			{
				label: 'Template Fields',
				description:
					"Map data onto the fields the picked template prints, listed from the template's own body and sample data",
			},
		],
	});
	expect(wordsOf(payload)).toEqual({
		label: 'Payload (JSON)',
		description:
			'The data to fill the template with: one JSON object (never a list) whose keys are the variables the template uses',
		hint: 'To send the previous node’s data as it is, use {{ $json }}; for one of its fields, {{ $json.invoice }}',
	});
	expect(wordsOf(shownIn('fields', 'payloadFields'))).toEqual({
		label: 'Payload Fields',
		placeholder: 'Add Field',
		description: 'The data to fill the template with, one variable per row',
		hint: 'A dotted name such as customer.name builds nested data: {"customer": {"name": …}}',
		options: [
			{
				label: 'Field',
				fields: [
					{
						label: 'Name',
						placeholder: 'e.g. customer.name',
						description: 'The variable name the template uses; dots make nested objects',
					},
					{
						label: 'Value',
						placeholder: 'e.g. Ada Lovelace',
						description: 'The value; an expression may give a number, a list or an object',
					},
				],
			},
		],
	});
	expect(wordsOf(mapper)).toEqual({
		label: 'Template Fields',
		hint: 'Fields marked optional have a default in the template or only decide what it shows; every other field is printed as given, and left empty it prints blank',
	});
});
