/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The few places where n8n-core 1.x and 2.x differ in what the harness calls. Everything
 * else of the engine is the same API on both lines; `npm run test:compat` runs the engine
 * suites on the 1.x line through these.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { Container } from '@n8n/di';
import * as core from 'n8n-core';
import * as workflowLib from 'n8n-workflow';
import type { PollContext, WorkflowExecute } from 'n8n-core';
import type {
	INode,
	INodeExecutionData,
	INodeIssues,
	INodeParameters,
	INodeProperties,
	INodeTypeDescription,
	IPinData,
	IRun,
	IRunExecutionData,
	Workflow,
} from 'n8n-workflow';

/** The version of the n8n-core the tests run on (2.x, or 1.x under test:compat). */
const CORE_VERSION: string = (
	JSON.parse(readFileSync(require.resolve('n8n-core/package.json'), 'utf8')) as { version: string }
).version;
export const CORE_MAJOR = Number(CORE_VERSION.split('.')[0]);
/** Whether n8n-core's binary store reads a stream of text chunks (1.1xx's takes bytes only). */
export const STORE_READS_TEXT = CORE_MAJOR !== 1 || Number(CORE_VERSION.split('.')[1]) < 100;

type PollRunner = (
	workflow: Workflow,
	node: INode,
	context: PollContext,
) => Promise<INodeExecutionData[][] | null>;

/**
 * What an active workflow's poll runs through: n8n-core's TriggersAndPollers service. 2.x
 * exports it, with `runPollFunction`; 1.x keeps it under its own path, with `runPoll`.
 */
export async function runActivePoll(workflow: Workflow, node: INode, context: PollContext) {
	const exported = (core as Record<string, unknown>).TriggersAndPollers as
		| (new () => { runPollFunction: PollRunner })
		| undefined;
	if (exported) return await Container.get(exported).runPollFunction(workflow, node, context);
	const { TriggersAndPollers: legacy } = (await import(
		'n8n-core/dist/execution-engine/triggers-and-pollers'
	)) as unknown as {
		TriggersAndPollers: new () => { runPoll: PollRunner };
	};
	return await Container.get(legacy).runPoll(workflow, node, context);
}

/** `WorkflowExecute.run`: one options object on 2.x, positional arguments on 1.x. */
export async function runWorkflowExecute(
	executor: WorkflowExecute,
	options: { workflow: Workflow; startNode?: INode; pinData?: IPinData },
): Promise<IRun> {
	if (CORE_MAJOR >= 2) return await executor.run(options);
	const legacy = executor.run as unknown as (
		workflow: Workflow,
		startNode?: INode,
		destinationNode?: undefined,
		pinData?: IPinData,
	) => Promise<IRun>;
	return await legacy.call(
		executor,
		options.workflow,
		options.startNode,
		undefined,
		options.pinData,
	);
}

/**
 * What n8n says when a parameter's own validation stops a run before the node: 2.x names the
 * parameter's problem, 1.x only says the workflow has issues.
 */
export function parameterIssue(detail: RegExp): RegExp {
	return CORE_MAJOR >= 2 ? detail : /The workflow has issues/;
}

/**
 * Starts n8n-core's binary data service in filesystem mode below N8N_USER_FOLDER: 2.x reads
 * its own config, n8n-core before 1.9x (`init(config)`) is handed one.
 */
export async function initBinaryData(service: { init: (...args: unknown[]) => Promise<void> }) {
	if (service.init.length === 0) return await service.init();
	const folder = process.env.N8N_USER_FOLDER ?? '.';
	return await service.init({
		mode: 'filesystem',
		availableModes: ['filesystem'],
		localStoragePath: join(folder, '.n8n', 'binaryData'),
	});
}

/** An empty run's execution data: n8n-workflow's own helper, or (before 1.9x) its shape. */
export function emptyRunExecutionData(): IRunExecutionData {
	const create = (workflowLib as Record<string, unknown>).createEmptyRunExecutionData as
		| (() => IRunExecutionData)
		| undefined;
	if (create) return create();
	return {
		startData: {},
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			nodeExecutionStack: [],
			metadata: {},
			waitingExecution: {},
			waitingExecutionSource: {},
		},
	} as unknown as IRunExecutionData;
}

/**
 * The parameter issues n8n's editor would show for a node: n8n-workflow's
 * `getNodeParametersIssues` takes the node type's description third since 1.84; before, the
 * third argument was a list of pinned nodes.
 */
export function nodeParameterIssues(
	properties: INodeProperties[],
	node: INode,
	description: INodeTypeDescription,
): INodeIssues | null {
	const { getNodeParametersIssues } = workflowLib.NodeHelpers as unknown as {
		getNodeParametersIssues: (...args: unknown[]) => INodeIssues | null;
	};
	return newParameterApi()
		? getNodeParametersIssues(properties, node, description)
		: getNodeParametersIssues(properties, node);
}

/** Whether n8n-workflow's NodeHelpers take the node type's description (since 1.84). */
function newParameterApi(): boolean {
	return workflowLib.NodeHelpers.getNodeParametersIssues.length >= 4;
}

/**
 * A node's parameters with the defaults filled in, as the editor stores them
 * (`getNodeParameters`: the node type's description is its sixth argument since n8n-workflow
 * 1.84; before, the sixth was `onlySimpleTypes`).
 */
export function nodeParametersWithDefaults(
	properties: INodeProperties[],
	values: INodeParameters,
	node: INode,
	description: INodeTypeDescription,
): INodeParameters | null {
	const { getNodeParameters } = workflowLib.NodeHelpers as unknown as {
		getNodeParameters: (...args: unknown[]) => INodeParameters | null;
	};
	return newParameterApi()
		? getNodeParameters(properties, values, true, false, node, description)
		: getNodeParameters(properties, values, true, false, node);
}

/**
 * n8n-core 1.x's SSH tunnel manager (made when a node first runs) starts a one-minute cleanup
 * interval it never unrefs (2.x unrefs it), which keeps a jest run in one process (each
 * version of `npm run test:compat`) alive for ever after its tests ended. On 1.x it is made
 * here first, with that one interval unref'd as 2.x does; nothing else of it changes.
 */
export async function unrefSshCleanupOn1x(): Promise<void> {
	if (CORE_MAJOR >= 2) return;
	const { SSHClientsManager } = (await import(
		'n8n-core/dist/execution-engine/ssh-clients-manager'
	)) as unknown as { SSHClientsManager: new () => unknown };
	const original = global.setInterval;
	global.setInterval = ((...args: Parameters<typeof setInterval>) =>
		original(...args).unref()) as typeof setInterval;
	try {
		Container.get(SSHClientsManager);
	} finally {
		global.setInterval = original;
	}
}
