/**
 * What the editor shows of Create's Documents, Image Options and Files Into Payload, as n8n
 * loads the node: the names, values and defaults saved workflows rely on, the bounds and the
 * conditions that show each field, and a label and help text on every one (mutation testing
 * found them unpinned).
 */
import type {
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { displayedNames, displayedProperty, loadPackage } from '../../../harness';
import { LINE_MAPPER_TYPE_OPTIONS } from '../helpers';

// Loaded inside the one test below, not before it: mutation testing counts a field as reached
// only by the test during which the package loaded.
let action: INodeTypeDescription;

const CREATE: INodeParameters = { resource: 'document', operation: 'create' };
const shownNames = (values: INodeParameters) => displayedNames(action, { ...CREATE, ...values });

const one = (name: string, values: INodeParameters = {}): INodeProperties =>
	displayedProperty(action, { ...CREATE, ...values }, name);

const values = (p: INodeProperties) =>
	((p.options ?? []) as INodePropertyOptions[]).map((o) => o.value);

/** Every label and help text of a property, its options and its collection's fields. */
function expectWorded(p: INodeProperties | INodePropertyOptions | INodePropertyCollection): void {
	expect([p.name, 'displayName' in p ? p.displayName : p.name]).not.toContain('');
	if ('description' in p && p.description !== undefined) expect(p.description).not.toBe('');
	if ('placeholder' in p && p.placeholder !== undefined) expect(p.placeholder).not.toBe('');
	if ('hint' in p && p.hint !== undefined) expect(p.hint).not.toBe('');
	for (const option of ('options' in p ? p.options : undefined) ?? []) expectWorded(option);
	for (const field of ('values' in p ? p.values : undefined) ?? []) expectWorded(field);
}

/** Documents: one per item by default; Group By only per group; the line fields only grouped, by mode. */
function expectDocuments(): void {
	const grouping = one('grouping');
	expect([grouping.type, grouping.default, values(grouping)]).toEqual([
		'options',
		'perItem',
		['perItem', 'all', 'byKey'],
	]);
	const grouped = ['groupKey', 'linesPath', 'lineMode', 'line', 'lineFields', 'mappedLineFields'];
	expect(shownNames({ grouping: 'perItem' }).filter((n) => grouped.includes(n))).toEqual([]);
	expect(
		shownNames({ grouping: 'all', lineMode: 'json' }).filter((n) => grouped.includes(n)),
	).toEqual(['linesPath', 'lineMode', 'line']);
	expect(
		shownNames({ grouping: 'byKey', lineMode: 'fields' }).filter((n) => grouped.includes(n)),
	).toEqual(['groupKey', 'linesPath', 'lineMode', 'lineFields']);
	expect(
		shownNames({ grouping: 'all', lineMode: 'templateFields' }).filter((n) => grouped.includes(n)),
	).toEqual(['linesPath', 'lineMode', 'mappedLineFields']);

	const groupKey = one('groupKey', { grouping: 'byKey' });
	expect([groupKey.type, groupKey.default, groupKey.required]).toEqual(['string', '', true]);
	const linesPath = one('linesPath', { grouping: 'all' });
	expect([linesPath.type, linesPath.default, linesPath.required]).toEqual([
		'string',
		'lines',
		true,
	]);
	const lineMode = one('lineMode', { grouping: 'all' });
	expect([lineMode.default, values(lineMode)]).toEqual([
		'json',
		['json', 'fields', 'templateFields'],
	]);
	const line = one('line', { grouping: 'all', lineMode: 'json' });
	expect([line.type, line.default]).toEqual(['json', '={{ $json }}']);
	const mapper = one('mappedLineFields', { grouping: 'all', lineMode: 'templateFields' });
	expect([mapper.type, mapper.noDataExpression, mapper.required, mapper.default]).toEqual([
		'resourceMapper',
		true,
		true,
		{ mappingMode: 'defineBelow', value: null },
	]);
	expect(mapper.typeOptions).toEqual(LINE_MAPPER_TYPE_OPTIONS);
	const modeOf: Record<string, string> = {
		lineFields: 'fields',
		mappedLineFields: 'templateFields',
	};
	for (const name of ['grouping', ...grouped])
		expectWorded(one(name, { grouping: 'byKey', lineMode: modeOf[name] ?? 'json' }));
}

/** Image Options: format (webp by default), width and height up to 10000, quality 1 to 100. */
function expectImageOptions(): void {
	const options = one('imageOptions');
	expect([options.type, options.default]).toEqual(['collection', {}]);
	const fields = Object.fromEntries(
		((options.options ?? []) as INodeProperties[]).map((o) => [o.name, o]),
	);
	expect(Object.keys(fields)).toEqual(['format', 'width', 'height', 'quality']);
	expect([fields.format.type, fields.format.default, values(fields.format)]).toEqual([
		'options',
		'webp',
		['webp', 'png', 'jpg'],
	]);
	expect(
		['width', 'height', 'quality'].map((n) => [
			fields[n].type,
			fields[n].default,
			fields[n].typeOptions,
		]),
	).toEqual([
		['number', 1200, { minValue: 1, maxValue: 10_000 }],
		['number', 630, { minValue: 1, maxValue: 10_000 }],
		['number', 100, { minValue: 1, maxValue: 100 }],
	]);
	expectWorded(options);
}

/** Files Into Payload: rows of an input file (data by default) and the payload path it goes to. */
function expectFilesIntoPayload(): void {
	const files = one('payloadFiles');
	expect([files.type, files.default, files.typeOptions]).toEqual([
		'fixedCollection',
		{},
		{ multipleValues: true },
	]);
	const [row] = (files.options ?? []) as INodePropertyCollection[];
	expect(row.name).toBe('files');
	expect(row.values.map((v) => [v.name, v.type, v.default, v.required])).toEqual([
		['binaryPropertyName', 'string', 'data', true],
		['path', 'string', '', true],
	]);
	expectWorded(files);
}

test('Documents, Image Options and Files Into Payload as the editor shows them: names, values, defaults, bounds, when each shows, a label and help text on each', async () => {
	action = (await loadPackage()).nodeDescription('documentGeneration');
	expectDocuments();
	expectImageOptions();
	expectFilesIntoPayload();
});
