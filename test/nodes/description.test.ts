/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * What the editor shows and stores, as n8n loads it: the built package through n8n-core's
 * PackageDirectoryLoader (harness `loadPackage`). The public contract (docs/spec/node-contract.md:
 * node, parameter and option names, types, defaults), the AI-tool flag, the codex (node
 * panel categories, search aliases, doc links) and the light and dark icons.
 * Needs `npm run build` first.
 */
import * as fs from 'fs';

import {
	NodeHelpers,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE, displayedProperties, loadPackage, type LoadedPackage } from '../harness';
import { displayedProperty, editorNode } from '../harness/editor';

const PACKAGE = 'n8n-nodes-document-generation';
const NODE = 'documentGeneration';
const TRIGGER = 'documentGenerationTrigger';
const REPO = 'https://github.com/n8n-nodes-document-generation/n8n-nodes-document-generation';

let pkg: LoadedPackage;
let action: INodeTypeDescription;
let trigger: INodeTypeDescription;

beforeAll(async () => {
	pkg = await loadPackage();
	action = pkg.nodeDescription(NODE);
	trigger = pkg.nodeDescription(TRIGGER);
});

// ---------------------------------------------------------------------------------------
// Contract helpers: which property the editor shows for given parameter values
// ---------------------------------------------------------------------------------------

/** The properties named `name` the editor displays when the node's values are `values`. */
function shown(
	description: INodeTypeDescription,
	values: INodeParameters,
	name: string,
): INodeProperties[] {
	return displayedProperties(description, values).filter((p) => p.name === name);
}

/** An options parameter: its values in order, and its default where one is given. */
function expectOptions(property: INodeProperties, values: string[], defaultValue?: string): void {
	expect(property.type).toBe('options');
	if (defaultValue !== undefined) expect(property.default).toBe(defaultValue);
	expect(optionValues(property)).toEqual(values);
}

const optionValues = (p: INodeProperties | undefined) =>
	((p?.options ?? []) as INodePropertyOptions[]).map((o) => o.value).sort();

function child(collection: INodeProperties, name: string): INodeProperties {
	const found = (collection.options ?? []).filter(
		(o) => (o as INodeProperties).name === name,
	) as INodeProperties[];
	if (found.length !== 1)
		throw new Error(`expected one "${name}" in ${collection.name}, found ${found.length}`);
	return found[0];
}

function expectLocator(p: INodeProperties) {
	expect(p.type).toBe('resourceLocator');
	const modes = p.modes ?? [];
	expect(modes.map((m) => m.name).sort()).toEqual(['id', 'list']);
	expect(p.default).toMatchObject({ mode: 'list' });
	expect(modes.find((m) => m.name === 'list')?.typeOptions?.searchListMethod).toBeTruthy();
	// The id mode validates a UUID (the editor shows the error message under the field).
	const validation = modes.find((m) => m.name === 'id')?.validation ?? [];
	const regexes = validation.flatMap((v) =>
		typeof v === 'object' && v.type === 'regex'
			? [new RegExp((v.properties as { regex: string }).regex)]
			: [],
	);
	expect(regexes.length).toBeGreaterThan(0);
	for (const re of regexes) {
		expect(re.test('1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d')).toBe(true);
		expect(re.test('1B2C3D4E-5F60-4A7B-8C9D-0E1F2A3B4C5D')).toBe(true);
		expect(re.test('invoice')).toBe(false);
		expect(re.test('1b2c3d4e-5f60-4a7b-8c9d')).toBe(false);
	}
}

// ---------------------------------------------------------------------------------------
// The contract (docs/spec/node-contract.md)
// ---------------------------------------------------------------------------------------

describe('contract: node types', () => {
	test('both nodes, version 1, under the names workflows store', () => {
		expect(pkg.packageName).toBe(PACKAGE);
		expect(pkg.fullName(NODE)).toBe(`${PACKAGE}.documentGeneration`);
		expect(pkg.fullName(TRIGGER)).toBe(`${PACKAGE}.documentGenerationTrigger`);
		expect(action.name).toBe(NODE);
		expect(trigger.name).toBe(TRIGGER);
		expect(action.version).toBe(1);
		expect(trigger.version).toBe(1);
		expect(trigger.polling).toBe(true);
		expect(action.credentials?.map((c) => c.name)).toEqual([CREDENTIAL_TYPE]);
		expect(trigger.credentials?.map((c) => c.name)).toEqual([CREDENTIAL_TYPE]);
	});

	test('credential documentGenerationApi: apiKey (password) and baseUrl with its default', () => {
		const props = pkg.credentialProperties(CREDENTIAL_TYPE);
		const apiKey = props.find((p) => p.name === 'apiKey');
		const baseUrl = props.find((p) => p.name === 'baseUrl');
		expect(apiKey?.type).toBe('string');
		expect(apiKey?.typeOptions?.password).toBe(true);
		expect(baseUrl?.type).toBe('string');
		expect(baseUrl?.default).toBe('https://api.pdfmonkey.io');
	});
});

describe('contract: action node parameters', () => {
	const doc = (operation: string, extra: INodeParameters = {}): INodeParameters => ({
		resource: 'document',
		operation,
		...extra,
	});

	test('resource and operation option values and defaults', () => {
		const resources = ['account', 'document', 'snippet', 'template', 'templateFolder'];
		expectOptions(displayedProperty(action, {}, 'resource'), resources, 'document');

		const documentOps = ['create', 'delete', 'download', 'get', 'getAll', 'update'];
		expectOptions(
			displayedProperty(action, { resource: 'document' }, 'operation'),
			documentOps,
			'create',
		);

		const accountOps = displayedProperty(action, { resource: 'account' }, 'operation');
		expect(optionValues(accountOps)).toEqual(['get']);
	});

	test.each(['get', 'update', 'delete', 'download'])(
		'documentId: resource locator (list, id) for %s',
		(op) => {
			expectLocator(displayedProperty(action, doc(op), 'documentId'));
		},
	);

	test('documentId is not shown where the contract does not use it', () => {
		for (const op of ['create', 'getAll'])
			expect(shown(action, doc(op), 'documentId')).toHaveLength(0);
	});

	/** Wait, download, file field and wait timeout: shown alike by create and update. */
	function expectGenerationParameters(values: INodeParameters, downloadDefault: boolean): void {
		const wait = displayedProperty(action, values, 'waitForCompletion');
		expect([wait.type, wait.default]).toEqual(['boolean', true]);
		const download = displayedProperty(action, values, 'download');
		expect([download.type, download.default]).toEqual(['boolean', downloadDefault]);
		const binary = displayedProperty(action, values, 'binaryPropertyName');
		expect([binary.type, binary.default]).toEqual(['string', 'data']);
		const waitTimeout = child(displayedProperty(action, values, 'options'), 'waitTimeout');
		expect([waitTimeout.type, waitTimeout.default]).toEqual(['number', 300]);
	}

	test('create: templateId, payload, status, waitForCompletion, download, binaryPropertyName, additionalFields, options', () => {
		const values = doc('create', {
			status: 'pending',
			waitForCompletion: true,
			download: true,
			payloadMode: 'json',
		});
		expectLocator(displayedProperty(action, values, 'templateId'));
		expect(displayedProperty(action, values, 'payload').type).toBe('json');
		expect(shown(action, values, 'payloadFields')).toHaveLength(0);

		const mode = displayedProperty(action, values, 'payloadMode');
		expect([mode.type, mode.default, optionValues(mode)]).toEqual([
			'options',
			'json',
			['fields', 'json', 'templateFields'],
		]);
		expect(shown(action, values, 'mappedFields')).toHaveLength(0);
		const mapper = displayedProperty(
			action,
			{ ...values, payloadMode: 'templateFields' },
			'mappedFields',
		);
		expect([mapper.type, mapper.typeOptions?.loadOptionsDependsOn]).toEqual([
			'resourceMapper',
			['templateId.value'],
		]);
		expect(mapper.typeOptions?.resourceMapper).toMatchObject({
			resourceMapperMethod: 'getTemplateFields',
			mode: 'add',
			supportAutoMap: true,
		});
		const fieldsValues = { ...values, payloadMode: 'fields' };
		expect(shown(action, fieldsValues, 'payload')).toHaveLength(0);
		const rows = displayedProperty(action, fieldsValues, 'payloadFields');
		expect(rows.type).toBe('fixedCollection');
		const row = (rows.options as Array<{ name: string; values: INodeProperties[] }>).find(
			(o) => o.name === 'values',
		)!;
		expect(row.values.map((v) => v.name)).toEqual(['key', 'value']);

		expectOptions(displayedProperty(action, values, 'status'), ['draft', 'pending'], 'pending');

		const additional = displayedProperty(action, values, 'additionalFields');
		expect(additional.type).toBe('collection');
		expect(child(additional, 'meta').type).toBe('json');
		expect(child(additional, 'filename').type).toBe('string');

		// Running again safely: a key per item, how far back to look, what to do on other data.
		const options = displayedProperty(action, values, 'options');
		expect(child(options, 'uniqueKey').type).toBe('string');
		expect([child(options, 'reuseWindow').type, child(options, 'reuseWindow').default]).toEqual([
			'number',
			24,
		]);
		const conflict = child(options, 'keyConflict');
		expect([conflict.default, optionValues(conflict)]).toEqual(['fail', ['fail', 'regenerate']]);

		expectGenerationParameters(values, true);
	});

	test('update: updateFields (templateId, payload, meta, filename, status), wait/download/binary, options.waitTimeout', () => {
		const values = doc('update', { waitForCompletion: true, download: true });
		const update = displayedProperty(action, values, 'updateFields');
		expect(update.type).toBe('collection');
		expectLocator(child(update, 'templateId'));
		expect(child(update, 'payload').type).toBe('json');
		expect(child(update, 'meta').type).toBe('json');
		expect(child(update, 'filename').type).toBe('string');
		expectOptions(child(update, 'status'), ['draft', 'pending']);

		expectGenerationParameters(values, false);
	});

	test('download: documentId and binaryPropertyName', () => {
		const binary = displayedProperty(action, doc('download'), 'binaryPropertyName');
		expect([binary.type, binary.default]).toEqual(['string', 'data']);
	});

	test('get: options.includePayload', () => {
		const include = child(displayedProperty(action, doc('get'), 'options'), 'includePayload');
		expect([include.type, include.default]).toEqual(['boolean', false]);
	});

	test('getAll: returnAll, limit and filters (templateIds, status, workspaceId, updatedSince)', () => {
		const values = doc('getAll', { returnAll: false });
		const returnAll = displayedProperty(action, values, 'returnAll');
		expect([returnAll.type, returnAll.default]).toEqual(['boolean', false]);
		const limit = displayedProperty(action, values, 'limit');
		expect([limit.type, limit.default]).toEqual(['number', 50]);

		const filters = displayedProperty(action, values, 'filters');
		expect(filters.type).toBe('collection');
		const templateIds = child(filters, 'templateIds');
		expect(templateIds.type).toBe('multiOptions');
		expect(templateIds.typeOptions?.loadOptionsMethod).toBe('getTemplates');
		expect(templateIds.typeOptions?.loadOptionsDependsOn).toEqual(['filters.workspaceId']);
		expectOptions(child(filters, 'status'), ['draft', 'failure', 'success']);
		const workspace = child(filters, 'workspaceId');
		expect(workspace.typeOptions?.loadOptionsMethod).toBe('getWorkspaces');
		expect(child(filters, 'updatedSince').type).toBe('dateTime');
	});

	test('account get has no document parameters', () => {
		for (const name of ['documentId', 'templateId', 'payload', 'filters']) {
			expect(shown(action, { resource: 'account', operation: 'get' }, name)).toHaveLength(0);
		}
	});
});

describe('contract: trigger parameters', () => {
	test('events, filters (templateIds, workspaceId), download, binaryPropertyName', () => {
		const events = displayedProperty(trigger, {}, 'events');
		expect(events.type).toBe('multiOptions');
		expect(events.default).toEqual(['success']);
		expect(optionValues(events)).toEqual(['failure', 'success']);

		const filters = displayedProperty(trigger, {}, 'filters');
		expect(filters.type).toBe('collection');
		const templateIds = child(filters, 'templateIds');
		expect(templateIds.type).toBe('multiOptions');
		expect(templateIds.typeOptions?.loadOptionsMethod).toBe('getTemplates');
		expect(templateIds.typeOptions?.loadOptionsDependsOn).toEqual(['filters.workspaceId']);
		expect(child(filters, 'workspaceId').typeOptions?.loadOptionsMethod).toBe('getWorkspaces');

		const download = displayedProperty(trigger, {}, 'download');
		expect([download.type, download.default]).toEqual(['boolean', false]);
		const binary = displayedProperty(trigger, { download: true }, 'binaryPropertyName');
		expect([binary.type, binary.default]).toEqual(['string', 'data']);
	});

	test('the list methods the trigger names exist on it', () => {
		const type = pkg.nodeTypes.getByNameAndVersion(TRIGGER, 1);
		expect(typeof type.methods?.loadOptions?.getTemplates).toBe('function');
		expect(typeof type.methods?.loadOptions?.getWorkspaces).toBe('function');
	});
});

describe('every list method a parameter names is implemented', () => {
	function named(
		properties: INodeProperties[],
		out = { loadOptions: new Set<string>(), listSearch: new Set<string>() },
	) {
		for (const p of properties) {
			if (p.typeOptions?.loadOptionsMethod) out.loadOptions.add(p.typeOptions.loadOptionsMethod);
			for (const mode of p.modes ?? []) {
				if (mode.typeOptions?.searchListMethod)
					out.listSearch.add(mode.typeOptions.searchListMethod);
			}
			const nested = (p.options ?? []).filter(
				(o): o is INodeProperties => 'type' in o && 'name' in o,
			);
			named(nested, out);
		}
		return out;
	}

	test.each([[NODE], [TRIGGER]])('%s', (name) => {
		const type = pkg.nodeTypes.getByNameAndVersion(name, 1);
		const { loadOptions, listSearch } = named(type.description.properties);
		for (const method of loadOptions)
			expect(typeof type.methods?.loadOptions?.[method]).toBe('function');
		for (const method of listSearch)
			expect(typeof type.methods?.listSearch?.[method]).toBe('function');
		expect(loadOptions.size + listSearch.size).toBeGreaterThan(0);
	});
});

// ---------------------------------------------------------------------------------------
// AI tool
// ---------------------------------------------------------------------------------------

describe('AI agent tool', () => {
	test('usableAsTool on the action node only', () => {
		expect(action.usableAsTool).toBe(true);
		expect(trigger.usableAsTool).toBeFalsy();
	});

	test('each operation gives the tool a description that says what it does (n8n "Set Automatically")', () => {
		const type = pkg.nodeTypes.getByNameAndVersion(NODE, 1);
		const describeTool = (resource: string, operation: string) => {
			const parameters = { resource, operation, descriptionType: 'auto' };
			const node = editorNode(pkg, NODE, parameters, { name: 'Document Generation' });
			return NodeHelpers.getToolDescriptionForNode(node, type);
		};
		expect(describeTool('document', 'create')).toBe(
			'Create a PDF document from a template in PDFMonkey',
		);
		expect(describeTool('document', 'update')).toBe(
			'Update a document or generate it again in PDFMonkey',
		);
		expect(describeTool('account', 'get')).toBe(
			'Get the account and its remaining document quota in PDFMonkey',
		);
		const operations = optionValues(
			displayedProperty(action, { resource: 'document' }, 'operation'),
		) as string[];
		for (const operation of operations) {
			const text = describeTool('document', operation);
			// An `action` exists: otherwise n8n falls back to "<operation> document in …".
			expect(text).not.toMatch(new RegExp(`^${operation} document`));
			expect(text).toMatch(/document/i);
		}
	});
});

// ---------------------------------------------------------------------------------------
// Codex and icons
// ---------------------------------------------------------------------------------------

describe('node panel: codex', () => {
	test.each([
		[NODE, `${REPO}#readme`],
		[TRIGGER, `${REPO}#trigger`],
	])('%s: categories, aliases and documentation links', (name, primary) => {
		const codex = pkg.nodeDescription(name).codex;
		expect(codex?.categories).toEqual(expect.arrayContaining(['Productivity']));
		const aliases = (codex?.alias ?? []).map((a) => a.toLowerCase());
		expect(aliases).toEqual(
			expect.arrayContaining(['pdf', 'pdfmonkey', 'invoice', 'template', 'document']),
		);
		expect(codex?.resources?.primaryDocumentation?.map((d) => d.url)).toEqual([primary]);
		expect(codex?.resources?.credentialDocumentation?.map((d) => d.url)).toEqual([
			`${REPO}#credentials`,
		]);
	});

	test('the documentation links point at the package repository named in package.json', () => {
		const manifest = JSON.parse(fs.readFileSync(`${pkg.dir}/package.json`, 'utf8')) as {
			homepage: string;
		};
		expect(manifest.homepage.startsWith(REPO)).toBe(true);
		expect(pkg.credentialType(CREDENTIAL_TYPE).documentationUrl).toBe(`${REPO}#credentials`);
	});
});

describe('icons (light and dark)', () => {
	const iconsOf = () => ({
		[NODE]: action.iconUrl,
		[TRIGGER]: trigger.iconUrl,
		[CREDENTIAL_TYPE]: pkg.credentialType(CREDENTIAL_TYPE).iconUrl,
	});

	test('every node and the credential has a light and a dark icon file, and they differ', () => {
		for (const [owner, iconUrl] of Object.entries(iconsOf())) {
			expect({ owner, isPair: typeof iconUrl === 'object' && iconUrl !== null }).toEqual({
				owner,
				isPair: true,
			});
			const [light, dark] = pkg.iconFiles(iconUrl);
			expect(light).toMatch(/documentGeneration\.svg$/);
			expect(dark).toMatch(/documentGeneration\.dark\.svg$/);
			expect(fs.existsSync(light) && fs.existsSync(dark)).toBe(true);
			expect(fs.readFileSync(light, 'utf8')).not.toBe(fs.readFileSync(dark, 'utf8'));
		}
	});

	test('the SVGs are square, self-contained and do not depend on fonts', () => {
		const [light, dark] = pkg.iconFiles(action.iconUrl);
		for (const file of [light, dark]) {
			const svg = fs.readFileSync(file, 'utf8');
			expect(svg).toMatch(/^<svg\s[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
			const viewBox = /viewBox="0 0 (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)"/.exec(svg);
			expect(viewBox?.[1]).toBe(viewBox?.[2]);
			// Text would render in whatever font the browser has; letters are drawn as paths.
			expect(svg).not.toMatch(/<text[\s>]/);
			expect(svg).not.toMatch(/<script|<image|href="http|url\(http/i);
			expect(svg.trim().endsWith('</svg>')).toBe(true);
		}
	});
});
