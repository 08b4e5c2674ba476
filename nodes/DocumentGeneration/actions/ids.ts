/**
 * The ID parameters of the action node (Document, Template, Workspace): a resource locator
 * (from the list, by ID, or an expression) or plain text, read for one item and checked as a
 * UUID. Every operation of every resource reads its IDs here.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { parseId } from '../../shared/helpers/parse';

function readId(ctx: IExecuteFunctions, i: number, parameter: string, label: string): string {
	return parseId(ctx.getNodeParameter(parameter, i, undefined, { extractValue: true }), label);
}

export const readDocumentId = (ctx: IExecuteFunctions, i: number) =>
	readId(ctx, i, 'documentId', 'document ID');

export const readTemplateId = (ctx: IExecuteFunctions, i: number) =>
	readId(ctx, i, 'templateId', 'template');

export const readWorkspaceId = (ctx: IExecuteFunctions, i: number) =>
	readId(ctx, i, 'workspaceId', 'workspace');
