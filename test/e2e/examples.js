'use strict';
// The examples of examples/ as a real n8n runs them:
//   - each imported as a user imports it (fromExample), with what the user picks filled in;
//   - the approval example started by n8n's Webhook node (its run: waiting.js);
//   - the certificate example with `n8n execute`: n8n's Convert to File makes the logo file,
//     Files Into Payload puts it into the payload, Image Options make a PNG;
//   - the templates-as-code example with `n8n execute`: n8n's Read/Write Files from Disk reads
//     the template file from a folder N8N_RESTRICT_FILE_ACCESS_TO allows, Template → Update
//     pushes it with its page settings, Template → Preview previews the draft, one invoice.
// `n8n execute` runs no pinned data: a Manual Trigger's pinned items come from n8n's own nodes.

const fs = require('fs');
const path = require('path');
const { isDeepStrictEqual } = require('util');

const { executionOutput } = require('./common');
const { PACKAGE, credentials, rl, webhookStart, workflow } = require('./parts');

const EXAMPLES = path.join(__dirname, '..', '..', 'examples');
const { renderDraft } = require(path.join(__dirname, '..', 'sandbox', 'templatePreviews'));

const readExample = (file) => JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8'));

/**
 * An example workflow of examples/ as a user imports it: the workspace they pick filled
 * in, the credential attached to the package's nodes.
 */
function fromExample(file, id, { billing }) {
	const example = readExample(file);
	const nodes = example.nodes.map((node) => {
		if (!node.type.startsWith(`${PACKAGE}.`)) return node;
		const parameters = { ...node.parameters };
		if (parameters.workspaceId?.value === '') parameters.workspaceId = rl(billing);
		return { ...node, parameters, credentials };
	});
	return { ...workflow(id, `E2E: ${example.name}`, nodes, example.connections) };
}

/**
 * The example's Manual Trigger with its pinned items as `n8n execute` can run it: a Manual
 * Trigger, n8n's Edit Fields (raw JSON) listing the items, and Split Out named as the trigger,
 * so the example's `$('When clicking …')` expressions read them. The pinned data is kept.
 */
function withPinnedItems(flow, example) {
	const trigger = flow.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	const items = example.pinData[trigger.name].map((item) => item.json);
	const start = { ...trigger, id: `${flow.id}-start`, name: 'Start', position: [-440, 0] };
	const listed = {
		id: `${flow.id}-items`,
		name: 'Pinned items',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [-220, 0],
		parameters: { mode: 'raw', jsonOutput: JSON.stringify({ items }), options: {} },
	};
	const split = {
		id: trigger.id,
		name: trigger.name,
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		position: trigger.position,
		parameters: { fieldToSplitOut: 'items', include: 'noOtherFields', options: {} },
	};
	const connections = {
		...flow.connections,
		Start: { main: [[{ node: 'Pinned items', type: 'main', index: 0 }]] },
		'Pinned items': { main: [[{ node: trigger.name, type: 'main', index: 0 }]] },
	};
	const nodes = [start, listed, ...flow.nodes.map((node) => (node === trigger ? split : node))];
	return { ...flow, nodes, connections, pinData: example.pinData };
}

/** The flow with `parameters` merged into those of the node named. */
function withParameters(flow, name, parameters) {
	const nodes = flow.nodes.map((node) =>
		node.name === name ? { ...node, parameters: { ...node.parameters, ...parameters } } : node,
	);
	return { ...flow, nodes };
}

/**
 * The approval example as a user starts it from their own system: its Manual Trigger becomes
 * n8n's Webhook node (the invoice in the request's body), the invoice template picked.
 */
function approvalWorkflow(sb) {
	const template = sb.templates.find((t) => t.identifier === 'invoice').id;
	const example = fromExample('approve-before-generating.json', 'e2eApprovalFlow001', {});
	const trigger = example.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	const nodes = example.nodes.map((node) => {
		if (node !== trigger) return node;
		return webhookStart(
			{ id: node.id, name: node.name, webhookId: '8f5b3d2e-4c6a-4e8f-a1b2-3c4d5e6f7a8b' },
			'e2e-approval',
			'onReceived',
		);
	});
	const flow = withParameters({ ...example, nodes }, 'Create draft', {
		templateId: rl(template),
		payload: '={{ $json.body }}',
		additionalFields: {
			filename: '=invoice-{{ $json.body.number }}.pdf',
			meta: '={{ { "order_id": $json.body.order_id } }}',
		},
	});
	return { ...flow, settings: { executionOrder: 'v1' } };
}

/** The certificate example, its pinned people given by n8n's nodes, the badge template picked. */
function certificateWorkflow(sb) {
	const file = 'certificate-with-logo.json';
	const flow = withPinnedItems(fromExample(file, 'e2eCertificate0001', {}), readExample(file));
	const template = sb.templates.find((t) => t.identifier === 'badge').id;
	return withParameters(flow, 'Generate certificate', { templateId: rl(template) });
}

/**
 * The templates-as-code example, its pinned order given by n8n's nodes: Read template file
 * reads `<filesDir>/templates/invoice.html` (placeTemplateFiles puts it there), Push template
 * updates the invoice template.
 */
function templatesAsCodeWorkflow(sb, filesDir) {
	const file = 'templates-as-code.json';
	const flow = withPinnedItems(fromExample(file, 'e2eTemplatesCode01', {}), readExample(file));
	const template = sb.templates.find((t) => t.identifier === 'invoice').id;
	const read = withParameters(flow, 'Read template file', {
		fileSelector: path.join(filesDir, 'templates', 'invoice.html'),
	});
	return withParameters(read, 'Push template', { templateId: rl(template) });
}

/** Copies examples/templates/ into `filesDir` (a folder N8N_RESTRICT_FILE_ACCESS_TO names). */
function placeTemplateFiles(filesDir) {
	fs.cpSync(path.join(EXAMPLES, 'templates'), path.join(filesDir, 'templates'), {
		recursive: true,
	});
}

/** Runs a workflow with `n8n execute`: its run data, and what to say when there is none. */
async function execute(n8n, id) {
	const run = await n8n.cli(['execute', `--id=${id}`, '--rawOutput'], { allowFail: true });
	const output = executionOutput(run.stdout);
	const error = output?.data?.resultData?.error;
	const said = output ? '' : `; n8n said: ${run.stdout.slice(-600)} ${run.stderr?.slice(-600)}`;
	return {
		status: run.status,
		runData: output?.data?.resultData?.runData ?? {},
		detail: `exit ${run.status}${said}${error ? `; error: ${error.message}` : ''}`,
	};
}

/** The output items of a node's first run. */
const itemsOf = (runData, name) => runData[name]?.[0]?.data?.main?.[0] ?? [];

/** The documents the sandbox was asked to create since its requests were reset. */
const creates = (sb) =>
	sb.requests
		.filter((r) => r.method === 'POST' && r.path.startsWith('/api/v1/documents'))
		.map((r) => r.body?.document ?? r.body);

/** The certificate example run by `n8n execute`: each of its people a PNG with the logo. */
async function runCertificateCheck({ n8n, sb, flow, check }) {
	const { runData, detail } = await execute(n8n, flow.id);
	const made = itemsOf(runData, 'Generate certificate');
	const pinned = Object.values(flow.pinData)[0];
	const sent = creates(sb);
	check(
		"certificate example: n8n's Convert to File makes the logo a file, Files Into Payload sends it as a data URI, a PNG comes back per person",
		made.length === 2 &&
			made.every((item) => item.binary?.data?.mimeType === 'image/png') &&
			sent.length === 2 &&
			sent[0]?.payload?.logo === `data:image/png;base64,${pinned[0].json.logo_base64}` &&
			sent[1]?.meta?._type === 'png' &&
			sent[1]?.meta?._width === 1200,
		`${made.length} items; ${sent.length} creates; ${made.map((i) => i.binary?.data?.mimeType).join(', ')}; ${detail}`,
	);
}

/** The page settings the example pushes, as the service keeps them. */
const PUSHED_SETTINGS = {
	paper_format: 'a4',
	orientation: 'portrait',
	margin: { top: 20, right: 15, bottom: 20, left: 15 },
	header: { right: 'Invoice' },
	footer: { center: 'Page [page] of [topage]' },
};

/** The bytes at a URL (none when there is no URL). */
const bytesAt = async (url) =>
	url ? Buffer.from(await (await fetch(url)).arrayBuffer()) : Buffer.alloc(0);

/**
 * The templates-as-code example run by `n8n execute`: the file read by n8n's own node, its
 * exact text pushed with the page settings, the draft previewed, one invoice generated.
 */
async function runTemplatesAsCodeCheck({ n8n, sb, flow, check }) {
	const template = sb.templates.find((t) => t.identifier === 'invoice');
	const text = fs.readFileSync(path.join(EXAMPLES, 'templates', 'invoice.html'), 'utf8');
	const { runData, detail } = await execute(n8n, flow.id);
	const [read] = itemsOf(runData, 'Read template file');
	const pushes = sb.requests.filter(
		(r) => r.method === 'PUT' && r.path === `/api/v1/document_templates/${template.id}`,
	);
	const sent = pushes[0]?.body?.document_template;
	check(
		"templates as code: n8n's Read/Write Files from Disk reads the file (under N8N_RESTRICT_FILE_ACCESS_TO); its exact text is pushed as the draft body with the page settings ([page] of [topage]) and a 30-day retention",
		read?.binary?.body?.fileName === 'invoice.html' &&
			pushes.length === 1 &&
			sent?.body_draft === text &&
			template.body_draft === text &&
			isDeepStrictEqual(sent?.settings_draft, PUSHED_SETTINGS) &&
			isDeepStrictEqual(template.settings_draft, PUSHED_SETTINGS) &&
			sent?.ttl === 30 * 24 * 3600,
		`${pushes.length} pushes; ${JSON.stringify(sent?.settings_draft)}; ${detail}`,
	);
	const [preview] = itemsOf(runData, 'Preview draft');
	const page = (await bytesAt(preview?.json?.preview_url)).toString('utf8');
	const draft = await bytesAt(preview?.json?.draft_preview_url);
	check(
		'… Preview hands on the draft preview URL (the pushed draft rendered with its sample data) and the preview page',
		draft.length > 0 &&
			draft.equals(renderDraft(template)) &&
			page.includes('Invoice INV-2026-001'),
		`${draft.length} bytes; ${preview?.json?.draft_preview_url}`,
	);
	const made = itemsOf(runData, 'Generate one invoice');
	const sentDocuments = creates(sb);
	const order = Object.values(flow.pinData)[0][0].json;
	check(
		'… then one invoice generated from the order, the PDF as binary data',
		made.length === 1 &&
			made[0].json?.status === 'success' &&
			made[0].json.filename === 'invoice-INV-2026-0107.pdf' &&
			made[0].binary?.data?.mimeType === 'application/pdf' &&
			sentDocuments.length === 1 &&
			isDeepStrictEqual(sentDocuments[0]?.payload, order),
		`${made.length} items; ${sentDocuments.length} creates; ${made[0]?.json?.status}`,
	);
}

module.exports = {
	approvalWorkflow,
	certificateWorkflow,
	fromExample,
	placeTemplateFiles,
	runCertificateCheck,
	runTemplatesAsCodeCheck,
	templatesAsCodeWorkflow,
};
