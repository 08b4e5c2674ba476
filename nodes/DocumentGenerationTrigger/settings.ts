/** The polling trigger's parameters, read and checked. */
import type { IPollFunctions } from 'n8n-workflow';

import { InputError, parseBinaryPropertyName, parseListFilters } from '../shared/helpers/parse';
import type { ListFilters } from '../shared/types';
import type { TriggerEvent } from './cursor/model';
import { TRIGGER_EVENTS } from './cursor/model';

export interface Settings {
	events: TriggerEvent[];
	/** The template and workspace filters. */
	filter: Pick<ListFilters, 'templateIds' | 'workspaceId'>;
	download: boolean;
	binaryPropertyName: string;
}

export function readSettings(ctx: IPollFunctions): Settings {
	const rawEvents = ctx.getNodeParameter('events', ['success']) as unknown;
	// An expression may give an array or a comma-separated text.
	const list = (
		Array.isArray(rawEvents)
			? rawEvents
			: typeof rawEvents === 'string'
				? rawEvents.split(/[\s,;]+/)
				: [rawEvents]
	)
		.map((e) => (typeof e === 'string' ? e.trim() : e))
		.filter((e) => e !== '' && e !== undefined && e !== null);
	const events: TriggerEvent[] = [];
	for (const value of list) {
		if (!TRIGGER_EVENTS.includes(value as TriggerEvent)) {
			throw new InputError(
				`The event "${String(value)}" is not one the trigger knows`,
				'Choose Generation Succeeded and/or Generation Failed',
			);
		}
		if (!events.includes(value as TriggerEvent)) events.push(value as TriggerEvent);
	}
	if (!events.length) {
		throw new InputError(
			'No event is chosen',
			'Choose Generation Succeeded and/or Generation Failed under Events',
		);
	}
	const { templateIds, workspaceId } = parseListFilters(ctx.getNodeParameter('filters', {}));
	const filter = { templateIds, workspaceId };
	const download = ctx.getNodeParameter('download', false) === true;
	const binaryPropertyName = download
		? parseBinaryPropertyName(ctx.getNodeParameter('binaryPropertyName', 'data'))
		: 'data';
	return { events, filter, download, binaryPropertyName };
}

export function listFilters(
	settings: Settings,
	event: TriggerEvent,
	since?: number | null,
): ListFilters {
	const filters: ListFilters = { ...settings.filter, status: event };
	if (since !== undefined && since !== null) filters.updatedSince = since;
	return filters;
}
