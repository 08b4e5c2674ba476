/** Workflows and single nodes through n8n-core's WorkflowExecute. */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import {
	Workflow,
	type IConnections,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type IPinData,
	type IRun,
	type IRunData,
	type IWorkflowSettings,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { HarnessCredentialsHelper } from './credentials';
import { MANUAL_TRIGGER_TYPE, loadPackage, type LoadedPackage } from './package';

import {
	attachCredentials,
	buildAdditionalData,
	describeError,
	ensureBinaryData,
	toStore,
	type HarnessCredentials,
	type NodeErrorInfo,
} from './engine';
import { runWorkflowExecute } from './versions';

// Workflows

let executionCounter = 0;

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

/** The harness's start node, emitting `items` (JSON) when the workflow runs. */
export function startNode(items: IDataObject[] = [{}]): INode {
	return {
		id: 'start',
		name: 'Start',
		type: MANUAL_TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { items: items as unknown as INodeParameters[] },
	};
}

/** A node of the package (`type` short, e.g. documentGeneration) named `name`, at `x`. */
export function packageNode(
	pkg: LoadedPackage,
	name: string,
	type: string,
	parameters: INodeParameters,
	x = 200,
): INode {
	return {
		id: name,
		name,
		type: pkg.fullName(type),
		typeVersion: 1,
		position: [x, 0],
		parameters,
	};
}

/** Runs `Start (harness manual trigger) -> node` and returns that node's output. */
export async function runNode(params: RunNodeParams): Promise<RunNodeResult> {
	const pkg = await loadPackage(params.packageDir);
	const node = packageNode(
		pkg,
		NODE_UNDER_TEST,
		params.nodeType ?? 'documentGeneration',
		params.parameters,
	);
	const workflowJson: WorkflowJson = {
		nodes: [
			startNode(params.items),
			{ ...node, typeVersion: params.typeVersion ?? 1, ...(params.nodeSettings ?? {}) },
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
