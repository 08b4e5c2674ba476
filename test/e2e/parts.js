'use strict';
// What the end-to-end suite's workflows are made of: the package's name, the sandbox's
// credential, a resource locator by ID, a workflow, and n8n's Webhook node as a start.

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

/** The credential of the package's nodes, as `n8n import:credentials` takes it. */
function credential(sb, webhookSecret) {
	return [
		{
			...CREDENTIAL,
			type: 'documentGenerationApi',
			data: { apiKey: sb.apiKey, baseUrl: sb.url, webhookSecret },
		},
	];
}

module.exports = { PACKAGE, CREDENTIAL, credentials, credential, rl, webhookStart, workflow };
