'use strict';
// The workflows the end-to-end suite imports into n8n, built for one sandbox.

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
				{
					id: 'a2',
					name: 'Generate invoice',
					type: `${PACKAGE}.documentGeneration`,
					typeVersion: 1,
					position: [220, 0],
					parameters: {
						templateId: rl(template('invoice')),
						payload: '{"number": "INV-E2E-1", "customer": {"name": "Ada Lovelace"}, "total": 42}',
						additionalFields: { filename: 'invoice-e2e.pdf', meta: '{"order_id": "E2E-1"}' },
					},
					credentials,
				},
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

function credential(sb, webhookSecret) {
	return [
		{
			...CREDENTIAL,
			type: 'documentGenerationApi',
			data: { apiKey: sb.apiKey, baseUrl: sb.url, webhookSecret },
		},
	];
}

module.exports = { workflows, credential, CREDENTIAL, PACKAGE };
