/** The webhook trigger's parameters, read and checked. */
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { metaObject } from '../shared/helpers/document';
import { readChecked } from '../shared/helpers/items';
import { DEFAULT_MAX_FILE_MB, InputError, parseId, parseIdList } from '../shared/helpers/parse';
import type { TriggerEvent } from '../shared/helpers/triggerOptions';
import {
	TRIGGER_EVENTS,
	eventValues,
	parseFileOption,
	parseTriggerEvents,
} from '../shared/helpers/triggerOptions';

/** The Events value of the quota warning (the service's `quota.warning`). */
export const QUOTA_WARNING = 'quotaWarning';
export const QUOTA_WARNING_EVENT = 'quota.warning';

export const serviceEvent = (event: TriggerEvent) => `documents.generation.${event}`;

export interface WebhookSettings extends ReturnType<typeof parseFileOption> {
	events: TriggerEvent[]; // none when only the quota warning is chosen
	quotaWarning: boolean;
	registration: 'automatic' | 'manual';
	workspaceId?: string;
	templateIds: string[];
	channel?: string;
}

type Context = IHookFunctions | IWebhookFunctions;

/** The trigger's settings; refused input is the node's error, with its hint. */
export function readWebhookSettings(ctx: Context): WebhookSettings {
	return readChecked(ctx, () => read(ctx));
}

/** The Events: the polling trigger's document events, plus the quota warning; at least one. */
function parseWebhookEvents(raw: unknown): { events: TriggerEvent[]; quotaWarning: boolean } {
	const list = eventValues(raw);
	const known: unknown[] = [...TRIGGER_EVENTS, QUOTA_WARNING];
	const unknown = list.find((e) => !known.includes(e));
	if (unknown !== undefined || !list.length) {
		throw new InputError(
			unknown === undefined
				? 'No event is chosen'
				: `The event "${String(unknown).slice(0, 40)}" is not one the trigger knows`,
			'Choose Generation Succeeded, Generation Failed and/or Quota Warning under Events',
		);
	}
	const documentEvents = list.filter((e) => e !== QUOTA_WARNING);
	return {
		events: documentEvents.length ? parseTriggerEvents(documentEvents) : [],
		quotaWarning: list.includes(QUOTA_WARNING),
	};
}

function read(ctx: Context): WebhookSettings {
	const { events, quotaWarning } = parseWebhookEvents(ctx.getNodeParameter('events', ['success']));
	const registration =
		ctx.getNodeParameter('registration', 'automatic') === 'manual' ? 'manual' : 'automatic';
	const filters = ctx.getNodeParameter('filters', {}) as IDataObject;
	const channel = (typeof filters.channel === 'string' && filters.channel.trim()) || undefined;
	const workspaceId =
		registration === 'automatic'
			? parseId(ctx.getNodeParameter('workspaceId', undefined, { extractValue: true }), 'workspace')
			: undefined;
	const file = parseFileOption(
		ctx.getNodeParameter('download', false),
		() => ctx.getNodeParameter('binaryPropertyName', 'data'),
		() => ctx.getNodeParameter('maxFileSize', DEFAULT_MAX_FILE_MB),
	);
	const templateIds = parseIdList(filters.templateIds, 'template filter');
	return { events, quotaWarning, registration, workspaceId, templateIds, channel, ...file };
}

/** Why a document does not match the settings, or undefined when it does. */
export function mismatch(document: IDataObject, settings: WebhookSettings): string | undefined {
	if (!settings.events.includes(document.status as TriggerEvent))
		return `its status "${String(document.status)}" is not a chosen event`;
	const template = String(document.document_template_id ?? '').toLowerCase();
	if (settings.templateIds.length && !settings.templateIds.includes(template))
		return 'it belongs to another template';
	if (settings.channel !== undefined) {
		if (metaObject(document.meta)._webhook_channel !== settings.channel)
			return 'it was sent for another channel';
	}
	return undefined;
}
