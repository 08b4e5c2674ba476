// Automatic registration: a hook per event, ids kept in static data (the service lists none).
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { asNodeError } from '../shared/helpers/items';
import {
	DEFAULT_MAX_LIMIT_WAIT_MS,
	createRestHook,
	deleteRestHook,
	isNotFound,
	limitRequestsTo,
} from '../shared/transport';
import type { WebhookSettings } from './settings';
import { QUOTA_WARNING_EVENT, readWebhookSettings, serviceEvent } from './settings';

/** The hooks' ids, and what they were registered for (URL, events, workspace, filters). */
type Registered = { signature: string; ids: string[] };

function signatureOf(url: string, settings: WebhookSettings): string {
	const { events, workspaceId, templateIds, channel, quotaWarning } = settings;
	return JSON.stringify({
		url,
		events,
		workspaceId,
		templateIds: [...templateIds].sort(),
		channel,
		// Only when chosen: hooks registered before the quota warning existed stay as they are.
		...(quotaWarning ? { quotaWarning } : {}),
	});
}

function stored(ctx: IHookFunctions): Registered | undefined {
	const data = ctx.getWorkflowStaticData('node');
	const hooks = data.hooks as IDataObject | undefined;
	if (!hooks || typeof hooks.signature !== 'string' || !Array.isArray(hooks.ids)) return undefined;
	return { signature: hooks.signature, ids: hooks.ids.map(String) };
}

/** Removes the hooks in turn; on an error, answers it and the ids still registered. */
async function removeEach(
	ctx: IHookFunctions,
	ids: string[],
): Promise<{ left: string[]; error?: unknown }> {
	for (let i = 0; i < ids.length; i++) {
		try {
			await deleteRestHook(ctx, ids[i]);
		} catch (error) {
			if (!isNotFound(error)) return { left: ids.slice(i), error: asNodeError(ctx, error) };
		}
	}
	return { left: [] };
}

export async function checkExists(this: IHookFunctions): Promise<boolean> {
	const settings = readWebhookSettings(this);
	if (settings.registration === 'manual') return true;
	const url = this.getNodeWebhookUrl('default') ?? '';
	return stored(this)?.signature === signatureOf(url, settings);
}

/** (De)activation waits for the service's request limit as a batch does; past that it fails. */
const ACTIVATION_LIMIT = {
	maxWaitMs: DEFAULT_MAX_LIMIT_WAIT_MS,
	advice:
		'activate or deactivate the workflow again in a few minutes (hooks not removed are kept and removed then).',
};

/** One hook per chosen event; the quota warning (about the account) has no template or channel. */
function hooksFor(url: string, settings: WebhookSettings): IDataObject[] {
	const hooks: IDataObject[] = settings.events.map((e) => {
		const hook: IDataObject = { url, event: serviceEvent(e), workspace_id: settings.workspaceId };
		if (settings.templateIds.length) hook.document_template_ids = settings.templateIds;
		if (settings.channel) hook.custom_channel = settings.channel;
		return hook;
	});
	if (settings.quotaWarning)
		hooks.push({ url, event: QUOTA_WARNING_EVENT, workspace_id: settings.workspaceId });
	return hooks;
}

export async function create(this: IHookFunctions): Promise<boolean> {
	const settings = readWebhookSettings(this);
	limitRequestsTo(this, ACTIVATION_LIMIT);
	if (settings.registration === 'manual') return true;
	const url = this.getNodeWebhookUrl('default') ?? '';
	// Hooks registered for an earlier URL or other filters go first.
	await remove.call(this);
	const ids: string[] = [];
	for (const hook of hooksFor(url, settings)) {
		try {
			ids.push(await createRestHook(this, hook));
		} catch (error) {
			// Nothing half-registered: what is left is kept under a signature that never matches.
			const { left } = await removeEach(this, ids);
			if (left.length) this.getWorkflowStaticData('node').hooks = { signature: '', ids: left };
			if (error instanceof NodeApiError) {
				error.description = `The service refused to register the webhook, so the trigger was not activated. ${error.description ?? ''} Check the Workspace and the template filter of the trigger, and that n8n's URL (${url}) is reachable from the internet (N8N_WEBHOOK_URL, or WEBHOOK_URL on older n8n); or choose Registration "Manual" and add the URL in the dashboard.`;
			}
			throw asNodeError(this, error);
		}
	}
	this.getWorkflowStaticData('node').hooks = { signature: signatureOf(url, settings), ids };
	return true;
}

export async function remove(this: IHookFunctions): Promise<boolean> {
	limitRequestsTo(this, ACTIVATION_LIMIT);
	const data = this.getWorkflowStaticData('node');
	const previous = stored(this);
	if (previous) {
		const { left, error } = await removeEach(this, previous.ids);
		if (left.length) {
			data.hooks = { signature: previous.signature, ids: left };
			throw error;
		}
	}
	delete data.hooks;
	return true;
}
