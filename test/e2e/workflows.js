'use strict';
// The workflows the end-to-end suite imports into n8n, built for one sandbox.

const fs = require('fs');
const path = require('path');

const PACKAGE = 'n8n-nodes-document-generation';
const CREDENTIAL = { id: 'e2eCredential0001', name: 'PDFMonkey (sandbox)' };
const credentials = { documentGenerationApi: CREDENTIAL };
const rl = (value) => ({ __rl: true, mode: 'id', value });

function workflow(id, name, nodes, connections) {
	return {
		id,
		name,
		nodes,
		connections,
		active: false,
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/** The action node "Generate invoice" (create, wait, download by default) after a start node. */
function generateInvoice(id, templateId, parameters) {
	return {
		id,
		name: 'Generate invoice',
		type: `${PACKAGE}.documentGeneration`,
		typeVersion: 1,
		position: [220, 0],
		parameters: { templateId: rl(templateId), ...parameters },
		credentials,
	};
}

function workflows(sb) {
	const template = (identifier) => sb.templates.find((t) => t.identifier === identifier).id;
	const billing = sb.workspaces.find((w) => w.identifier === 'Acme Billing').id;
	return {
		action: workflow(
			'e2eActionWorkflow1',
			'E2E: generate an invoice',
			[
				{
					id: 'a1',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				generateInvoice('a2', template('invoice'), {
					payload: '{"number": "INV-E2E-1", "customer": {"name": "Ada Lovelace"}, "total": 42}',
					additionalFields: { filename: 'invoice-e2e.pdf', meta: '{"order_id": "E2E-1"}' },
				}),
			],
			{ Start: { main: [[{ node: 'Generate invoice', type: 'main', index: 0 }]] } },
		),
		// A control for the browser check: a template left empty must show a parameter warning.
		control: workflow(
			'e2eControlWorkflow',
			'E2E: control (template left empty)',
			[
				{
					id: 'c1',
					name: 'No template',
					type: `${PACKAGE}.documentGeneration`,
					typeVersion: 1,
					position: [0, 0],
					parameters: { templateId: { __rl: true, mode: 'list', value: '' }, payload: '{"a": 1}' },
					credentials,
				},
			],
			{},
		),
		loop: loopWorkflow(template('invoice')),
		// For the browser: the payslip's Template Fields, its template left to pick.
		fields: workflow(
			'e2eFieldsWorkflow1',
			'E2E: Template Fields',
			[
				{
					id: 'f1',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: 'f2',
					name: 'Employee',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					position: [220, 0],
					parameters: {
						mode: 'raw',
						jsonOutput: JSON.stringify(FIELDS_INPUT),
						options: {},
					},
				},
				{
					id: 'f3',
					name: 'Generate payslip',
					type: `${PACKAGE}.documentGeneration`,
					typeVersion: 1,
					position: [440, 0],
					parameters: {
						templateId: { __rl: true, mode: 'list', value: '' },
						payloadMode: 'templateFields',
						download: false,
					},
					credentials,
				},
			],
			{
				Start: { main: [[{ node: 'Employee', type: 'main', index: 0 }]] },
				Employee: { main: [[{ node: 'Generate payslip', type: 'main', index: 0 }]] },
			},
		),
		poll: workflow(
			'e2ePollWorkflow001',
			'E2E: polling trigger',
			[
				{
					id: 'p1',
					name: 'Receipt ready',
					type: `${PACKAGE}.documentGenerationTrigger`,
					typeVersion: 1,
					position: [0, 0],
					parameters: {
						pollTimes: { item: [{ mode: 'everyMinute' }] },
						events: ['success'],
						filters: { templateIds: [template('receipt')] },
					},
					credentials,
				},
				{
					id: 'p2',
					name: 'Read receipt',
					type: `${PACKAGE}.documentGeneration`,
					typeVersion: 1,
					position: [220, 0],
					parameters: {
						resource: 'document',
						operation: 'get',
						documentId: rl('={{ $json.id }}'),
						options: { includePayload: true },
					},
					credentials,
				},
			],
			{ 'Receipt ready': { main: [[{ node: 'Read receipt', type: 'main', index: 0 }]] } },
		),
		webhook: workflow(
			'e2eWebhookWorkflow',
			'E2E: instant trigger',
			[
				{
					id: 'w1',
					name: 'Invoice ready',
					type: `${PACKAGE}.documentGenerationWebhookTrigger`,
					typeVersion: 1,
					position: [0, 0],
					webhookId: '7c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
					parameters: {
						events: ['success'],
						workspaceId: rl(billing),
						filters: { channel: 'instant' },
					},
					credentials,
				},
				{
					id: 'w2',
					name: 'Read invoice',
					type: `${PACKAGE}.documentGeneration`,
					typeVersion: 1,
					position: [220, 0],
					parameters: { resource: 'document', operation: 'get', documentId: rl('={{ $json.id }}') },
					credentials,
				},
			],
			{ 'Invoice ready': { main: [[{ node: 'Read invoice', type: 'main', index: 0 }]] } },
		),
	};
}

/** What the previous node of the Template Fields workflow gives, to map two fields from. */
const FIELDS_INPUT = { full_name: 'Katherine Johnson', take_home: 4321.5 };

/** The items of the loop workflow: rounds of 5 with the same data, two alike in each round. */
const LOOP_ITEMS = Array.from({ length: 15 }, (_, i) => ({
	number: `LOOP-${i + 1}`,
	n: Math.max(0, (i % 5) - 1),
}));

/**
 * Loop Over Items (batches of 5) around the action node: n8n runs it once per round in one
 * execution, each round numbering its items from 0 again, with the same data as the round
 * before. Every item must make its own document: 15.
 */
function loopWorkflow(templateId) {
	const node = (id, name, type, typeVersion, x, parameters) => ({
		id,
		name,
		type,
		typeVersion,
		position: [x, 0],
		parameters,
	});
	return workflow(
		'e2eLoopWorkflow001',
		'E2E: Loop Over Items around the action node',
		[
			node('l1', 'Start', 'n8n-nodes-base.manualTrigger', 1, 0, {}),
			node('l2', 'Invoices', 'n8n-nodes-base.set', 3.4, 200, {
				mode: 'raw',
				jsonOutput: JSON.stringify({ items: LOOP_ITEMS }),
				options: {},
			}),
			node('l3', 'One per invoice', 'n8n-nodes-base.splitOut', 1, 400, {
				fieldToSplitOut: 'items',
				options: {},
			}),
			node('l4', 'Loop Over Items', 'n8n-nodes-base.splitInBatches', 3, 600, {
				batchSize: 5,
				options: {},
			}),
			{
				...generateInvoice('l5', templateId, {
					payload: '={{ { "n": $json.n } }}',
					download: false,
				}),
				position: [800, 0],
			},
		],
		{
			Start: { main: [[{ node: 'Invoices', type: 'main', index: 0 }]] },
			Invoices: { main: [[{ node: 'One per invoice', type: 'main', index: 0 }]] },
			'One per invoice': { main: [[{ node: 'Loop Over Items', type: 'main', index: 0 }]] },
			'Loop Over Items': { main: [[], [{ node: 'Generate invoice', type: 'main', index: 0 }]] },
			'Generate invoice': { main: [[{ node: 'Loop Over Items', type: 'main', index: 0 }]] },
		},
	);
}

/**
 * An example workflow of examples/ as a user imports it: the workspace they pick filled
 * in, the credential attached to the package's nodes.
 */
function fromExample(file, id, { billing }) {
	const example = JSON.parse(
		fs.readFileSync(path.join(__dirname, '..', '..', 'examples', file), 'utf8'),
	);
	const nodes = example.nodes.map((node) => {
		if (!node.type.startsWith(`${PACKAGE}.`)) return node;
		const parameters = { ...node.parameters };
		if (parameters.workspaceId?.value === '') parameters.workspaceId = rl(billing);
		return { ...node, parameters, credentials };
	});
	return { ...workflow(id, `E2E: ${example.name}`, nodes, example.connections) };
}

/**
 * The queue-mode leg's workflows: the action node behind n8n's own Webhook node (so a webhook
 * process takes the call and a worker runs it), the polling trigger, and the example of the
 * instant trigger followed by Remove Duplicates keyed on the delivery's id, as the README
 * advises.
 */
function queueWorkflows(sb) {
	const template = (identifier) => sb.templates.find((t) => t.identifier === identifier).id;
	const billing = sb.workspaces.find((w) => w.identifier === 'Acme Billing').id;
	const base = workflows(sb);
	return {
		action: workflow(
			'e2eQueueAction0001',
			'E2E queue: generate an invoice on a worker',
			[
				{
					id: 'qa1',
					name: 'Order',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: '3b9f1e7a-2c4d-4e6f-8a1b-5c7d9e0f1a2b',
					parameters: {
						httpMethod: 'POST',
						path: 'e2e-generate',
						responseMode: 'lastNode',
						options: {},
					},
				},
				generateInvoice('qa2', template('invoice'), {
					payload: '={{ $json.body }}',
					additionalFields: {
						filename: '=invoice-{{ $json.body.number }}.pdf',
						meta: '={{ { "order_id": $json.body.number } }}',
					},
				}),
			],
			{ Order: { main: [[{ node: 'Generate invoice', type: 'main', index: 0 }]] } },
		),
		retry: workflow(
			'e2eQueueRetry00001',
			'E2E queue: Retry On Fail on a worker',
			[
				{
					id: 'qr1',
					name: 'Batch',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					webhookId: '5d2a8c4e-6f1b-4a3d-9c7e-2b4f6a8d0e1c',
					parameters: {
						httpMethod: 'POST',
						path: 'e2e-retry',
						responseMode: 'onReceived',
						options: {},
					},
				},
				{
					id: 'qr2',
					name: 'One per invoice',
					type: 'n8n-nodes-base.splitOut',
					typeVersion: 1,
					position: [200, 0],
					parameters: { fieldToSplitOut: 'body.items', options: {} },
				},
				{
					...generateInvoice('qr3', '', {
						templateId: rl('={{ $json.template }}'),
						payload: '={{ { "number": $json.number } }}',
						additionalFields: { meta: '={{ { "order_id": $json.number } }}' },
					}),
					position: [400, 0],
					retryOnFail: true,
					maxTries: 3,
					waitBetweenTries: 0,
				},
			],
			{
				Batch: { main: [[{ node: 'One per invoice', type: 'main', index: 0 }]] },
				'One per invoice': { main: [[{ node: 'Generate invoice', type: 'main', index: 0 }]] },
			},
		),
		poll: { ...base.poll, id: 'e2eQueuePoll00001', name: 'E2E queue: polling trigger' },
		webhook: fromExample('on-document-ready-instant.json', 'e2eQueueWebhook001', { billing }),
	};
}

/** n8n's Webhook node (POST `path`) that starts a workflow; `responseMode` as n8n names it. */
function webhookStart({ id, name, webhookId }, path, responseMode) {
	return {
		id,
		name,
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId,
		parameters: { httpMethod: 'POST', path, responseMode, options: {} },
	};
}

/**
 * Execution Logic v2 (`binaryMode: "combined"`): Create (wait, download), Update (regenerate,
 * download) and Download, each file landing in `json._files.data`, then n8n's Crypto node
 * reads it by that path (its SHA-256). Behind a Webhook node answering with the last item.
 */
function combinedWorkflow(sb) {
	const template = sb.templates.find((t) => t.identifier === 'invoice').id;
	const step = (id, name, x, parameters) => ({
		id,
		name,
		type: `${PACKAGE}.documentGeneration`,
		typeVersion: 1,
		position: [x, 0],
		parameters,
		credentials,
	});
	const names = ['Order', 'Create', 'Update', 'Download', 'Read the file'];
	const connections = Object.fromEntries(
		names
			.slice(0, -1)
			.map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
	);
	return {
		...workflow(
			'e2eCombinedMode001',
			'E2E: Execution Logic v2 (files in json._files)',
			[
				webhookStart(
					{ id: 'v1', name: 'Order', webhookId: '6e4a2c1d-3b5f-4d7e-9a0b-1c2d3e4f5a6b' },
					'e2e-combined',
					'lastNode',
				),
				step('v2', 'Create', 200, {
					templateId: rl(template),
					payload: '={{ $json.body }}',
					additionalFields: { filename: 'combined.pdf' },
				}),
				step('v3', 'Update', 400, {
					resource: 'document',
					operation: 'update',
					documentId: rl('={{ $json.id }}'),
					updateFields: { status: 'pending' },
					waitForCompletion: true,
					download: true,
				}),
				step('v4', 'Download', 600, {
					resource: 'document',
					operation: 'download',
					documentId: rl('={{ $json.id }}'),
				}),
				{
					id: 'v5',
					name: 'Read the file',
					type: 'n8n-nodes-base.crypto',
					typeVersion: 2,
					position: [800, 0],
					parameters: {
						action: 'hash',
						type: 'SHA256',
						binaryData: true,
						binaryPropertyName: '_files.data',
						dataPropertyName: 'pdf_sha256',
					},
				},
			],
			connections,
		),
		settings: { executionOrder: 'v1', binaryMode: 'combined' },
	};
}

/**
 * The instant trigger alone, registered by hand (the service is not told), Download File on:
 * `typeVersion` as the workflow saved it, `binaryMode` the workflow's (Execution Logic v2 is
 * `combined`). Its run's one item is the delivered document with its file.
 */
function instantWorkflow({ id, webhookId, typeVersion, binaryMode }) {
	const name = `Instant ${typeVersion}`;
	return {
		...workflow(
			id,
			`E2E: instant trigger ${typeVersion}, binaryMode ${binaryMode}`,
			[
				{
					id: `${id}-trigger`,
					name,
					type: `${PACKAGE}.documentGenerationWebhookTrigger`,
					typeVersion,
					position: [0, 0],
					webhookId,
					parameters: { events: ['success'], registration: 'manual', download: true },
					credentials,
				},
			],
			{},
		),
		settings: { executionOrder: 'v1', binaryMode },
	};
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
		if (node === trigger)
			return webhookStart(
				{ id: node.id, name: node.name, webhookId: '8f5b3d2e-4c6a-4e8f-a1b2-3c4d5e6f7a8b' },
				'e2e-approval',
				'onReceived',
			);
		if (node.name !== 'Create draft') return node;
		const parameters = {
			...node.parameters,
			templateId: rl(template),
			payload: '={{ $json.body }}',
			additionalFields: {
				filename: '=invoice-{{ $json.body.number }}.pdf',
				meta: '={{ { "order_id": $json.body.order_id } }}',
			},
		};
		return { ...node, parameters };
	});
	return { ...example, nodes, settings: { executionOrder: 'v1' } };
}

/**
 * The certificate example as `n8n execute` can run it: the CLI runs no pinned data, so the
 * Manual Trigger's pinned people come from n8n's Edit Fields (raw JSON) and Split Out, the
 * latter named as the trigger so the example's `$('When clicking …')` expressions read them;
 * the rest as it is (Convert to File, then Create), the badge image template picked.
 */
function certificateWorkflow(sb) {
	const template = sb.templates.find((t) => t.identifier === 'badge').id;
	const file = 'certificate-with-logo.json';
	const example = JSON.parse(
		fs.readFileSync(path.join(__dirname, '..', '..', 'examples', file), 'utf8'),
	);
	const flow = fromExample(file, 'e2eCertificate0001', {});
	const trigger = flow.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	const people = example.pinData[trigger.name].map((item) => item.json);
	const start = { ...trigger, id: 'cert-start', name: 'Start', position: [-440, 0] };
	const listed = {
		id: 'cert-people',
		name: 'People',
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: [-220, 0],
		parameters: { mode: 'raw', jsonOutput: JSON.stringify({ people }), options: {} },
	};
	const split = {
		id: trigger.id,
		name: trigger.name,
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		position: trigger.position,
		parameters: { fieldToSplitOut: 'people', include: 'noOtherFields', options: {} },
	};
	const nodes = flow.nodes.map((node) => {
		if (node === trigger) return split;
		if (node.name !== 'Generate certificate') return node;
		return { ...node, parameters: { ...node.parameters, templateId: rl(template) } };
	});
	const connections = {
		...flow.connections,
		Start: { main: [[{ node: 'People', type: 'main', index: 0 }]] },
		People: { main: [[{ node: trigger.name, type: 'main', index: 0 }]] },
	};
	return { ...flow, nodes: [start, listed, ...nodes], connections, pinData: example.pinData };
}

const CHAT_CREDENTIAL = { id: 'e2eChatCredential1', name: 'Chat stand-in' };

/**
 * The action node as an AI Agent's tool: Manual Trigger → AI Agent, with an OpenAI Chat Model
 * (the stand-in) and "Make payslip" (Create with the payslip's Template Fields, each left to
 * the model) attached.
 */
function agentWorkflow(sb, mapping) {
	const template = sb.templates.find((t) => t.identifier === 'payslip').id;
	const ai = (type) => [[{ node: 'Payslip agent', type, index: 0 }]];
	return workflow(
		'e2eAgentWorkflow01',
		'E2E: an AI agent fills the payslip through its Template Fields',
		[
			{
				id: 'g1',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'g2',
				name: 'Payslip agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: 3.1,
				position: [220, 0],
				parameters: {
					promptType: 'define',
					text: 'Make the December 2026 payslip for Grace Hopper (employee 1906, Compilers).',
					options: {},
				},
			},
			{
				id: 'g3',
				name: 'Chat model',
				type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
				typeVersion: 1.2,
				position: [160, 220],
				parameters: { model: { __rl: true, mode: 'id', value: 'gpt-4o-mini' }, options: {} },
				credentials: { openAiApi: CHAT_CREDENTIAL },
			},
			{
				id: 'g4',
				name: 'Make payslip',
				type: `${PACKAGE}.documentGenerationTool`,
				typeVersion: 1,
				position: [360, 220],
				parameters: {
					descriptionType: 'manual',
					toolDescription:
						'Creates a payslip PDF from the payslip template and waits until it is generated. Returns the document: id, status, filename, download_url.',
					resource: 'document',
					operation: 'create',
					templateId: rl(template),
					payloadMode: 'templateFields',
					mappedFields: mapping,
					waitForCompletion: true,
					download: false,
				},
				credentials,
			},
		],
		{
			Start: { main: [[{ node: 'Payslip agent', type: 'main', index: 0 }]] },
			'Chat model': { ai_languageModel: ai('ai_languageModel') },
			'Make payslip': { ai_tool: ai('ai_tool') },
		},
	);
}

/** The OpenAI credential whose Base URL is the chat stand-in. */
function chatCredential(url) {
	return [{ ...CHAT_CREDENTIAL, type: 'openAiApi', data: { apiKey: 'sk-e2e-stand-in', url } }];
}

function credential(sb, webhookSecret) {
	return [
		{
			...CREDENTIAL,
			type: 'documentGenerationApi',
			data: { apiKey: sb.apiKey, baseUrl: sb.url, webhookSecret },
		},
	];
}

module.exports = {
	agentWorkflow,
	approvalWorkflow,
	certificateWorkflow,
	combinedWorkflow,
	instantWorkflow,
	chatCredential,
	workflows,
	queueWorkflows,
	credential,
	CREDENTIAL,
	PACKAGE,
	LOOP_ITEMS,
	FIELDS_INPUT,
};
