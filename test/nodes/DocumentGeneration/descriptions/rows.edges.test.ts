/**
 * The edges of Create's name/value rows (Payload Fields, Line Fields) that mutation testing
 * found unpinned: what the editor stores and shows of them, as n8n loads the node. The
 * package is loaded inside the test, not in a `beforeAll`: mutation testing counts a property
 * as reached only by a test that loads it itself.
 */
import type {
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodeTypeDescription,
} from 'n8n-workflow';

import { displayedNames, displayedProperty, loadPackage } from '../../../harness';

const CREATE: INodeParameters = { resource: 'document', operation: 'create' };
const PAYLOAD_FIELDS: INodeParameters = { payloadMode: 'fields' };
const LINE_FIELDS: INodeParameters = { grouping: 'byKey', lineMode: 'fields' };

function shownNames(action: INodeTypeDescription, values: INodeParameters): string[] {
	return displayedNames(action, { ...CREATE, ...values });
}

/** What a saved workflow relies on of a rows property: its kind, its row and the row's fields. */
function rowsShape(rows: INodeProperties) {
	const [row, ...others] = (rows.options ?? []) as INodePropertyCollection[];
	return {
		type: rows.type,
		default: rows.default,
		typeOptions: rows.typeOptions,
		rows: [row.name, others.length],
		fields: row.values.map((field) => [field.name, field.type, field.default]),
	};
}

test('Payload Fields and Line Fields: many sortable rows of a name and a value, each only in its mode', async () => {
	const action = (await loadPackage()).nodeDescription('documentGeneration');
	expect(shownNames(action, { payloadMode: 'json' })).not.toContain('payloadFields');
	expect(shownNames(action, { ...LINE_FIELDS, lineMode: 'json' })).not.toContain('lineFields');
	expect(shownNames(action, { grouping: 'perItem', lineMode: 'fields' })).not.toContain(
		'lineFields',
	);

	const payloadFields = displayedProperty(
		action,
		{ ...CREATE, ...PAYLOAD_FIELDS },
		'payloadFields',
	);
	const lineFields = displayedProperty(action, { ...CREATE, ...LINE_FIELDS }, 'lineFields');
	for (const rows of [payloadFields, lineFields]) {
		expect(rowsShape(rows)).toEqual({
			type: 'fixedCollection',
			default: {},
			typeOptions: { multipleValues: true, sortable: true },
			rows: ['values', 0],
			fields: [
				['key', 'string', ''],
				['value', 'string', ''],
			],
		});
	}
	expect(payloadFields.hint).toBe(
		'A dotted name such as customer.name builds nested data: {"customer": {"name": …}}',
	);
	expect(lineFields).not.toHaveProperty('hint');
});
