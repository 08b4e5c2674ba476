/**
 * What the editor shows for the workspace's library (snippets, template folders) and the
 * template's PDF engine and folder, as n8n loads the built package: the new resource values
 * beside the contract's, their operations, the ID locators (list and UUID-checked ID modes)
 * and where each parameter appears. Needs `npm run build` first.
 */
import type {
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { displayedProperties, loadPackage } from '../../../harness';

let action: INodeTypeDescription;

beforeAll(async () => {
	action = (await loadPackage()).nodeDescription('documentGeneration');
});

const shown = (values: INodeParameters, name: string): INodeProperties[] =>
	displayedProperties(action, values).filter((p) => p.name === name);

const values = (p: INodeProperties) =>
	((p.options ?? []) as INodePropertyOptions[]).map((o) => o.value);

const OPERATIONS = ['create', 'delete', 'get', 'getAll', 'update'];

describe.each([
	['snippet', 'snippetId', 'searchSnippets'],
	['templateFolder', 'templateFolderId', 'searchTemplateFolders'],
])('resource %s', (resource, locator, searchListMethod) => {
	test('its operations, Get Many first by default', () => {
		const [operation] = shown({ resource }, 'operation');
		expect(values(operation)).toEqual(OPERATIONS);
		expect(operation.default).toBe('getAll');
	});

	test.each(['get', 'update', 'delete'])(`${locator}: list and ID modes for %s`, (operation) => {
		const [p] = shown({ resource, operation }, locator);
		expect(p.type).toBe('resourceLocator');
		expect(p.modes!.map((m) => m.name).sort()).toEqual(['id', 'list']);
		const list = p.modes!.find((m) => m.name === 'list')!;
		expect(list.typeOptions).toMatchObject({ searchListMethod, searchable: true });
		const id = p.modes!.find((m) => m.name === 'id')!;
		const regex = new RegExp(
			(id.validation![0] as unknown as { properties: { regex: string } }).properties.regex,
		);
		expect(regex.test('1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d')).toBe(true);
		expect(regex.test('company-footer')).toBe(false);
	});

	test('create and Get Many take a workspace; the others do not', () => {
		for (const operation of ['create', 'getAll'])
			expect(shown({ resource, operation }, 'workspaceId')).toHaveLength(1);
		for (const operation of ['get', 'update', 'delete'])
			expect(shown({ resource, operation }, 'workspaceId')).toHaveLength(0);
		expect(shown({ resource, operation: 'getAll' }, 'returnAll')).toHaveLength(1);
	});
});

test('a snippet is created from a name and code, updated from Update Fields', () => {
	const create = { resource: 'snippet', operation: 'create' };
	expect(shown(create, 'identifier')[0]).toMatchObject({ type: 'string', required: true });
	expect(shown(create, 'code')[0]).toMatchObject({ type: 'string', required: true });
	const [fields] = shown({ resource: 'snippet', operation: 'update' }, 'snippetFields');
	expect((fields.options as INodeProperties[]).map((o) => o.name).sort()).toEqual([
		'code',
		'identifier',
	]);
});

test.each(['create', 'update'])(
	'template %s: Template Fields offer the PDF engine and the folder, from lists',
	(operation) => {
		const [fields] = shown({ resource: 'template', operation }, 'templateFields');
		const options = fields.options as INodeProperties[];
		expect(options.find((o) => o.name === 'pdfEngineId')).toMatchObject({
			type: 'options',
			default: '',
			typeOptions: { loadOptionsMethod: 'getPdfEngines' },
		});
		expect(options.find((o) => o.name === 'folderId')).toMatchObject({
			type: 'options',
			default: '',
			typeOptions: { loadOptionsMethod: 'getTemplateFolders' },
		});
		// The contract's fields are still there.
		for (const name of ['identifier', 'body', 'styles', 'sampleData', 'outputType'])
			expect(options.some((o) => o.name === name)).toBe(true);
	},
);
