/**
 * The engine plumbing the other harness files share: credentials given to a run, the
 * additionalData n8n's CLI would build, error descriptions, binary data. Nothing of the engine
 * is faked; only the services n8n's CLI would provide are supplied here. Runs live in
 * workflows.ts (WorkflowExecute), poller.ts (PollContext) and editor.ts (LoadOptionsContext,
 * the credential test through RoutingNode).
 */
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * Runs the loaded package on the real n8n engine (n8n-core 2.41): workflows through
 * WorkflowExecute, polls through PollContext, resource lists through LoadOptionsContext,
 * credential tests through RoutingNode as n8n's CredentialsTester does. Nothing of the engine
 * is faked; only the services n8n's CLI would provide (credential storage, additionalData)
 * are supplied here for tests.
 */
import { Container } from '@n8n/di';
import * as core from 'n8n-core';
import { BinaryDataService } from 'n8n-core';
import {
	Workflow,
	type IBinaryData,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type INode,
	type INodeType,
	type INodeTypes,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { HarnessCredentialsHelper, type CredentialStore } from './credentials';
import { loadPackage, type LoadedPackage } from './package';
import { initBinaryData } from './versions';

// ---------------------------------------------------------------------------------------
// Credentials given to the harness
// ---------------------------------------------------------------------------------------

/** Decrypted data of a `documentGenerationApi` credential. */
export interface DgCredentials {
	apiKey: string;
	baseUrl?: string;
}

export const CREDENTIAL_TYPE = 'documentGenerationApi';

/** Either the data of a `documentGenerationApi` credential, or data per credential type. */
export type HarnessCredentials = DgCredentials | CredentialStore;

/** Credential data pointing at a sandbox (`{ url, apiKey }` as `startSandbox()` returns). */
export function credentialsFor(sandbox: { url: string; apiKey: string }): Required<DgCredentials> {
	return { baseUrl: sandbox.url, apiKey: sandbox.apiKey };
}

export function toStore(credentials: HarnessCredentials | undefined): CredentialStore {
	if (!credentials) return {};
	if (typeof (credentials as DgCredentials).apiKey === 'string') {
		return {
			[CREDENTIAL_TYPE]: { ...(credentials as DgCredentials) } as ICredentialDataDecryptedObject,
		};
	}
	return structuredClone(credentials as CredentialStore);
}

// ---------------------------------------------------------------------------------------
// Engine plumbing
// ---------------------------------------------------------------------------------------

let binaryDataReady: Promise<void> | undefined;

/** Initialises n8n-core's BinaryDataService once (filesystem mode below N8N_USER_FOLDER). */
export async function ensureBinaryData(): Promise<void> {
	binaryDataReady ??= initBinaryData(
		Container.get(BinaryDataService) as unknown as Parameters<typeof initBinaryData>[0],
	);
	await binaryDataReady;
}

/** The IWorkflowExecuteAdditionalData n8n's CLI would build, reduced to what tests need. */
export function buildAdditionalData(
	credentialsHelper: HarnessCredentialsHelper,
	extra: Partial<IWorkflowExecuteAdditionalData> = {},
): IWorkflowExecuteAdditionalData {
	const unsupported = (what: string) => async () => {
		throw new Error(`${what} is not supported by the test harness`);
	};
	const base = 'http://localhost:5678';
	return {
		credentialsHelper,
		executeWorkflow: unsupported('executeWorkflow'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: unsupported('startRunnerTask'),
		// n8n-core before 1.9x has no external secrets proxy (nor needs one).
		...(core.ExternalSecretsProxy
			? { externalSecretsProxy: Container.get(core.ExternalSecretsProxy) }
			: {}),
		currentNodeExecutionIndex: 0,
		restApiUrl: `${base}/rest`,
		instanceBaseUrl: `${base}/`,
		formBaseUrl: `${base}/form`,
		formWaitingBaseUrl: `${base}/form-waiting`,
		formTestBaseUrl: `${base}/form-test`,
		webhookBaseUrl: `${base}/webhook`,
		webhookWaitingBaseUrl: `${base}/webhook-waiting`,
		webhookTestBaseUrl: `${base}/webhook-test`,
		mcpBaseUrl: `${base}/mcp`,
		mcpTestBaseUrl: `${base}/mcp-test`,
		userId: 'harness-user',
		variables: {},
		logAiEvent: () => {},
		...extra,
	} as IWorkflowExecuteAdditionalData;
}

/** Gives every node that declares a credential type the harness has data for a reference to it. */
export function attachCredentials(
	nodes: INode[],
	nodeTypes: INodeTypes,
	store: CredentialStore,
): void {
	for (const node of nodes) {
		let description: INodeType['description'];
		try {
			description = nodeTypes.getByNameAndVersion(node.type, node.typeVersion).description;
		} catch {
			continue;
		}
		for (const { name } of description.credentials ?? []) {
			if (!store[name] || node.credentials?.[name]) continue;
			node.credentials = { ...(node.credentials ?? {}), [name]: { id: `harness-${name}`, name } };
		}
	}
}

/** A trigger of the package in a one-node workflow, as the poller and the webhook harness run it. */
export interface TriggerUnderTest {
	pkg: LoadedPackage;
	workflow: Workflow;
	/** The workflow's own copy of the node. */
	node: INode;
	/** The additionalData of one call (a poll, a lifecycle method, a delivery). */
	additionalData: (
		extra?: Partial<IWorkflowExecuteAdditionalData>,
	) => IWorkflowExecuteAdditionalData;
	/** Credentials for the calls from now on. */
	setCredentials: (credentials: HarnessCredentials) => void;
}

/**
 * The package loaded, binary data ready, and the trigger `node` (its `type` short) in an
 * active one-node workflow like the ones n8n keeps for its polls, hooks and deliveries:
 * credentials attached, and the node's static data (when given) under the node's key.
 */
export async function startTrigger(args: {
	id: string;
	node: Omit<INode, 'position'>;
	credentials?: HarnessCredentials;
	staticData?: IDataObject;
	packageDir?: string;
}): Promise<TriggerUnderTest> {
	const pkg = await loadPackage(args.packageDir);
	await ensureBinaryData();
	let store = toStore(args.credentials);
	const node: INode = { ...args.node, type: pkg.fullName(args.node.type), position: [0, 0] };
	attachCredentials([node], pkg.nodeTypes, store);
	const workflow = new Workflow({
		id: args.id,
		name: `Harness workflow ${args.id}`,
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes: pkg.nodeTypes,
		staticData: args.staticData ? { [`node:${node.name}`]: structuredClone(args.staticData) } : {},
		settings: { executionOrder: 'v1' },
	});
	return {
		pkg,
		workflow,
		node: workflow.getNode(node.name) as INode,
		additionalData: (extra = {}) =>
			buildAdditionalData(new HarnessCredentialsHelper(pkg, store), {
				workflowId: workflow.id,
				...extra,
			}),
		setCredentials: (credentials) => {
			store = toStore(credentials);
		},
	};
}

// ---------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------

/** What a test wants to know about an error n8n recorded for a node or a run. */
export interface NodeErrorInfo {
	/** Class name (`NodeApiError`, `NodeOperationError`, ...). */
	name: string;
	message: string;
	description?: string | null;
	itemIndex?: number;
	httpCode?: string | null;
	/** The node it was recorded for, when known. */
	node?: string;
	context?: IDataObject;
	/** The error object as n8n stored it (WorkflowExecute keeps a spread copy, not the instance). */
	raw: unknown;
}

export function describeError(error: unknown, nodeName?: string): NodeErrorInfo {
	const e = (error ?? {}) as Record<string, unknown>;
	const context = (e.context as IDataObject | undefined) ?? undefined;
	const node = (e.node as INode | undefined)?.name ?? nodeName;
	return {
		name:
			(typeof e.name === 'string' && e.name) ||
			(error instanceof Error ? error.constructor.name : 'Error'),
		message: String(e.message ?? error),
		description: e.description as string | null | undefined,
		itemIndex: (context?.itemIndex as number | undefined) ?? (e.itemIndex as number | undefined),
		httpCode: e.httpCode as string | null | undefined,
		node,
		context,
		raw: error,
	};
}

// ---------------------------------------------------------------------------------------
// ---------------------------------------------------------------------------------------
// Binary data
// ---------------------------------------------------------------------------------------

/** The bytes of a binary property, wherever n8n stored them (by id or inline base64). */
export async function getBinaryBuffer(binary: IBinaryData): Promise<Buffer> {
	await ensureBinaryData();
	return await Container.get(BinaryDataService).getAsBuffer(binary);
}
