'use strict';
// The workflows the end-to-end suite imports into n8n, built for one sandbox (the examples of
// examples/: examples.js; the AI Agent's: agent.js; Execution Logic v2's and the instant
// trigger's at each version: waiting.js).

const { PACKAGE, CREDENTIAL, credential, credentials, rl, workflow } = require('./parts');
const { fromExample } = require('./examples');

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

module.exports = {
	workflows,
	queueWorkflows,
	credential,
	CREDENTIAL,
	PACKAGE,
	LOOP_ITEMS,
	FIELDS_INPUT,
};
