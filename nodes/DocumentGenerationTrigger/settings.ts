/** The polling trigger's parameters, read and checked. */
import type { IPollFunctions } from 'n8n-workflow';

import { readChecked } from '../shared/helpers/items';
import { parseListFilters } from '../shared/helpers/filters';
import { DEFAULT_MAX_FILE_MB } from '../shared/helpers/parse';
import type { TriggerEvent } from '../shared/helpers/triggerOptions';
import { parseFileOption, parseTriggerEvents } from '../shared/helpers/triggerOptions';
import type { ListFilters } from '../shared/types';

export interface Settings {
	events: TriggerEvent[];
	/** The template and workspace filters. */
	filter: Pick<ListFilters, 'templateIds' | 'workspaceId'>;
	download: boolean;
	binaryPropertyName: string;
	/** Max File Size in bytes (undefined: no limit). */
	maxFileBytes?: number;
}

/** The trigger's settings; refused input is the node's error, with its hint. */
export function readSettings(ctx: IPollFunctions): Settings {
	return readChecked(ctx, () => read(ctx));
}

function read(ctx: IPollFunctions): Settings {
	const events = parseTriggerEvents(ctx.getNodeParameter('events', ['success']));
	const { templateIds, workspaceId } = parseListFilters(ctx.getNodeParameter('filters', {}));
	const filter = { templateIds, workspaceId };
	const file = parseFileOption(
		ctx.getNodeParameter('download', false),
		() => ctx.getNodeParameter('binaryPropertyName', 'data'),
		() => ctx.getNodeParameter('maxFileSize', DEFAULT_MAX_FILE_MB),
	);
	return { events, filter, ...file };
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
