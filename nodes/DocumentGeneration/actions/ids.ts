/**
 * The parameters several operations share, read for one item and checked: the IDs (Document,
 * Template, Workspace: a resource locator, from the list, by ID or an expression, or plain
 * text, checked as a UUID) and Return All/Limit of the Get Many operations. Every operation of
 * every resource reads them here.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { parseId, parseLimit } from '../../shared/helpers/parse';

function readId(ctx: IExecuteFunctions, i: number, parameter: string, label: string): string {
	return parseId(ctx.getNodeParameter(parameter, i, undefined, { extractValue: true }), label);
}

export const readDocumentId = (ctx: IExecuteFunctions, i: number) =>
	readId(ctx, i, 'documentId', 'document ID');

export const readTemplateId = (ctx: IExecuteFunctions, i: number) =>
	readId(ctx, i, 'templateId', 'template');

export const readWorkspaceId = (ctx: IExecuteFunctions, i: number) =>
	readId(ctx, i, 'workspaceId', 'workspace');

/** Return All and Limit of a Get Many: Infinity for all. */
export const readLimit = (ctx: IExecuteFunctions, i: number) =>
	parseLimit(ctx.getNodeParameter('returnAll', i, false), ctx.getNodeParameter('limit', i, 50));

export const readSnippetId = (ctx: IExecuteFunctions, i: number) =>
	readId(ctx, i, 'snippetId', 'snippet');

export const readTemplateFolderId = (ctx: IExecuteFunctions, i: number) =>
	readId(ctx, i, 'templateFolderId', 'template folder');
