/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: reads the docs in Node under jest, never inside n8n */
/**
 * The example workflows in examples/ are importable n8n JSON (real node types and versions,
 * parameter names the nodes have, a sticky note saying what to set), each is named in the
 * README or a docs page, and each does what it says on the real engine against the sandbox
 * (or, where it needs more than this engine has, in the suite named for it below).
 */
import * as fs from 'fs';
import * as path from 'path';
import type { IDataObject, INode } from 'n8n-workflow';

import {
	credentialsFor,
	getBinaryBuffer,
	loadPackage,
	runWorkflow,
	type LoadedPackage,
} from '../harness';
import { EXAMPLES_DIR, PACKAGE_NAME, exampleFiles, forHarness, readExample } from '.';
import { useSandbox } from '../harness/use-sandbox';
import { nodeParameterIssues } from '../harness/versions';
import { fileRequests, listRequests, templateId } from '../nodes/DocumentGeneration/helpers';

const sb = useSandbox({ pendingMs: 20, generatingMs: 80 });
let pkg: LoadedPackage;
beforeAll(async () => {
	pkg = await loadPackage();
});

const invoiceTemplate = () => templateId(sb);

/**
 * Where each example runs. A new example fails here until it is run (a test in this file) or
 * says which suite runs it and why this engine cannot.
 */
const HOW_EACH_RUNS: Record<string, string> = {
	'agent-tool.json':
		"test/nodes/DocumentGeneration/agent-tool.test.ts: its tools on n8n-core's tool machinery (n8n's AI Agent and chat model are not in this engine)",
	'approve-before-generating.json':
		"npm run test:e2e, the one-process leg: approved and refused in a real n8n (n8n's Wait node, resumed by its webhook, is not in this engine)",
	'certificate-with-logo.json':
		"here, n8n's Convert to File played by the harness's stand-in (test/harness/standIns.ts); and in a real n8n in npm run test:e2e (its pinned people given by n8n's own nodes there: the CLI runs no pinned data)",
	'generate-invoice.json': 'here',
	'generate-invoices-batch.json': 'here',
	'invoice-line-items.json': 'here',
	'on-document-ready.json': 'here',
	'on-document-ready-instant.json':
		'npm run test:e2e, the queue-mode leg: imported as it is into a real n8n (Remove Duplicates is not in this engine)',
	'template-fields-payslip.json': 'here',
	'templates-as-code.json':
		'its node types and parameters are checked here; its run (Read/Write Files from Disk, then the sandbox) is not tested yet',
};

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

/** The examples a test of this file runs (each registered by `runs`). */
const ranHere = new Set<string>();
function runs(file: string, what: string, check: () => Promise<void>) {
	ranHere.add(file);
	test(`${file}: ${what}`, check);
}

const ROOT = path.resolve(EXAMPLES_DIR, '..');
const STICKY_NOTE = 'n8n-nodes-base.stickyNote';

describe('the examples are all accounted for', () => {
	test('every example is run here or says which suite runs it', () => {
		expect(exampleFiles()).toEqual(Object.keys(HOW_EACH_RUNS).sort());
		const here = Object.keys(HOW_EACH_RUNS).filter((file) =>
			HOW_EACH_RUNS[file].startsWith('here'),
		);
		expect([...ranHere].sort()).toEqual(here.sort());
	});

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
}

describe('running the examples', () => {
	runs(
		'invoice-line-items.json',
		'five rows of two orders make two invoices, each row a line in order, each invoice paired with its rows',
		async () => {
			const example = readExample('invoice-line-items.json');
			const { data, error } = await runWorkflow(
				forHarness(example, { templateId: invoiceTemplate() }),
				{ credentials: credentialsFor(sb) },
			);
			expect(error).toBeUndefined();
			const invoices = data['Generate one invoice per order']![0];
			expect(invoices.map((i) => [i.json.status, i.json.filename])).toEqual([
				['success', 'invoice-INV-2026-0201.pdf'],
				['success', 'invoice-INV-2026-0202.pdf'],
			]);
			expect(invoices.map((i) => i.pairedItem)).toEqual([
				[{ item: 0 }, { item: 1 }, { item: 3 }],
				[{ item: 2 }, { item: 4 }],
			]);
			const posts = sb.requests.filter((r) => r.method === 'POST');
			const payloads = posts.map((r) => (r.body as { document: IDataObject }).document.payload);
			expect(payloads[0]).toEqual({
				number: 'INV-2026-0201',
				customer: { name: 'Grace Hopper' },
				lines: [
					{ description: 'Fountain pen', quantity: 2, unit_price: 24.5 },
					{ description: 'Ink, blue', quantity: 3, unit_price: 4.9 },
					{ description: 'Desk lamp', quantity: 1, unit_price: 39 },
				],
			});
			expect(invoices[1].binary?.data.mimeType).toBe('application/pdf');
		},
	);

	runs(
		'certificate-with-logo.json',
		'the logo file goes into the payload as a data URI; a 1200 x 630 PNG comes back per person',
		async () => {
			const example = readExample('certificate-with-logo.json');
			const { data, error } = await runWorkflow(
				forHarness(example, { templateId: templateId(sb, 'badge') }),
				{ credentials: credentialsFor(sb) },
			);
			expect(error).toBeUndefined();
			const made = data['Generate certificate']![0];
			expect(made.map((i) => i.binary?.data.mimeType)).toEqual(['image/png', 'image/png']);
			const pinned = example.pinData!['When clicking ‘Execute workflow’'];
			const posts = sb.requests.filter((r) => r.method === 'POST');
			const sent = posts.map((r) => (r.body as { document: IDataObject }).document);
			expect(sent[0].payload).toEqual({
				name: 'Ada Lovelace',
				course: 'Analytical Engines 101',
				logo: `data:image/png;base64,${String(pinned[0].json.logo_base64)}`,
			});
			expect(sent[1].meta).toMatchObject({ _type: 'png', _width: 1200, _height: 630 });
		},
	);

	runs(
		'generate-invoice.json',
		'one invoice created from the item, waited for, downloaded',
		async () => {
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
		},
	);

	runs(
		'generate-invoices-batch.json',
		'five invoices waited for together, then each PDF downloaded by the next node',
		async () => {
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
				downloaded.map(
					(i) => i.binary![`invoice_${(i.json.meta as IDataObject).order_id}`].fileName,
				),
			).toEqual(['0101', '0102', '0103', '0104', '0105'].map((n) => `invoice-INV-2026-${n}.pdf`));
			expect(listRequests(sb).length).toBeLessThanOrEqual(2);
		},
	);

	runs(
		'on-document-ready.json',
		'what the trigger emits flows into Get (with payload) by {{ $json.id }}',
		async () => {
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
		},
	);

	runs(
		'template-fields-payslip.json',
		"the HR record mapped onto the payslip's own fields goes out nested and typed; the PDF comes back",
		async () => {
			const example = readExample('template-fields-payslip.json');
			const { data, error } = await runWorkflow(
				forHarness(example, { templateId: templateId(sb, 'payslip') }),
				{ credentials: credentialsFor(sb) },
			);
			expect(error).toBeUndefined();
			const [item] = data['Generate payslip']![0];
			expect(item.json).toMatchObject({
				status: 'success',
				filename: 'payslip-1918-December 2026.pdf',
				meta: { staff_number: 1918, period: 'December 2026' },
			});
			expect((await getBinaryBuffer(item.binary!.data)).subarray(0, 5).toString('latin1')).toBe(
				'%PDF-',
			);
			// One item: one create, through documents/sync.
			const posts = sb.requests.filter((r) => r.method === 'POST');
			expect(posts.map((r) => r.path)).toEqual(['/api/v1/documents/sync']);
			const [post] = posts;
			expect((post.body as { document: IDataObject }).document.payload).toEqual({
				period: 'December 2026',
				employee: { name: 'Katherine Johnson', number: 1918, department: 'Flight Research' },
				earnings: [
					{ label: 'Base salary', hours: 160, rate: 24 },
					{ label: 'Overtime', hours: 4, rate: 36 },
				],
				deductions: [
					{ label: 'Income tax', amount: 690.5 },
					{ label: 'Pension', amount: 175 },
				],
				net_pay: 2978.5,
			});
		},
	);
});
