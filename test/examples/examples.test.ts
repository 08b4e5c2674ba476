/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: reads the examples' files in Node under jest, never inside n8n */
/**
 * Each example workflow in examples/ does what it says on the real engine against the sandbox
 * (or, where it needs more than this engine has, in the suite named for it below). That each
 * is importable n8n JSON and documented: importable.test.ts.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, getBinaryBuffer, runWorkflow } from '../harness';
import { EXAMPLES_DIR, exampleFiles, forHarness, readExample } from '.';
import { useSandbox } from '../harness/use-sandbox';
import { renderDraft } from '../sandbox/templatePreviews';
import { payslipData } from '../sandbox/seeded';
import { fileRequests, listRequests, templateId } from '../nodes/DocumentGeneration/helpers';

const sb = useSandbox({ pendingMs: 20, generatingMs: 80 });

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
		"here, n8n's Read/Write Files from Disk played by the harness's stand-in (test/harness/standIns.ts: ~/.n8n-files is examples/); and in a real n8n in npm run test:e2e (the file under N8N_RESTRICT_FILE_ACCESS_TO)",
};

/** The examples a test of this file runs (each registered by `runs`). */
const ranHere = new Set<string>();
function runs(file: string, what: string, check: () => Promise<void>) {
	ranHere.add(file);
	test(`${file}: ${what}`, check);
}

describe('the examples are all accounted for', () => {
	test('every example is run here or says which suite runs it', () => {
		expect(exampleFiles()).toEqual(Object.keys(HOW_EACH_RUNS).sort());
		const here = Object.keys(HOW_EACH_RUNS).filter((file) =>
			HOW_EACH_RUNS[file].startsWith('here'),
		);
		expect([...ranHere].sort()).toEqual(here.sort());
	});
});

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
			expect((post.body as { document: IDataObject }).document.payload).toEqual(
				payslipData({
					period: 'December 2026',
					employee: { name: 'Katherine Johnson', number: 1918, department: 'Flight Research' },
					earnings: { 'Base salary': [160, 24], Overtime: [4, 36] },
					deductions: { 'Income tax': 690.5, Pension: 175 },
					net_pay: 2978.5,
				}),
			);
		},
	);

	runs(
		'templates-as-code.json',
		"the template file's exact text pushed as the draft body with the page settings, its draft previewed, one invoice generated",
		async () => {
			const example = readExample('templates-as-code.json');
			const id = invoiceTemplate();
			const { data, error } = await runWorkflow(forHarness(example, { templateId: id }), {
				credentials: credentialsFor(sb),
			});
			expect(error).toBeUndefined();
			const file = fs.readFileSync(path.join(EXAMPLES_DIR, 'templates', 'invoice.html'), 'utf8');
			const [read] = data['Read template file']![0];
			const details = { fileName: 'invoice.html', fileExtension: 'html', mimeType: 'text/html' };
			expect([read.json, read.binary?.body]).toMatchObject([details, details]);
			// Update with page settings: the template read, then its draft sent.
			const writes = sb.requests.filter((r) => r.path === `/api/v1/document_templates/${id}`);
			expect(writes.map((r) => r.method)).toEqual(['GET', 'PUT', 'GET']);
			const sent = (writes[1].body as { document_template: IDataObject }).document_template;
			expect(sent.body_draft).toBe(file);
			expect(sent.ttl).toBe(30 * 24 * 3600);
			expect(sent.settings_draft).toEqual({
				paper_format: 'a4',
				orientation: 'portrait',
				margin: { top: 20, right: 15, bottom: 20, left: 15 },
				header: { right: 'Invoice' },
				footer: { center: 'Page [page] of [topage]' },
			});
			const kept = sb.templates.find((t) => t.id === id)!;
			expect([kept.body_draft, kept.settings_draft]).toEqual([file, sent.settings_draft]);
			// The preview: the pushed draft rendered with its sample data.
			const [preview] = data['Preview draft']![0];
			expect(preview.json).toMatchObject({ id, identifier: 'invoice' });
			const page = await fetch(String(preview.json.preview_url));
			expect(await page.text()).toContain('<h1>Invoice INV-2026-001</h1>');
			expect(preview.json.draft_preview_url).toMatch(`${sb.url}/template_debugs/`);
			const draft = await fetch(String(preview.json.draft_preview_url));
			expect(Buffer.from(await draft.arrayBuffer()).equals(renderDraft(kept))).toBe(true);
			// One document, from the pinned order.
			const [invoice] = data['Generate one invoice']![0];
			expect(invoice.json).toMatchObject({
				status: 'success',
				filename: 'invoice-INV-2026-0107.pdf',
				meta: { _webhook_channel: 'templates-as-code' },
			});
			const creates = sb.requests.filter((r) => r.method === 'POST');
			expect(creates.map((r) => r.path)).toEqual(['/api/v1/documents/sync']);
			const pinned = example.pinData!['When clicking ‘Execute workflow’'][0].json;
			expect((creates[0].body as { document: IDataObject }).document.payload).toEqual(pinned);
			expect(invoice.binary?.data.mimeType).toBe('application/pdf');
		},
	);
});
