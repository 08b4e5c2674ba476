/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: reads the docs in Node under jest, never inside n8n */
/**
 * The example workflows in examples/ are importable n8n JSON (real node types and versions,
 * parameter names the nodes have, a sticky note saying what to set), and each is named in the
 * README or a docs page. What each does is run in examples.test.ts.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { INode } from 'n8n-workflow';

import { loadPackage, type LoadedPackage } from '../harness';
import { EXAMPLES_DIR, PACKAGE_NAME, exampleFiles, forHarness, readExample } from '.';
import { useSandbox } from '../harness/use-sandbox';
import { nodeParameterIssues } from '../harness/versions';
import { templateId } from '../nodes/DocumentGeneration/helpers';

const sb = useSandbox();
let pkg: LoadedPackage;
beforeAll(async () => {
	pkg = await loadPackage();
});

/** n8n's own nodes the examples use, with the type versions they were saved with. */
const N8N_NODE_VERSIONS: Record<string, number[]> = {
	'n8n-nodes-base.manualTrigger': [1],
	'n8n-nodes-base.stickyNote': [1],
	'n8n-nodes-base.removeDuplicates': [2],
	'n8n-nodes-base.convertToFile': [1.1],
	'n8n-nodes-base.readWriteFile': [1, 1.1],
	'n8n-nodes-base.set': [3.4],
	'n8n-nodes-base.wait': [1.1],
	'n8n-nodes-base.if': [2.2],
	'@n8n/n8n-nodes-langchain.chatTrigger': [1.1],
	'@n8n/n8n-nodes-langchain.agent': [2.1],
	'@n8n/n8n-nodes-langchain.lmChatOpenAi': [1.2],
};

const ROOT = path.resolve(EXAMPLES_DIR, '..');
const STICKY_NOTE = 'n8n-nodes-base.stickyNote';

describe('the examples are all accounted for', () => {
	test.each(exampleFiles())(
		'%s has a sticky note that says what it does and what to set',
		(file) => {
			const notes = readExample(file).nodes.filter((n) => n.type === STICKY_NOTE);
			expect(notes).toHaveLength(1);
			const content = String(notes[0].parameters.content);
			// A title, what it does, then what to set: the credential and what the user picks.
			expect(content).toMatch(/^## \S/);
			expect(content).toMatch(/credential/);
			expect(content).toMatch(/\*\*To set\*\*|\n1\. /);
		},
	);

	test.each(exampleFiles())('%s is named in the README or a docs page', (file) => {
		const pages = [
			path.join(ROOT, 'README.md'),
			...fs
				.readdirSync(path.join(ROOT, 'docs'))
				.filter((f) => f.endsWith('.md'))
				.map((f) => path.join(ROOT, 'docs', f)),
		];
		const linked = pages.filter((page) =>
			fs.readFileSync(page, 'utf8').includes(`examples/${file})`),
		);
		expect([file, linked.length > 0]).toEqual([file, true]);
	});

	test.each(exampleFiles())("%s: n8n's own nodes at versions n8n has", (file) => {
		for (const node of readExample(file).nodes as INode[]) {
			if (node.type.startsWith(`${PACKAGE_NAME}.`)) continue;
			expect([node.type, N8N_NODE_VERSIONS[node.type]]).toEqual([
				node.type,
				expect.arrayContaining([node.typeVersion]),
			]);
		}
	});
});

describe('each example is an importable n8n workflow', () => {
	test('there are examples for create+wait+download and for the trigger', () => {
		expect(exampleFiles()).toEqual(
			expect.arrayContaining(['generate-invoice.json', 'on-document-ready.json']),
		);
	});

	test.each(exampleFiles())('%s: real node types, known parameters, valid connections', (file) =>
		expectImportable(file),
	);
});

/** Real node types and versions, parameters the node has and complete, valid connections. */
function expectImportable(file: string): void {
	const example = readExample(file);
	expect(example.name).toEqual(expect.any(String));
	const names = new Set(example.nodes.map((n) => n.name));
	expect(names.size).toBe(example.nodes.length);
	for (const node of example.nodes as INode[]) {
		expect(node.id).toEqual(expect.any(String));
		expect(node.position).toHaveLength(2);
		if (!node.type.startsWith(`${PACKAGE_NAME}.`)) {
			// n8n's own nodes (Manual Trigger, and AI nodes in the agent example).
			expect(node.type).toMatch(/^(n8n-nodes-base|@n8n\/n8n-nodes-langchain)\.[a-zA-Z]+$/);
			continue;
		}
		// n8n offers a node that is usableAsTool as `<name>Tool` too, with a tool description.
		const asTool = node.type.endsWith('Tool');
		const description = pkg.nodeDescription(
			asTool ? node.type.slice(0, -'Tool'.length) : node.type,
		);
		// An example is what a user imports today: the node's newest version, as a new node gets.
		expect(node.typeVersion).toBe(
			description.defaultVersion ?? Math.max(...[description.version].flat()),
		);
		// Every parameter set in the example is one the node has (n8n adds pollTimes to polling nodes).
		const known = new Set(description.properties.map((p) => p.name));
		if (description.polling) known.add('pollTimes');
		if (asTool) for (const extra of ['descriptionType', 'toolDescription']) known.add(extra);
		for (const name of Object.keys(node.parameters))
			expect([node.name, name, known.has(name)]).toEqual([node.name, name, true]);
		// Parameters are complete once the user has picked the template (and workspace) left
		// empty for them.
		const filled = forHarness(
			{ ...example, nodes: [node] },
			{ templateId: templateId(sb), workspaceId: '1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d' },
		).nodes[0];
		const issues = nodeParameterIssues(description.properties, filled, description);
		expect([node.name, issues]).toEqual([node.name, null]);
	}
	for (const [from, byType] of Object.entries(example.connections)) {
		expect(names.has(from)).toBe(true);
		for (const outputs of Object.values(byType)) {
			for (const connection of outputs.flat()) expect(names.has(connection!.node)).toBe(true);
		}
	}
}
