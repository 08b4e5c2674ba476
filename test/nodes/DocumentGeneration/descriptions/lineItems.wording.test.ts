/**
 * The words the editor shows on Create's Documents fields, as written: each field's label,
 * placeholder, help text and hint, each option's name and description, the rows' fields.
 * The package is loaded inside the test, not in a `beforeAll`: mutation testing counts a
 * property as reached only by a test that loads it itself.
 */
import type { INodeParameters, INodeProperties } from 'n8n-workflow';

import { displayedProperties, loadPackage, wordsOf } from '../../../harness';

const GROUPED: INodeParameters = { resource: 'document', operation: 'create', grouping: 'byKey' };

test('Documents: the labels, placeholders, help texts and option names the editor shows', async () => {
	const action = (await loadPackage()).nodeDescription('documentGeneration');
	const shown = (lineMode: string) =>
		displayedProperties(action, { ...GROUPED, lineMode }).map((p) => [p.name, p]);
	const byName = Object.fromEntries([
		...shown('json'),
		...shown('fields'),
		...shown('templateFields'),
	]) as Record<string, INodeProperties>;
	const words = (name: string) => wordsOf(byName[name]);

	expect(words('grouping')).toEqual({
		label: 'Documents',
		description:
			'How many documents the input items make: line items of an invoice or a statement come from many items',
		options: [
			{ label: 'One per Item', description: 'Each input item makes its own document' },
			{
				label: 'One for All Items',
				description:
					'All input items make one document: the first gives its data, each item adds a line',
			},
			{
				label: 'One per Group of Items',
				description:
					'Items with the same Group By value make one document together, each adding a line',
			},
		],
	});
	expect(words('groupKey')).toEqual({
		label: 'Group By',
		placeholder: 'e.g. {{ $json.order_id }}',
		description:
			'A value of each item: items with the same value make one document. Groups keep the order of their first items.',
	});
	expect(words('linesPath')).toEqual({
		label: 'Line Items Path',
		placeholder: 'e.g. lines or invoice.items',
		description:
			"Where the list of lines goes in the payload (dots make nested objects); it replaces whatever the first item's payload has there",
	});
	expect(words('lineMode')).toEqual({
		label: 'Line Mode',
		description: 'How each item gives its line',
		options: [
			{ label: 'JSON', description: 'Each line as one JSON object' },
			{ label: 'Fields', description: 'Each line as name/value rows' },
			{
				label: 'Template Fields',
				description:
					"The fields of the template's own list at the Line Items Path, typed from its sample data",
			},
		],
	});
	expect(words('line')).toEqual({
		label: 'Line (JSON)',
		description:
			'The line each item adds, as one JSON object; evaluated for every item of the group',
		hint: 'e.g. {{ { "description": $json.product, "qty": $json.qty, "price": $json.price } }}',
	});
	expect(words('lineFields')).toEqual({
		label: 'Line Fields',
		placeholder: 'Add Line Field',
		description:
			'The line each item adds, one value per row; evaluated for every item of the group',
		options: [
			{
				label: 'Field',
				fields: [
					{
						label: 'Name',
						placeholder: 'e.g. description',
						description: 'The variable name the template uses; dots make nested objects',
					},
					{
						label: 'Value',
						placeholder: 'e.g. {{ $json.product }}',
						description: 'The value; an expression may give a number, a list or an object',
					},
				],
			},
		],
	});
	expect(words('mappedLineFields')).toEqual({ label: 'Line Fields of the Template' });
});
