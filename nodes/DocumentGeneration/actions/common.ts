// What the operations share: Operation lists, display options, IDs, Limit, by-ID operations.
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { withoutSecrets } from '../../shared/helpers/document';
import { CONCURRENCY, paired, perItem } from '../../shared/helpers/items';
import { parseId, parseLimit } from '../../shared/helpers/parse';
import type { CallOptions } from '../../shared/types';

type OperationEntry = [name: string, value: string, description: string, action: string];

/** A resource's Operation parameter. */
export function operationList(
	resource: string,
	defaultOperation: string,
	entries: OperationEntry[],
): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: entries.map(([name, value, description, action]) => ({
			name,
			value,
			description,
			action,
		})),
		default: defaultOperation,
	};
}

/** An operation's parameters, shown for that operation only. */
export const shownFor = (resource: string, operation: string, properties: INodeProperties[]) =>
	updateDisplayOptions({ show: { resource: [resource], operation: [operation] } }, properties);

/** Reads an ID parameter (a resource locator or plain text) for one item, checked. */
const idReader = (parameter: string, label: string) => (ctx: IExecuteFunctions, i: number) =>
	parseId(ctx.getNodeParameter(parameter, i, undefined, { extractValue: true }), label);

export const readDocumentId = idReader('documentId', 'document ID');
export const readTemplateId = idReader('templateId', 'template');
export const readWorkspaceId = idReader('workspaceId', 'workspace');
export const readSnippetId = idReader('snippetId', 'snippet');
export const readTemplateFolderId = idReader('templateFolderId', 'template folder');

/** Return All and Limit of a Get Many: Infinity for all. */
export const readLimit = (ctx: IExecuteFunctions, i: number) =>
	parseLimit(ctx.getNodeParameter('returnAll', i, false), ctx.getNodeParameter('limit', i, 50));

type ReadId = (ctx: IExecuteFunctions, i: number) => string;
type ById<T> = (ctx: IExecuteFunctions, id: string, options: CallOptions) => Promise<T>;

/** A Get: the record of the item's ID, secrets removed. */
export const getById = (readItemId: ReadId, get: ById<IDataObject>) =>
	perItem(
		readItemId,
		async (ctx, id, i) => paired(withoutSecrets(await get(ctx, id, { itemIndex: i })), i),
		CONCURRENCY,
	);

/** A Delete: the record of the item's ID, answered `{ deleted: true, id }`. */
export const deleteById = (readItemId: ReadId, remove: ById<void>) =>
	perItem(
		readItemId,
		async (ctx, id, i) => {
			await remove(ctx, id, { itemIndex: i });
			return paired({ deleted: true, id }, i);
		},
		CONCURRENCY,
	);

/** A Get Many of a workspace's records, up to Limit, secrets removed. */
export const getManyInWorkspace = (list: ById<IDataObject[]>) =>
	perItem(
		(ctx, i) => ({ workspaceId: readWorkspaceId(ctx, i), limit: readLimit(ctx, i) }),
		async (ctx, { workspaceId, limit }, i) => {
			const records = await list(ctx, workspaceId, { itemIndex: i });
			return paired(withoutSecrets(records.slice(0, limit)), i);
		},
		CONCURRENCY,
	);
