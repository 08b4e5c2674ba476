/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The example workflows (importable n8n JSON in examples/) and what it takes to run them
 * on the harness: n8n's Manual Trigger becomes the harness start node (emitting the pinned
 * items the example carries), sticky notes (which n8n never runs) are left out, and template pickers left empty for the user get a template ID.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { MANUAL_TRIGGER_TYPE, type WorkflowJson } from '../harness';

export const EXAMPLES_DIR = path.resolve(__dirname, '..', '..', 'examples');
export const N8N_MANUAL_TRIGGER = 'n8n-nodes-base.manualTrigger';
export const N8N_STICKY_NOTE = 'n8n-nodes-base.stickyNote';
export const PACKAGE_NAME = 'n8n-nodes-document-generation';

/** Example workflow JSON as n8n exports it (pinned data in `{ json }` items). */
export interface ExampleWorkflow extends Omit<WorkflowJson, 'pinData'> {
	name: string;
	pinData?: Record<string, Array<{ json: IDataObject }>>;
}

/** File names of the example workflows. */
export function exampleFiles(): string[] {
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort();
}

export function readExample(file: string): ExampleWorkflow {
	return JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as ExampleWorkflow;
}

export interface HarnessMapping {
	/** ID put into template pickers the example leaves empty (the user picks one on import). */
	templateId?: string;
	/** ID put into workspace pickers the example leaves empty. */
	workspaceId?: string;
}

function isEmptyLocator(value: unknown): boolean {
	return (
		!!value &&
		typeof value === 'object' &&
		(value as IDataObject).__rl === true &&
		!(value as IDataObject).value
	);
}

/** The example as the harness runs it. */
export function forHarness(example: ExampleWorkflow, mapping: HarnessMapping = {}): WorkflowJson {
	const workflow = structuredClone(example);
	workflow.nodes = workflow.nodes.filter((node) => node.type !== N8N_STICKY_NOTE);
	const pinData: NonNullable<WorkflowJson['pinData']> = {};
	for (const node of workflow.nodes as INode[]) {
		const pinned = workflow.pinData?.[node.name];
		if (node.type === N8N_MANUAL_TRIGGER) {
			// The harness start node emits the items n8n would take from the pinned data.
			node.type = MANUAL_TRIGGER_TYPE;
			node.parameters = {
				items: (pinned ?? [{ json: {} }]).map((item) => item.json) as unknown as INodeParameters[],
			};
			continue;
		}
		if (pinned) pinData[node.name] = pinned;
		for (const name of ['templateId', 'workspaceId'] as const) {
			const value = mapping[name];
			if (
				node.type.startsWith(`${PACKAGE_NAME}.`) &&
				value &&
				isEmptyLocator(node.parameters[name])
			)
				node.parameters[name] = { __rl: true, mode: 'id', value };
		}
	}
	return {
		...workflow,
		pinData: Object.keys(pinData).length ? pinData : undefined,
	} as WorkflowJson;
}
