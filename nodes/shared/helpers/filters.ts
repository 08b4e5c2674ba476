/** The Filters collection of Get Many and the polling trigger, read and checked. Pure. */
import type { IDataObject } from 'n8n-workflow';

import type { ListFilters } from '../types';
import { InputError, parseId, parseIdList, preview } from './parse';

/** A date/time (ISO text, a Luxon DateTime, a Date or epoch milliseconds) as unix seconds. */
export function toUnixSeconds(value: unknown, label: string): number {
	let ms: number | undefined;
	if (value instanceof Date) ms = value.getTime();
	else if (typeof value === 'number') ms = value;
	else if (typeof value === 'string' && value.trim() !== '') {
		const text = value.trim();
		ms = /^\d{9,11}$/.test(text) ? Number(text) * 1000 : Date.parse(text);
	} else if (
		value &&
		typeof value === 'object' &&
		typeof (value as { toMillis?: unknown }).toMillis === 'function'
	) {
		ms = (value as { toMillis: () => number }).toMillis();
	} else if (
		value &&
		typeof value === 'object' &&
		typeof (value as { toISO?: unknown }).toISO === 'function'
	) {
		ms = Date.parse(String((value as { toISO: () => string }).toISO()));
	}
	if (ms === undefined || !Number.isFinite(ms)) {
		throw new InputError(
			`The ${label} "${preview(value)}" is not a date`,
			`Use a date and time such as 2026-01-31T09:00:00Z, or an expression like {{ $now.minus({ days: 1 }) }}`,
		);
	}
	return Math.floor(ms / 1000);
}

const LIST_STATUSES = ['success', 'failure', 'draft'];

/**
 * The Filters collection (Get Many, the trigger) as list filters, checked: template IDs
 * (a list or comma-separated text), status, workspace ID, and Updated Since as unix seconds.
 * Blank fields are left out.
 */
export function parseListFilters(value: unknown): ListFilters {
	const raw = (value && typeof value === 'object' ? value : {}) as IDataObject;
	const blank = (v: unknown) => v === undefined || v === null || v === '';
	const filters: ListFilters = {};
	const templateIds = parseIdList(raw.templateIds, 'template filter');
	if (templateIds.length) filters.templateIds = templateIds;
	if (!blank(raw.status)) {
		if (!LIST_STATUSES.includes(String(raw.status))) {
			throw new InputError(
				`The status filter "${preview(raw.status)}" is not one the list accepts`,
				'Use success, failure or draft',
			);
		}
		filters.status = String(raw.status);
	}
	if (!blank(raw.workspaceId)) filters.workspaceId = parseId(raw.workspaceId, 'workspace ID');
	if (!blank(raw.updatedSince))
		filters.updatedSince = toUnixSeconds(raw.updatedSince, 'Updated Since date');
	return filters;
}
