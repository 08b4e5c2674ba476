/**
 * The example workflows in examples/ are importable n8n JSON (real node types and
 * parameter names) and do what they say on the real engine against the sandbox.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import {
	credentialsFor,
	getBinaryBuffer,
	loadPackage,
	runWorkflow,
	type LoadedPackage,
} from '../harness';
import { PACKAGE_NAME, exampleFiles, forHarness, readExample } from '.';
import { useSandbox } from '../harness/use-sandbox';
import { nodeParameterIssues } from '../harness/versions';
import { fileRequests, listRequests } from '../action/helpers';

const sb = useSandbox({ pendingMs: 20, generatingMs: 80 });
let pkg: LoadedPackage;
beforeAll(async () => {
	pkg = await loadPackage();
});

const invoiceTemplate = () => sb.templates.find((t) => t.identifier === 'invoice')!.id;

describe('each example is an importable n8n workflow', () => {
	test('there are examples for create+wait+download and for the trigger', () => {
		expect(exampleFiles()).toEqual(
			expect.arrayContaining(['generate-invoice.json', 'on-document-ready.json']),
		);
	});

	test.each(exampleFiles())('%s: real node types, known parameters, valid connections', (file) => {
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
			expect(node.typeVersion).toBe(description.version);
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
				{ templateId: invoiceTemplate(), workspaceId: '1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d' },
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
	});
});

describe('running the examples', () => {
	test('generate-invoice.json: one invoice created from the item, waited for, downloaded', async () => {
		const example = readExample('generate-invoice.json');
		const { data, error } = await runWorkflow(
			forHarness(example, { templateId: invoiceTemplate() }),
			{ credentials: credentialsFor(sb) },
		);
		expect(error).toBeUndefined();
		const [item] = data['Generate invoice PDF']![0];
		expect(item.json).toMatchObject({
			status: 'success',
			filename: 'invoice-INV-2026-0042.pdf',
			meta: {
				order_id: 'A-1042',
				customer_email: 'ada@example.com',
				_filename: 'invoice-INV-2026-0042.pdf',
			},
		});
		expect(item.binary?.data).toMatchObject({
			fileName: 'invoice-INV-2026-0042.pdf',
			mimeType: 'application/pdf',
		});
		expect((await getBinaryBuffer(item.binary!.data)).subarray(0, 5).toString('latin1')).toBe(
			'%PDF-',
		);
		const [post] = sb.requests.filter((r) => r.method === 'POST');
		const pinned = example.pinData!['When clicking ‘Execute workflow’'][0].json;
		expect((post.body as { document: IDataObject }).document.payload).toEqual(pinned);
		expect(fileRequests(sb)[0].authorization).toBeUndefined();
	});

	test('generate-invoices-batch.json: five invoices waited for together, then each PDF downloaded by the next node', async () => {
		const example = readExample('generate-invoices-batch.json');
		const { data, error } = await runWorkflow(
			forHarness(example, { templateId: invoiceTemplate() }),
			{ credentials: credentialsFor(sb) },
		);
		expect(error).toBeUndefined();
		const generated = data['Generate invoices']![0];
		const downloaded = data['Download each PDF']![0];
		const orders = ['B-101', 'B-102', 'B-103', 'B-104', 'B-105'];
		expect(generated.map((i) => [i.json.status, (i.json.meta as IDataObject).order_id])).toEqual(
			orders.map((o) => ['success', o]),
		);
		// The next node names each binary field after the meta the first one handed on.
		expect(downloaded.map((i) => Object.keys(i.binary ?? {}))).toEqual(
			orders.map((o) => [`invoice_${o}`]),
		);
		expect(
			downloaded.map((i) => i.binary![`invoice_${(i.json.meta as IDataObject).order_id}`].fileName),
		).toEqual(['0101', '0102', '0103', '0104', '0105'].map((n) => `invoice-INV-2026-${n}.pdf`));
		expect(listRequests(sb).length).toBeLessThanOrEqual(2);
	});

	test('on-document-ready.json: what the trigger emits flows into Get (with payload) by {{ $json.id }}', async () => {
		const doc = sb.createDocument({
			status: 'success',
			payload: { customer: 'Ada' },
			meta: { order_id: 'T-1' },
		});
		const card = { ...sb.cardJson(doc.id), meta: { order_id: 'T-1' } };
		const example = readExample('on-document-ready.json');
		const workflow = forHarness({
			...example,
			pinData: { 'Document ready': [{ json: card as IDataObject }] },
		});
		const { data, error } = await runWorkflow(workflow, {
			credentials: credentialsFor(sb),
			startNode: 'Document ready',
		});
		expect(error).toBeUndefined();
		const [item] = data['Get document with payload']![0];
		expect(item.json).toMatchObject({
			id: doc.id,
			payload: { customer: 'Ada' },
			meta: { order_id: 'T-1' },
		});
		expect(sb.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
			`GET /api/v1/documents/${doc.id}`,
		]);
	});
});
