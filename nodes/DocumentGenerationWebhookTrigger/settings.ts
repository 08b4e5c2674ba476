/** The webhook trigger's parameters, read and checked. */
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import type { TriggerEvent } from '../shared/helpers/parse';
import { readChecked } from '../shared/helpers/items';
import {
	DEFAULT_MAX_FILE_MB,
	parseFileOption,
	parseId,
	parseIdList,
	parseTriggerEvents,
} from '../shared/helpers/parse';

/** The service's event name for a chosen event. */
export const serviceEvent = (event: TriggerEvent) => `documents.generation.${event}`;

export interface WebhookSettings {
	events: TriggerEvent[];
	registration: 'automatic' | 'manual';
	workspaceId?: string;
	templateIds: string[];
	channel?: string;
	download: boolean;
	binaryPropertyName: string;
	/** Max File Size in bytes (undefined: no limit). */
	maxFileBytes?: number;
}

type Context = IHookFunctions | IWebhookFunctions;

/** The trigger's settings; refused input is the node's error, with its hint. */
export function readWebhookSettings(ctx: Context): WebhookSettings {
	return readChecked(ctx, () => read(ctx));
}

function read(ctx: Context): WebhookSettings {
	const events = parseTriggerEvents(ctx.getNodeParameter('events', ['success']));
	const registration =
		ctx.getNodeParameter('registration', 'automatic') === 'manual' ? 'manual' : 'automatic';
	const filters = ctx.getNodeParameter('filters', {}) as IDataObject;
	const channel =
		typeof filters.channel === 'string' && filters.channel.trim() !== ''
			? filters.channel.trim()
			: undefined;
	const workspaceId =
		registration === 'automatic'
			? parseId(ctx.getNodeParameter('workspaceId', undefined, { extractValue: true }), 'workspace')
			: undefined;
	const file = parseFileOption(
		ctx.getNodeParameter('download', false),
		() => ctx.getNodeParameter('binaryPropertyName', 'data'),
		() => ctx.getNodeParameter('maxFileSize', DEFAULT_MAX_FILE_MB),
	);
	return {
		events,
		registration,
		workspaceId,
		templateIds: parseIdList(filters.templateIds, 'template filter'),
		channel,
		...file,
	};
}

/** Why a document does not match the settings, or undefined when it does. */
export function mismatch(document: IDataObject, settings: WebhookSettings): string | undefined {
	if (!settings.events.includes(document.status as TriggerEvent))
		return `its status "${String(document.status)}" is not a chosen event`;
	const template = String(document.document_template_id ?? '').toLowerCase();
	if (settings.templateIds.length && !settings.templateIds.includes(template))
		return 'it belongs to another template';
	if (settings.channel !== undefined) {
		const meta = document.meta as IDataObject | null | undefined;
		const channel = meta && typeof meta === 'object' ? meta._webhook_channel : undefined;
		if (channel !== settings.channel) return 'it was sent for another channel';
	}
	return undefined;
}
