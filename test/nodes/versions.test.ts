/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * Every released version of every node keeps loading and running. `RELEASED` lists the
 * versions saved workflows may hold: a version once listed stays listed (removing one breaks
 * users' workflows). For each, a node saved with that version (`versions/<node>@<version>.json`,
 * as n8n stores it in a workflow) is looked up as n8n's editor does and run on n8n's engine
 * against the sandbox: the action node in a workflow (WorkflowExecute), the polling trigger
 * through PollContext, the webhook trigger through WebhookContext with a signed delivery.
 * And each node's `defaultVersion` (what a new node gets) is its newest.
 * How to add a version: docs/development.md, "Adding a node version".
 */
import * as fs from 'fs';
import * as path from 'path';

import type { INode, INodeTypeDescription } from 'n8n-workflow';

import {
	createPoller,
	createWebhookTrigger,
	credentialsFor,
	getBinaryBuffer,
	loadPackage,
	type HarnessCredentials,
	runWorkflow,
	startNode,
} from '../harness';
import { DEFAULT_WEBHOOK_SECRET, startSandbox, type Sandbox } from '../sandbox';
import { byId, templateId } from './DocumentGeneration/helpers';
import { T0 } from './DocumentGenerationTrigger/helpers';

/** The versions of each node that saved workflows may hold. Never remove one. */
const RELEASED: Record<string, number[]> = {
	documentGeneration: [1],
	documentGenerationTrigger: [1],
	documentGenerationWebhookTrigger: [1, 2],
};

const released = Object.entries(RELEASED).flatMap(([name, versions]) =>
	versions.map((version) => ({ name, version })),
);

/** The node saved with `version`, as a workflow holds it. */
function savedNode(name: string, version: number): INode {
	const file = path.join(__dirname, 'versions', `${name}@${version}.json`);
	return JSON.parse(fs.readFileSync(file, 'utf8')) as INode;
}

/** The versions a description offers, oldest first. */
const versionsOf = (description: INodeTypeDescription): number[] =>
	[description.version].flat().sort((a, b) => a - b);

/**
 * The description n8n's editor shows a saved node with: among the descriptions the package
 * serves (`types/nodes.json`), the one of the node's type whose versions include the node's
 * `typeVersion`. Without one the editor cannot open the node.
 */
async function editorDescriptionFor(node: INode): Promise<INodeTypeDescription | undefined> {
	const pkg = await loadPackage();
	return pkg.loader.types.nodes.find(
		(description) =>
			pkg.fullName(description.name) === node.type &&
			versionsOf(description).includes(node.typeVersion),
	);
}

describe('every released version loads', () => {
	test.each(released)('$name version $version: the editor finds its description', async (r) => {
		const node = savedNode(r.name, r.version);
		expect(node.typeVersion).toBe(r.version);
		const description = await editorDescriptionFor(node);
		expect(description?.name).toBe(r.name);
	});

	test.each(Object.keys(RELEASED))(
		'%s: the versions it offers are the released ones, its default the newest',
		async (name) => {
			const description = (await loadPackage()).nodeDescription(name);
			const versions = versionsOf(description);
			// A version offered but not listed in RELEASED has no saved node and no run here.
			expect(versions).toEqual(RELEASED[name]);
			expect(description.defaultVersion ?? description.version).toBe(Math.max(...versions));
		},
	);

	test('the package has no node this test does not know', async () => {
		const names = (await loadPackage()).loader.types.nodes.map((d) => d.name);
		expect([...new Set(names)].sort()).toEqual(Object.keys(RELEASED).sort());
	});
});

describe('every released version runs', () => {
	let sb: Sandbox;
	beforeEach(async () => {
		sb = await startSandbox({ pendingMs: 10, generatingMs: 40 });
	});
	afterEach(async () => {
		await sb.close();
	});

	const isPdf = async (item: { binary?: Record<string, never> } | undefined) =>
		item?.binary?.data
			? (await getBinaryBuffer(item.binary.data)).subarray(0, 5).toString('latin1') === '%PDF-'
			: false;

	test.each(RELEASED.documentGeneration)(
		'the action node saved at %s creates, waits and downloads',
		async (version) => {
			const node = savedNode('documentGeneration', version);
			node.parameters.templateId = byId(templateId(sb));
			const start = startNode([{ number: `V-${version}`, total: 12 }]);
			const result = await runWorkflow(
				{
					nodes: [start, node],
					connections: { [start.name]: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
				},
				{ credentials: credentialsFor(sb) },
			);
			expect(result.error).toBeUndefined();
			const [item] = result.data[node.name]?.[0] ?? [];
			expect(item?.json).toMatchObject({ status: 'success', meta: { order_id: `V-${version}` } });
			expect(await isPdf(item as never)).toBe(true);
		},
	);

	test.each(RELEASED.documentGenerationTrigger)(
		'the polling trigger saved at %s emits a finished document with its file',
		async (version) => {
			const node = savedNode('documentGenerationTrigger', version);
			// Service time moves only when told: the document finishes after the first poll.
			const manual = await startSandbox({ clock: 'manual', startTime: T0 });
			try {
				const poller = await createPoller({
					parameters: node.parameters,
					typeVersion: node.typeVersion,
					credentials: credentialsFor(manual),
				});
				// The first poll sets where the trigger starts; a document finished after it fires.
				expect(await poller.poll()).toBeNull();
				manual.clock.advance(1000);
				const id = manual.createDocument({ status: 'success' }).id;
				const emitted = await poller.poll();
				expect(emitted?.[0]?.map((item) => item.json.id)).toEqual([id]);
				expect(await isPdf(emitted?.[0]?.[0] as never)).toBe(true);
			} finally {
				await manual.close();
			}
		},
	);

	test.each(RELEASED.documentGenerationWebhookTrigger)(
		'the webhook trigger saved at %s starts one run with a signed delivery’s document',
		async (version) => {
			const node = savedNode('documentGenerationWebhookTrigger', version);
			const trigger = await createWebhookTrigger({
				parameters: node.parameters,
				typeVersion: node.typeVersion,
				credentials: {
					...credentialsFor(sb),
					webhookSecret: DEFAULT_WEBHOOK_SECRET,
				} as HarnessCredentials,
			});
			try {
				const id = sb.createDocument({ status: 'success' }).id;
				const delivery = await sb.webhooks.send(trigger.url, sb.webhooks.documentOf(id));
				expect(delivery.status).toBe(200);
				const runs = trigger.executions();
				expect(runs).toHaveLength(1);
				expect(runs[0].map((item) => item.json.id)).toEqual([id]);
				expect(runs[0][0].json).toMatchObject({ status: 'success', deliveryId: delivery.id });
				expect(await isPdf(runs[0][0] as never)).toBe(true);
			} finally {
				await trigger.close();
			}
		},
	);
});
