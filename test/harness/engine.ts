/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- test code: runs in Node under jest, never inside n8n */
/**
 * Runs the loaded package on the real n8n engine (n8n-core 2.41): workflows through
 * WorkflowExecute, polls through PollContext, resource lists through LoadOptionsContext,
 * credential tests through RoutingNode as n8n's CredentialsTester does. Nothing of the engine
 * is faked; only the services n8n's CLI would provide (credential storage, additionalData)
 * are supplied here for tests.
 */
import { Container } from '@n8n/di';
import {
	BinaryDataService,
	ExecuteContext,
	ExecutionLifecycleHooks,
	ExternalSecretsProxy,
	LoadOptionsContext,
	PollContext,
	RoutingNode,
	WorkflowExecute,
} from 'n8n-core';
import {
	Workflow,
	createEmptyRunExecutionData,
	type IBinaryData,
	type IConnections,
	type ICredentialDataDecryptedObject,
	type ICredentialsDecrypted,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeListSearchResult,
	type INodeParameters,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypes,
	type IPinData,
	type IRun,
	type IRunData,
	type IVersionedNodeType,
	type IWorkflowExecuteAdditionalData,
	type IWorkflowSettings,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { HarnessCredentialsHelper, type CredentialStore } from './credentials';
import { MANUAL_TRIGGER_TYPE, loadPackage } from './package';
import { runActivePoll, runWorkflowExecute } from './versions';

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

function toStore(credentials: HarnessCredentials | undefined): CredentialStore {
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
	binaryDataReady ??= Container.get(BinaryDataService).init();
	await binaryDataReady;
}

let executionCounter = 0;

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
		externalSecretsProxy: Container.get(ExternalSecretsProxy),
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
function attachCredentials(nodes: INode[], nodeTypes: INodeTypes, store: CredentialStore): void {
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
// Workflows
// ---------------------------------------------------------------------------------------

/** Workflow JSON as n8n exports it (only the parts the engine needs). */
export interface WorkflowJson {
	id?: string;
	name?: string;
	nodes: INode[];
	connections: IConnections;
	settings?: IWorkflowSettings;
	staticData?: IDataObject;
	pinData?: IPinData;
}

export interface RunWorkflowOptions {
	credentials?: HarnessCredentials;
	/** Name of the node to start from; default: the harness start node, else n8n's choice. */
	startNode?: string;
	/** Execution mode, default `manual` (what "Execute workflow" in the editor uses). */
	mode?: WorkflowExecuteMode;
	/** Directory of the package to load, default this project. */
	packageDir?: string;
}

export interface WorkflowRunResult {
	/** Main outputs of each node's last run (`data[name][outputIndex][itemIndex]`). */
	data: Record<string, INodeExecutionData[][] | undefined>;
	/** The error that stopped the run, if any. */
	error?: NodeErrorInfo;
	/** Errors n8n recorded per node (also those of nodes that continued on fail). */
	nodeErrors: Record<string, NodeErrorInfo>;
	runData: IRunData;
	run: IRun;
	workflow: Workflow;
	credentialsHelper: HarnessCredentialsHelper;
}

/** Runs a workflow on n8n-core's WorkflowExecute with the built package's node types. */
export async function runWorkflow(
	workflowJson: WorkflowJson,
	opts: RunWorkflowOptions = {},
): Promise<WorkflowRunResult> {
	const pkg = await loadPackage(opts.packageDir);
	await ensureBinaryData();
	const store = toStore(opts.credentials);
	const credentialsHelper = new HarnessCredentialsHelper(pkg, store);

	// The engine mutates nodes (defaults are applied in place), so work on a copy.
	const json = structuredClone(workflowJson);
	attachCredentials(json.nodes, pkg.nodeTypes, store);
	const workflowId = json.id ?? 'harness-workflow';
	const workflow = new Workflow({
		id: workflowId,
		name: json.name ?? 'Harness workflow',
		nodes: json.nodes,
		connections: json.connections,
		active: false,
		nodeTypes: pkg.nodeTypes,
		staticData: json.staticData,
		settings: { executionOrder: 'v1', ...(json.settings ?? {}) },
		pinData: json.pinData,
	});

	const mode = opts.mode ?? 'manual';
	const executionId = `harness-${++executionCounter}`;
	const hooks = new ExecutionLifecycleHooks(mode, executionId, {
		id: workflowId,
		name: workflow.name ?? '',
		active: false,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: json.nodes,
		connections: json.connections,
		settings: workflow.settings,
	} as ConstructorParameters<typeof ExecutionLifecycleHooks>[2]);
	const additionalData = buildAdditionalData(credentialsHelper, {
		executionId,
		workflowId,
		hooks,
	});

	const startNode = opts.startNode
		? workflow.getNode(opts.startNode)
		: (json.nodes.find((n) => n.type === MANUAL_TRIGGER_TYPE) ?? undefined);
	if (opts.startNode && !startNode) throw new Error(`No node named "${opts.startNode}"`);

	const run = await runWorkflowExecute(new WorkflowExecute(additionalData, mode), {
		workflow,
		startNode: startNode ?? undefined,
		pinData: json.pinData,
	});

	const runData = run.data.resultData.runData;
	const data: WorkflowRunResult['data'] = {};
	const nodeErrors: WorkflowRunResult['nodeErrors'] = {};
	for (const [name, tasks] of Object.entries(runData)) {
		const last = tasks[tasks.length - 1];
		data[name] = last?.data?.main as INodeExecutionData[][] | undefined;
		const failed = [...tasks].reverse().find((t) => t.error);
		if (failed?.error) nodeErrors[name] = describeError(failed.error, name);
	}
	const runError = run.data.resultData.error;
	return {
		data,
		error: runError ? describeError(runError, run.data.resultData.lastNodeExecuted) : undefined,
		nodeErrors,
		runData,
		run,
		workflow,
		credentialsHelper,
	};
}

/** Node settings n8n stores beside the parameters (`onError`, `continueOnFail`, `retryOnFail`, ...). */
export type NodeSettings = Partial<
	Pick<
		INode,
		| 'onError'
		| 'continueOnFail'
		| 'retryOnFail'
		| 'maxTries'
		| 'waitBetweenTries'
		| 'alwaysOutputData'
		| 'executeOnce'
		| 'disabled'
	>
>;

export interface RunNodeParams {
	parameters: INodeParameters;
	/** Input items (JSON) the start node emits; default one empty item. */
	items?: IDataObject[];
	credentials?: HarnessCredentials;
	nodeSettings?: NodeSettings;
	/** Node type, short or full; default `documentGeneration`. */
	nodeType?: string;
	typeVersion?: number;
	packageDir?: string;
}

export interface RunNodeResult extends WorkflowRunResult {
	/** Items of the node's first (main) output. */
	items: INodeExecutionData[];
	/** All outputs of the node. */
	outputs: INodeExecutionData[][];
	/** The node's error (stopping the run, or recorded while continuing on fail). */
	error?: NodeErrorInfo;
}

/** Name the tested node gets in workflows built by `runNode`. */
export const NODE_UNDER_TEST = 'Document Generation';

/** Runs `Start (harness manual trigger) -> node` and returns that node's output. */
export async function runNode(params: RunNodeParams): Promise<RunNodeResult> {
	const pkg = await loadPackage(params.packageDir);
	const workflowJson: WorkflowJson = {
		nodes: [
			{
				id: 'start',
				name: 'Start',
				type: MANUAL_TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: { items: (params.items ?? [{}]) as unknown as INodeParameters[] },
			},
			{
				id: 'node-under-test',
				name: NODE_UNDER_TEST,
				type: pkg.fullName(params.nodeType ?? 'documentGeneration'),
				typeVersion: params.typeVersion ?? 1,
				position: [200, 0],
				parameters: params.parameters,
				...(params.nodeSettings ?? {}),
			},
		],
		connections: {
			Start: { main: [[{ node: NODE_UNDER_TEST, type: 'main', index: 0 }]] },
		},
	};
	const result = await runWorkflow(workflowJson, {
		credentials: params.credentials,
		packageDir: params.packageDir,
	});
	const outputs = result.data[NODE_UNDER_TEST] ?? [];
	return {
		...result,
		items: outputs[0] ?? [],
		outputs,
		error: result.nodeErrors[NODE_UNDER_TEST] ?? result.error,
	};
}

// ---------------------------------------------------------------------------------------
// Polling
// ---------------------------------------------------------------------------------------

export interface PollerParams {
	parameters: INodeParameters;
	credentials?: HarnessCredentials;
	/** Initial static data of the trigger node. */
	staticData?: IDataObject;
	/** Node type, short or full; default `documentGenerationTrigger`. */
	nodeType?: string;
	typeVersion?: number;
	packageDir?: string;
}

export interface Poller {
	/**
	 * One poll through n8n-core's PollContext.
	 * - `trigger` (default): a scheduled poll of an active workflow. Static data changes are
	 *   kept — unless the poll throws: n8n does not save the static data of a failed poll,
	 *   so it is restored to what it was before, and the error is rethrown.
	 * - `manual`: the editor's "Fetch test event". n8n does not save static data of manual
	 *   executions, so it is restored afterwards in every case.
	 * Returns what `poll()` returned: the items to emit, or null.
	 */
	poll(mode?: 'trigger' | 'manual'): Promise<INodeExecutionData[][] | null>;
	/** The trigger node's static data (`getWorkflowStaticData('node')`), live. */
	staticData(): IDataObject;
	/** The whole workflow static data, live. */
	workflowStaticData(): IDataObject;
	/** Replaces the stored credential data (e.g. to simulate a revoked key). */
	setCredentials(credentials: HarnessCredentials): void;
	workflow: Workflow;
	node: INode;
}

export const TRIGGER_UNDER_TEST = 'Document Generation Trigger';

/** Snapshot of static data as plain JSON (static data is always JSON-serialisable in n8n). */
function snapshot(data: IDataObject): IDataObject {
	const plain = JSON.parse(JSON.stringify(data)) as IDataObject;
	delete plain.__dataChanged;
	return plain;
}

function restore(target: IDataObject, saved: IDataObject): void {
	for (const key of Object.keys(target)) {
		if (key !== '__dataChanged') delete target[key];
	}
	Object.assign(target, structuredClone(saved));
}

/** A polling trigger node in a Workflow whose static data persists between polls. */
export async function createPoller(params: PollerParams): Promise<Poller> {
	const pkg = await loadPackage(params.packageDir);
	await ensureBinaryData();
	let store = toStore(params.credentials);
	const node: INode = {
		id: 'trigger-under-test',
		name: TRIGGER_UNDER_TEST,
		type: pkg.fullName(params.nodeType ?? 'documentGenerationTrigger'),
		typeVersion: params.typeVersion ?? 1,
		position: [0, 0],
		parameters: structuredClone(params.parameters),
	};
	attachCredentials([node], pkg.nodeTypes, store);
	const workflow = new Workflow({
		id: 'harness-poll-workflow',
		name: 'Harness poll workflow',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes: pkg.nodeTypes,
		staticData: params.staticData
			? { [`node:${node.name}`]: structuredClone(params.staticData) }
			: {},
		settings: { executionOrder: 'v1' },
	});
	const wfNode = workflow.getNode(node.name) as INode;

	const poller: Poller = {
		workflow,
		node: wfNode,
		staticData: () => workflow.getStaticData('node', wfNode),
		workflowStaticData: () => workflow.staticData,
		setCredentials: (credentials) => {
			store = toStore(credentials);
		},
		async poll(mode = 'trigger') {
			const before = snapshot(workflow.staticData);
			const additionalData = buildAdditionalData(new HarnessCredentialsHelper(pkg, store), {
				workflowId: workflow.id,
			});
			try {
				if (mode === 'manual') {
					// What WorkflowExecute.executePollNode does for a manual run.
					const context = new PollContext(workflow, wfNode, additionalData, 'manual', 'manual');
					const nodeType = workflow.nodeTypes.getByNameAndVersion(wfNode.type, wfNode.typeVersion);
					if (!nodeType.poll) throw new Error(`${wfNode.type} has no poll()`);
					return (await nodeType.poll.call(context)) ?? null;
				}
				// What an active workflow's poll does (PollTriggerExecutor -> TriggersAndPollers).
				const context = new PollContext(
					workflow,
					wfNode,
					additionalData,
					'trigger',
					'activate',
					() => {},
					() => {},
				);
				return (await runActivePoll(workflow, wfNode, context)) ?? null;
			} catch (error) {
				restore(workflow.staticData, before);
				throw error;
			} finally {
				if (mode === 'manual') restore(workflow.staticData, before);
			}
		},
	};
	return poller;
}

// ---------------------------------------------------------------------------------------
// Dynamic parameters (loadOptions / listSearch), as the editor asks for them
// ---------------------------------------------------------------------------------------

export interface DynamicParamsOptions {
	/** The node's current parameters (as the editor sends them). */
	parameters?: INodeParameters;
	credentials?: HarnessCredentials;
	filter?: string;
	paginationToken?: string;
	/** Path of the parameter asking, e.g. `parameters.templateId`. */
	path?: string;
	/** Node type, short or full; default `documentGeneration`. */
	nodeType?: string;
	typeVersion?: number;
	packageDir?: string;
}

async function dynamicContext(opts: DynamicParamsOptions) {
	const pkg = await loadPackage(opts.packageDir);
	const store = toStore(opts.credentials);
	const node: INode = {
		id: 'harness-options-node',
		name: 'Options Source',
		type: pkg.fullName(opts.nodeType ?? 'documentGeneration'),
		typeVersion: opts.typeVersion ?? 1,
		position: [0, 0],
		parameters: structuredClone(opts.parameters ?? {}),
	};
	attachCredentials([node], pkg.nodeTypes, store);
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: pkg.nodeTypes,
	});
	const wfNode = workflow.getNode(node.name) as INode;
	const additionalData = buildAdditionalData(new HarnessCredentialsHelper(pkg, store), {
		currentNodeParameters: wfNode.parameters,
	});
	const context = new LoadOptionsContext(
		workflow,
		wfNode,
		additionalData,
		opts.path ?? 'parameters',
	);
	const nodeType = workflow.nodeTypes.getByNameAndVersion(wfNode.type, wfNode.typeVersion);
	return { context, nodeType };
}

/** Calls `methods.loadOptions[method]` through n8n-core's LoadOptionsContext. */
export async function loadOptions(
	method: string,
	opts: DynamicParamsOptions = {},
): Promise<INodePropertyOptions[]> {
	const { context, nodeType } = await dynamicContext(opts);
	const fn = nodeType.methods?.loadOptions?.[method];
	if (typeof fn !== 'function') throw new Error(`No loadOptions method "${method}"`);
	return await fn.call(context);
}

/** Calls `methods.listSearch[method](filter, paginationToken)` through LoadOptionsContext. */
export async function listSearch(
	method: string,
	opts: DynamicParamsOptions = {},
): Promise<INodeListSearchResult> {
	const { context, nodeType } = await dynamicContext(opts);
	const fn = nodeType.methods?.listSearch?.[method];
	if (typeof fn !== 'function') throw new Error(`No listSearch method "${method}"`);
	return await fn.call(context, opts.filter, opts.paginationToken);
}

// ---------------------------------------------------------------------------------------
// Credential test
// ---------------------------------------------------------------------------------------

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/**
 * Runs the credential type's `test` request the way n8n's CredentialsTester does: a
 * declarative temp node whose only property routes to the test request, executed by
 * n8n-core's RoutingNode (which resolves the `={{$credentials...}}` expressions and sends the
 * request through httpRequestWithAuthentication, i.e. the type's `authenticate`).
 */
export async function testCredential(
	credentials: HarnessCredentials,
	opts: { type?: string; packageDir?: string } = {},
): Promise<CredentialTestResult> {
	const pkg = await loadPackage(opts.packageDir);
	const type = opts.type ?? CREDENTIAL_TYPE;
	const credentialType = pkg.credentialType(type);
	if (!credentialType.test) {
		return { status: 'Error', message: `The credential type ${type} declares no test request` };
	}
	const store = toStore(credentials);
	const helper = new HarnessCredentialsHelper(pkg, store);
	const additionalData = buildAdditionalData(helper);
	// Defaults of the credential's properties apply, as when n8n tests a saved credential.
	const data = await helper.getDecrypted(additionalData, { id: 'harness', name: type }, type);
	const credentialsDecrypted: ICredentialsDecrypted = {
		id: `harness-${type}`,
		name: type,
		type,
		data,
	};

	// Like n8n, run the credential's declared test request through the routing engine, from a
	// throwaway node whose only property routes to that request.
	const testNodeType: INodeType = {
		description: {
			displayName: 'Harness Credential Check',
			name: 'harness.credentialCheck',
			group: ['organization'],
			version: 1,
			description: 'Sends the credential test request',
			defaults: { name: 'Harness Credential Check' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: type, required: true }],
			properties: [
				{
					displayName: 'Check',
					name: 'check',
					type: 'string',
					routing: { request: credentialType.test.request },
					default: '',
				},
			],
		},
	};
	const nodeTypes: INodeTypes = {
		getByName: () => testNodeType as INodeType | IVersionedNodeType,
		getByNameAndVersion: () => testNodeType,
		getKnownTypes: () => ({}),
	};
	const node: INode = {
		id: 'credential-check',
		name: 'Credential Check',
		type: testNodeType.description.name,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [type]: { id: credentialsDecrypted.id, name: credentialsDecrypted.name } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createEmptyRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);

	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await new RoutingNode(context, testNodeType, credentialsDecrypted).runNode();
	} catch (error) {
		const cause = (
			error as { cause?: { response?: { status: number; statusText?: string }; code?: string } }
		).cause;
		if (cause?.response) {
			const { status, statusText } = cause.response;
			for (const rule of credentialType.test.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (status < 200 || status > 299) {
				return { status: 'Error', message: statusText || `Received HTTP status code: ${status}` };
			}
		} else if (cause?.code) {
			return { status: 'Error', message: cause.code };
		}
		return { status: 'Error', message: String((error as Error).message) };
	}
	for (const rule of credentialType.test.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const body = response?.[0]?.[0]?.json ?? {};
		const value = rule.properties.key
			.split('.')
			.reduce<unknown>((v, k) => (v as IDataObject | undefined)?.[k], body);
		if (value === rule.properties.value)
			return { status: 'Error', message: rule.properties.message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}

// ---------------------------------------------------------------------------------------
// Binary data
// ---------------------------------------------------------------------------------------

/** The bytes of a binary property, wherever n8n stored them (by id or inline base64). */
export async function getBinaryBuffer(binary: IBinaryData): Promise<Buffer> {
	await ensureBinaryData();
	return await Container.get(BinaryDataService).getAsBuffer(binary);
}
