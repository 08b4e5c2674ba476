/**
 * What a new user sees when adding the nodes, as n8n loads them: no parameter warns on its
 * default (an options value missing from its list is marked "not supported" by the editor),
 * Document and Create come first, short default names, readable subtitles, and the node panel
 * finds the nodes by the words users type. Needs `npm run build` first.
 */
import {
	NodeHelpers,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeTypeDescription,
} from 'n8n-workflow';

import {
	credentialsFor,
	displayedProperties,
	loadOptions,
	loadPackage,
	subtitleOf,
	type LoadedPackage,
} from '../harness';
import { startSandbox, type Sandbox } from '../sandbox';

const NODES = [
	'documentGeneration',
	'documentGenerationTrigger',
	'documentGenerationWebhookTrigger',
];

let pkg: LoadedPackage;
let sb: Sandbox;

beforeAll(async () => {
	pkg = await loadPackage();
	sb = await startSandbox({ seed: 7 });
});

afterAll(async () => {
	await sb.close();
});

/** Every resource/operation pair of a node (one empty pair for nodes without them). */
function combinations(description: INodeTypeDescription): INodeParameters[] {
	const resource = description.properties.find((p) => p.name === 'resource');
	if (!resource) return [{}];
	const out: INodeParameters[] = [];
	for (const r of resource.options as INodePropertyOptions[]) {
		for (const op of displayedProperties(description, { resource: r.value }).filter(
			(p) => p.name === 'operation',
		)) {
			for (const o of op.options as INodePropertyOptions[])
				out.push({ resource: r.value, operation: o.value });
		}
	}
	return out;
}

/** The node's parameters as the editor fills them when the node is added (defaults). */
function defaultsFor(description: INodeTypeDescription, chosen: INodeParameters): INodeParameters {
	const node = { typeVersion: 1 } as INode;
	return NodeHelpers.getNodeParameters(
		description.properties,
		chosen,
		true,
		false,
		node,
		description,
	)!;
}

/** The parameters shown for those values, and the options of their collections as added. */
function shownWithChildren(description: INodeTypeDescription, values: INodeParameters) {
	const shown = displayedProperties(description, values);
	const out: Array<{ property: INodeProperties; path: string }> = [];
	for (const p of shown) {
		out.push({ property: p, path: p.name });
		if (p.type === 'collection') {
			for (const child of (p.options ?? []) as INodeProperties[])
				out.push({ property: child, path: `${p.name}.${child.name}` });
		}
	}
	return out;
}

describe('no parameter warns on its default, in any resource and operation', () => {
	test.each(NODES)('%s', async (name) => {
		const description = pkg.nodeDescription(name);
		const checked: string[] = [];
		for (const chosen of combinations(description)) {
			const values = defaultsFor(description, chosen);
			for (const { property, path } of shownWithChildren(description, values)) {
				if (property.type !== 'options' && property.type !== 'multiOptions') continue;
				const method = property.typeOptions?.loadOptionsMethod;
				const listed = method
					? await loadOptions(method, {
							nodeType: name,
							credentials: credentialsFor(sb),
							parameters: values,
						})
					: ((property.options ?? []) as INodePropertyOptions[]);
				const allowed = listed.map((o) => o.value);
				const defaults = Array.isArray(property.default) ? property.default : [property.default];
				for (const value of defaults) {
					expect({ path, chosen, value, allowed: allowed.includes(value as string) }).toEqual({
						path,
						chosen,
						value,
						allowed: true,
					});
				}
				checked.push(path);
			}
		}
		expect(checked.length).toBeGreaterThan(2);
	});
});

describe('order, names and subtitles', () => {
	test('Document comes first among resources; Create is the first operation and the default', () => {
		const description = pkg.nodeDescription('documentGeneration');
		const resource = description.properties.find((p) => p.name === 'resource')!;
		expect((resource.options as INodePropertyOptions[])[0].value).toBe('document');
		expect(resource.default).toBe('document');
		const operation = displayedProperties(description, { resource: 'document' }).find(
			(p) => p.name === 'operation',
		)!;
		expect((operation.options as INodePropertyOptions[])[0].value).toBe('create');
		expect(operation.default).toBe('create');
	});

	test.each(NODES)('%s: Workspace comes before Templates', (name) => {
		const description = pkg.nodeDescription(name);
		const values = defaultsFor(description, { resource: 'document', operation: 'getAll' });
		// The order the panel shows: parameters top-down, each collection's children in place.
		const order = shownWithChildren(description, values).map((p) => p.path);
		const workspace = order.findIndex((path) => /(^|\.)workspaceId$/.test(path));
		const templates = order.findIndex((path) => /(^|\.)templateIds$/.test(path));
		expect(workspace).toBeGreaterThanOrEqual(0);
		expect(templates).toBeGreaterThanOrEqual(0);
		expect(workspace).toBeLessThan(templates);
	});

	test.each(NODES)('%s: a short default node name', (name) => {
		const { defaults } = pkg.nodeDescription(name);
		expect(defaults.name).toMatch(/^PDFMonkey\b/);
		expect(String(defaults.name).length).toBeLessThanOrEqual(20);
	});

	const subtitle = (name: string, parameters: INodeParameters) =>
		subtitleOf(pkg, name, defaultsFor(pkg.nodeDescription(name), parameters));

	test('the subtitles read as words, the way the canvas shows them', () => {
		expect(subtitle('documentGeneration', {})).toBe('Create document');
		expect(subtitle('documentGeneration', { resource: 'document', operation: 'getAll' })).toBe(
			'Get many documents',
		);
		expect(subtitle('documentGeneration', { resource: 'account', operation: 'get' })).toBe(
			'Get account',
		);
		expect(subtitle('documentGenerationTrigger', {})).toBe('When a document is ready');
		expect(subtitle('documentGenerationTrigger', { events: ['success', 'failure'] })).toBe(
			'When a document is ready or fails',
		);
		expect(subtitle('documentGenerationTrigger', { events: ['failure'] })).toBe(
			'When a document fails',
		);
	});
});

describe('node panel search', () => {
	/** What the node panel matches a search against: the display name and the codex aliases. */
	function found(term: string): string[] {
		return NODES.filter((name) => {
			const description = pkg.nodeDescription(name);
			const words = [description.displayName, ...(description.codex?.alias ?? [])];
			return words.some((w) => w.toLowerCase().includes(term.toLowerCase()));
		});
	}

	test.each(['PDFMonkey', 'PDF Monkey', 'pdf', 'invoice', 'document'])(
		'"%s" finds every node',
		(term) => {
			expect(found(term)).toEqual(NODES);
		},
	);
});
