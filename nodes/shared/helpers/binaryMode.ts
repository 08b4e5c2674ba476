/**
 * Execution Logic v2: a workflow whose settings say `binaryMode: "combined"` keeps each item's
 * files in its JSON, under `_files` (n8n's references to its binary store), instead of in
 * `binary`. Data taken from an item's JSON then carries those references: they are n8n's, not
 * the user's data, and never go to the service.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/** Where n8n keeps an item's files in its JSON in Execution Logic v2. */
export const FILES_IN_JSON = '_files';

/** Whether the workflow keeps files in the items' JSON (n8n 1.x has no such setting). */
export function filesLiveInJson(ctx: Pick<IExecuteFunctions, 'getWorkflowSettings'>): boolean {
	if (typeof ctx.getWorkflowSettings !== 'function') return false;
	return ctx.getWorkflowSettings()?.binaryMode === 'combined';
}

/** Data from an item's JSON without n8n's file references at its top level. */
export function withoutFileReferences(data: IDataObject, filesInJson: boolean): IDataObject {
	if (!filesInJson || !Object.prototype.hasOwnProperty.call(data, FILES_IN_JSON)) return data;
	const rest = { ...data };
	delete rest[FILES_IN_JSON];
	return rest;
}
