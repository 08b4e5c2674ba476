/* eslint-disable @n8n/community-nodes/require-node-api-error -- test code: runs in Node under jest, never inside n8n */
/** Polls through n8n-core's PollContext, with static data kept between polls. */
import { PollContext } from 'n8n-core';
import {
	type Workflow,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
} from 'n8n-workflow';

import { startTrigger, type HarnessCredentials } from './engine';
import { runActivePoll } from './versions';

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
	const trigger = await startTrigger({
		id: 'harness-poll-workflow',
		node: {
			id: 'trigger-under-test',
			name: TRIGGER_UNDER_TEST,
			type: params.nodeType ?? 'documentGenerationTrigger',
			typeVersion: params.typeVersion ?? 1,
			parameters: structuredClone(params.parameters),
		},
		credentials: params.credentials,
		staticData: params.staticData,
		packageDir: params.packageDir,
	});
	const { workflow, node: wfNode } = trigger;

	const poller: Poller = {
		workflow,
		node: wfNode,
		staticData: () => workflow.getStaticData('node', wfNode),
		workflowStaticData: () => workflow.staticData,
		setCredentials: trigger.setCredentials,
		async poll(mode = 'trigger') {
			const before = snapshot(workflow.staticData);
			const additionalData = trigger.additionalData();
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
