/** The webhook trigger's parameters, read and checked. */
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { InputError, parseBinaryPropertyName, parseId, parseIdList } from '../shared/helpers/parse';

export const EVENTS = ['success', 'failure'] as const;
export type WebhookEvent = (typeof EVENTS)[number];

/** The service's event name for a chosen event. */
export const serviceEvent = (event: WebhookEvent) => `documents.generation.${event}`;

export interface WebhookSettings {
	events: WebhookEvent[];
	registration: 'automatic' | 'manual';
	workspaceId?: string;
	templateIds: string[];
	channel?: string;
	download: boolean;
	binaryPropertyName: string;
}

type Context = IHookFunctions | IWebhookFunctions;

export function readWebhookSettings(ctx: Context): WebhookSettings {
	const raw = ctx.getNodeParameter('events', ['success']) as unknown;
	const list = Array.isArray(raw) ? raw : String(raw ?? '').split(/[\s,;]+/);
	const events: WebhookEvent[] = [];
	for (const value of list.map((v) => String(v).trim()).filter(Boolean)) {
		if (!EVENTS.includes(value as WebhookEvent))
			throw new InputError(
				`The event "${value}" is not one the trigger knows`,
				'Choose Generation Succeeded and/or Generation Failed',
			);
		if (!events.includes(value as WebhookEvent)) events.push(value as WebhookEvent);
	}
	if (!events.length)
		throw new InputError(
			'No event is chosen',
			'Choose Generation Succeeded and/or Generation Failed under Events',
		);
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
	const download = ctx.getNodeParameter('download', false) === true;
	return {
		events,
		registration,
		workspaceId,
		templateIds: parseIdList(filters.templateIds, 'template filter'),
		channel,
		download,
		binaryPropertyName: download
			? parseBinaryPropertyName(ctx.getNodeParameter('binaryPropertyName', 'data'))
			: 'data',
	};
}

/** Why a document does not match the settings, or undefined when it does. */
export function mismatch(document: IDataObject, settings: WebhookSettings): string | undefined {
	if (!settings.events.includes(document.status as WebhookEvent))
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
