/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The webhook trigger as n8n drives it: its lifecycle methods (checkExists, create, delete)
 * through n8n-core's HookContext, and each real HTTP delivery through n8n-core's
 * WebhookContext. A local HTTP server stands where n8n's webhook endpoint is: it reads the
 * raw body when n8n does (every delivery at version 1; above it the types n8n parses), calls the node's `webhook()`, answers the way n8n does
 * for `responseMode: onReceived`, and records every execution the node started.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

import { HookContext, WebhookContext } from 'n8n-core';
import {
	type IDataObject,
	type INodeExecutionData,
	type INodeParameters,
	type IWebhookData,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { startTrigger, type HarnessCredentials } from './engine';
import { nodeParametersWithDefaults } from './versions';

export interface WebhookTriggerParams {
	parameters: INodeParameters;
	credentials?: HarnessCredentials;
	staticData?: IDataObject;
	/** The workflow's id (default: a new one per trigger); two triggers with one id share memory. */
	workflowId?: string;
	/** The node's version as the workflow saved it (default 1). */
	typeVersion?: number;
}

export interface Received {
	status: number;
	body: string;
	/** The items of the execution the delivery started, if it started one. */
	started?: INodeExecutionData[];
}

export interface WebhookTrigger {
	/** The URL n8n would register (its production webhook URL), served by the harness. */
	url: string;
	checkExists(): Promise<boolean>;
	create(): Promise<boolean>;
	delete(): Promise<boolean>;
	/** Every delivery received, in order. */
	received: Received[];
	/** The executions started, one per delivery that started one. */
	executions(): INodeExecutionData[][];
	staticData(): IDataObject;
	setParameters(parameters: INodeParameters): void;
	setCredentials(credentials: HarnessCredentials): void;
	close(): Promise<void>;
}

/**
 * A response object with the parts of express's that `webhook()` uses; what is sent is
 * recorded in `entry` (every answer goes through `json` or `send`).
 */
function expressLike(res: http.ServerResponse, entry: Received) {
	const shim = res as http.ServerResponse & {
		status(code: number): typeof shim;
		json(body: unknown): typeof shim;
		send(body: unknown): typeof shim;
	};
	shim.status = (code: number) => {
		res.statusCode = code;
		return shim;
	};
	shim.send = (body: unknown) => {
		entry.status = res.statusCode;
		entry.body = typeof body === 'string' ? body : JSON.stringify(body);
		res.end(entry.body);
		return shim;
	};
	shim.json = (body: unknown) => {
		res.setHeader('content-type', 'application/json');
		return shim.send(JSON.stringify(body));
	};
	return shim;
}

/** The content types n8n's webhook server parses before a node above version 1 runs. */
function parsedAboveVersion1(contentType: string | undefined): boolean {
	const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
	return (
		type === 'application/json' ||
		type === 'text/plain' ||
		type === 'application/x-www-form-urlencoded' ||
		type.endsWith('/xml') ||
		type.endsWith('+xml')
	);
}

/**
 * The request as n8n's webhook server hands it to the node: the body read before the node runs
 * (`rawBody`, and `body` parsed from JSON) for every content type at version 1, and above it
 * only for the types n8n parses; `readRawBody`, n8n's reader, is there in every case.
 */
function requestAsN8nGivesIt(req: http.IncomingMessage, bytes: Buffer, typeVersion: number) {
	const request = Object.assign(req, {
		body: {} as unknown,
		rawBody: undefined as Buffer | undefined,
		query: {},
		params: {},
		readRawBody: async () => {
			request.rawBody ??= bytes;
		},
	});
	if (typeVersion > 1 && !parsedAboveVersion1(req.headers['content-type'])) return request;
	request.rawBody = bytes;
	try {
		request.body = bytes.length ? JSON.parse(bytes.toString('utf8')) : {};
	} catch {
		request.body = {};
	}
	return request;
}

/** Each trigger is a workflow of its own: what the node keeps in its process stays its own. */
let triggersMade = 0;

export async function createWebhookTrigger(params: WebhookTriggerParams): Promise<WebhookTrigger> {
	const typeVersion = params.typeVersion ?? 1;
	const trigger = await startTrigger({
		id: params.workflowId ?? `harness-webhook-workflow-${++triggersMade}`,
		node: {
			id: 'webhook-trigger-under-test',
			name: 'Webhook Trigger',
			type: 'documentGenerationWebhookTrigger',
			typeVersion,
			webhookId: '5f0d6b8e-1c2a-4e5f-9a7b-3c4d5e6f7a8b',
			parameters: structuredClone(params.parameters),
		},
		credentials: params.credentials,
		staticData: params.staticData,
	});
	const { workflow, node: wfNode } = trigger;
	const nodeType = workflow.nodeTypes.getByNameAndVersion(wfNode.type, typeVersion);
	const description = nodeType.description.webhooks![0];
	const received: Received[] = [];

	let baseUrl = '';
	const additional = (extra: IDataObject = {}) =>
		trigger.additionalData({
			webhookBaseUrl: `${baseUrl}/webhook`,
			webhookTestBaseUrl: `${baseUrl}/webhook-test`,
			...extra,
		});
	const webhookData = (): IWebhookData =>
		({
			httpMethod: 'POST',
			node: wfNode.name,
			path: `${wfNode.webhookId}/${String(description.path)}`,
			webhookDescription: description,
			workflowId: workflow.id,
			webhookId: wfNode.webhookId,
		}) as IWebhookData;

	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const request = requestAsN8nGivesIt(req, Buffer.concat(chunks), typeVersion);
			const entry: Received = { status: 0, body: '' };
			received.push(entry);
			const response = expressLike(res, entry);
			const context = new WebhookContext(
				workflow,
				wfNode,
				additional({ httpRequest: request, httpResponse: response }) as never,
				'webhook',
				webhookData(),
				[],
				null,
			);
			nodeType
				.webhook!.call(context)
				.then((result: IWebhookResponseData) => {
					if (result.workflowData) entry.started = result.workflowData[0];
					if (!result.noWebhookResponse) {
						response
							.status(200)
							.json(result.webhookResponse ?? { message: 'Workflow was started' });
					}
				})
				.catch((error: Error) => {
					response.status(500).json({ message: error.message });
				});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

	const hook = (method: 'checkExists' | 'create' | 'delete') => async () => {
		const context = new HookContext(
			workflow,
			wfNode,
			additional() as never,
			'trigger',
			'activate',
			webhookData(),
		);
		const fn = nodeType.webhookMethods?.default?.[method];
		if (!fn) throw new Error(`the webhook trigger has no ${method} method`);
		return (await fn.call(context)) as boolean;
	};

	return {
		get url() {
			return `${baseUrl}/webhook/${wfNode.webhookId}/${String(description.path)}`;
		},
		checkExists: hook('checkExists'),
		create: hook('create'),
		delete: hook('delete'),
		received,
		executions: () => received.filter((r) => r.started).map((r) => r.started!),
		staticData: () => workflow.getStaticData('node', wfNode),
		setParameters(parameters) {
			// As the editor stores them: with the defaults of every parameter filled in.
			wfNode.parameters = nodeParametersWithDefaults(
				nodeType.description.properties,
				structuredClone(parameters),
				wfNode,
				nodeType.description,
			)!;
		},
		setCredentials: trigger.setCredentials,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
