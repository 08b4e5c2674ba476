/**
 * What the editor shows of Create's Documents fields (Documents, Group By, Line Items Path,
 * Line Mode, Line (JSON), Line Fields, Line Fields of the Template), as n8n loads the node:
 * for which Documents and Line Mode each field shows, its kind, default and whether it is
 * required, the values saved workflows store. Their words are in lineItems.wording.test.ts.
 */
import type {
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { displayedProperties, loadPackage } from '../../../harness';
import { LINE_MAPPER_TYPE_OPTIONS } from '../helpers';

const CREATE: INodeParameters = { resource: 'document', operation: 'create' };
const GROUPINGS = ['perItem', 'all', 'byKey'];
const LINE_MODES = ['json', 'fields', 'templateFields'];
const FIELDS = [
	'grouping',
	'groupKey',
	'linesPath',
	'lineMode',
	'line',
	'lineFields',
	'mappedLineFields',
];

/** Each Documents and Line Mode setting, as "grouping lineMode", with the fields it shows. */
function fieldsBySetting(action: INodeTypeDescription): Array<[string, INodeProperties[]]> {
	return GROUPINGS.flatMap((grouping) =>
		LINE_MODES.map((lineMode): [string, INodeProperties[]] => [
			`${grouping} ${lineMode}`,
			displayedProperties(action, { ...CREATE, grouping, lineMode }).filter((p) =>
				FIELDS.includes(p.name),
			),
		]),
	);
}

/**
 * One test, which loads the package itself: the package is loaded once per file, and
 * mutation testing credits a property only to the test that loads it.
 */
test('Documents: where each field shows, its kind, default and stored values', async () => {
	const action = (await loadPackage()).nodeDescription('documentGeneration');
	const settings = fieldsBySetting(action);
	const whereShown = (name: string) =>
		settings.filter(([, shown]) => shown.some((p) => p.name === name)).map(([setting]) => setting);
	const byName = Object.fromEntries(settings.flatMap(([, shown]) => shown.map((p) => [p.name, p])));

	// Where each shows: Group By only per group; the lines' fields only grouped, by Line Mode.
	const everywhere = settings.map(([setting]) => setting);
	const grouped = everywhere.filter((setting) => !setting.startsWith('perItem'));
	const inMode = (mode: string) => grouped.filter((setting) => setting.endsWith(` ${mode}`));
	expect(FIELDS.map(whereShown)).toEqual([
		everywhere,
		['byKey json', 'byKey fields', 'byKey templateFields'],
		grouped,
		grouped,
		inMode('json'),
		inMode('fields'),
		inMode('templateFields'),
	]);

	// Kind, default, required.
	expect(
		FIELDS.map((name) => [name, byName[name].type, byName[name].default, !!byName[name].required]),
	).toEqual([
		['grouping', 'options', 'perItem', false],
		['groupKey', 'string', '', true],
		['linesPath', 'string', 'lines', true],
		['lineMode', 'options', 'json', false],
		['line', 'json', '={{ $json }}', false],
		['lineFields', 'fixedCollection', {}, false],
		['mappedLineFields', 'resourceMapper', { mappingMode: 'defineBelow', value: null }, true],
	]);

	// The values a saved workflow stores.
	const optionValues = (name: string) =>
		(byName[name].options as INodePropertyOptions[]).map((o) => o.value);
	expect(optionValues('grouping')).toEqual(['perItem', 'all', 'byKey']);
	expect(optionValues('lineMode')).toEqual(['json', 'fields', 'templateFields']);

	// Line Fields of the Template: the template's line fields at the Line Items Path, fixed.
	const mapper = byName.mappedLineFields;
	expect(mapper.noDataExpression).toBe(true);
	expect(mapper.typeOptions).toEqual(LINE_MAPPER_TYPE_OPTIONS);
});
