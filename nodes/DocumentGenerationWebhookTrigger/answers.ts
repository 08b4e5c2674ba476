/** What every delivery path shares: its answers, the trigger's key, an item with its file. */
import type {
	IDataObject,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { downloadToBinary, withLinkOf } from '../shared/transport';
import type { WebhookSettings } from './settings';

/** Answers a delivery with an error status (the service sends it again unless it is 4xx). */
export function refuse(
	ctx: IWebhookFunctions,
	status: number,
	message: string,
): IWebhookResponseData {
	const res = ctx.getResponseObject();
	res.status(status).json({ error: message });
	return { noWebhookResponse: true };
}

/** A signed delivery that starts nothing, with the reason (only the service can read it). */
export function ignore(reason: string): IWebhookResponseData {
	return { webhookResponse: { received: true, started: false, reason } };
}

/**
 * The one answer to an unsigned delivery, whatever it held and whether it started a run: an
 * anonymous poster learns nothing about a document id from it.
 */
// Stryker disable next-line all: a module constant, set when the module loads, before the tool switches a mutant on: emptied or made `received: false`, it fails the unsigned delivery's exact answer in receive.test.ts when planted by hand
export const NEUTRAL_ANSWER: IDataObject = { received: true };

/** The trigger node a delivery is for, in this process (workflow and node ids). */
export function triggerKey(ctx: IWebhookFunctions): string {
	// Stryker disable next-line StringLiteral: equivalent, n8n gives every workflow whose webhook runs an id (without one, the key is the same for every copy whatever stands here)
	const workflowId = ctx.getWorkflow().id ?? '';
	return `${workflowId}/${ctx.getNode().id}`;
}

/** The item of a document delivery, its file attached when asked for and the document succeeded. */
export async function documentExecutionItem(
	ctx: IWebhookFunctions,
	settings: WebhookSettings,
	document: IDataObject,
	json: IDataObject,
): Promise<INodeExecutionData> {
	if (!settings.download || json.status !== 'success') return { json };
	const file = await downloadToBinary(ctx, document, 0, { maxFileBytes: settings.maxFileBytes });
	// An expired link renewed for the download is the one the item hands on.
	return { json: withLinkOf(json, file), binary: { [settings.binaryPropertyName]: file.binary } };
}
