/** Input parsing and validation. Pure: the operations turn an `InputError` into a node error. */
import type { IDataObject } from 'n8n-workflow';

import type { ListFilters } from '../types';
import { MAX_JSON_DEPTH, jsonDepth, tryParseJson } from './json';

/** A refusal of user input: `message` says what is wrong, `hint` how to fix it. */
export class InputError extends Error {
	constructor(
		message: string,
		readonly hint: string,
	) {
		super(message);
		this.name = 'InputError';
	}
}

/** A UUID, as text (for the editor's regex validation) and as the pattern the code uses. */
export const UUID_PATTERN =
	'[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const UUID = new RegExp(`^${UUID_PATTERN}$`);
/** A UUID at the end of a text (a pasted URL or path ending in the id). */
const TRAILING_UUID = new RegExp(`${UUID_PATTERN}$`);

export function isUuid(value: unknown): value is string {
	return typeof value === 'string' && UUID.test(value);
}

function describe(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'string') return value.trim() === '' ? 'an empty text' : 'a text';
	const kind = typeof value;
	return 'aeiou'.includes(kind[0]) ? `an ${kind}` : `a ${kind}`;
}

/** Short, safe preview of a user value for error messages. */
export function preview(value: unknown, max = 40): string {
	let text: string;
	try {
		// JSON shows NaN and Infinity as null: a message would name the wrong value.
		if (typeof value === 'number' && !Number.isFinite(value)) text = String(value);
		else text = typeof value === 'string' ? value : JSON.stringify(value);
	} catch {
		text = String(value);
	}
	if (text === undefined) text = String(value);
	return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A UUID from a string, a resource locator value, or a URL or path ending in the id. */
export function parseId(value: unknown, label: string): string {
	let raw = value;
	if (raw && typeof raw === 'object' && !Array.isArray(raw) && 'value' in (raw as IDataObject))
		raw = (raw as IDataObject).value;
	if (typeof raw === 'number' || typeof raw === 'boolean') raw = String(raw);
	if (typeof raw !== 'string' || raw.trim() === '') {
		throw new InputError(
			raw === undefined || raw === null || typeof raw === 'string'
				? `The ${label} is empty`
				: `The ${label} must be text, but it is ${describe(raw)}`,
			`Enter the ${label} (a UUID such as 1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d), or pick one from the list`,
		);
	}
	const text = raw.trim();
	const match = TRAILING_UUID.exec(text);
	const id =
		match && (match.index === 0 || /[/=]$/.test(text.slice(0, match.index))) ? match[0] : text;
	if (!isUuid(id)) {
		throw new InputError(
			`The ${label} "${preview(text)}" is not a valid ID`,
			`An ID is a UUID such as 1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d; copy it from the dashboard or pick it from the list`,
		);
	}
	return id.toLowerCase();
}

/** One JSON object, given as one or as JSON text; anything else refused, empty is `undefined`. */
export function parseJsonObject(value: unknown, label: string): IDataObject | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	let parsed: unknown = value;
	if (typeof value === 'string') {
		const text = value.trim();
		if (text === '') return undefined;
		const result = tryParseJson(text);
		if ('problem' in result) {
			throw new InputError(
				`The ${label} is not valid JSON (${result.problem})`,
				`Give the ${label} as one JSON object, e.g. {"customer": "Ada", "total": 42}`,
			);
		}
		parsed = result.value;
	}
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw new InputError(
			`The ${label} must be one JSON object, but it is ${describe(parsed)}`,
			Array.isArray(parsed)
				? `Wrap the list in an object, e.g. {"items": [...]}, or split it into one item per document`
				: `Give the ${label} as one JSON object, e.g. {"customer": "Ada", "total": 42}`,
		);
	}
	checkDepth(parsed, label);
	return parsed as IDataObject;
}

export function checkDepth(value: unknown, label: string): void {
	if (jsonDepth(value) <= MAX_JSON_DEPTH) return;
	throw new InputError(
		`The ${label} is nested more than ${MAX_JSON_DEPTH} levels deep`,
		`Flatten the ${label}: objects and lists may nest at most ${MAX_JSON_DEPTH} levels (a template reads a few), e.g. send a long chain as a list`,
	);
}

/** A list of UUIDs from an array or a comma/space/newline separated string. */
export function parseIdList(value: unknown, label: string): string[] {
	if (value === undefined || value === null || value === '') return [];
	const list: unknown[] = Array.isArray(value) ? value : [value];
	const parts = list.flatMap((v) => (typeof v === 'string' ? v.split(/[\s,;]+/) : [v]));
	const ids: string[] = [];
	for (const part of parts) {
		if (part === '' || part === undefined || part === null) continue;
		const candidate =
			part && typeof part === 'object' && 'value' in (part as IDataObject)
				? (part as IDataObject).value
				: part;
		if (!isUuid(candidate)) {
			throw new InputError(
				`The ${label} contains "${preview(candidate)}", which is not a valid ID`,
				`List template IDs (UUIDs) separated by commas, or pick them from the list`,
			);
		}
		const id = candidate.toLowerCase();
		if (!ids.includes(id)) ids.push(id);
	}
	return ids;
}

export function parsePositiveInteger(value: unknown, label: string, hint: string): number {
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof n !== 'number' || !Number.isFinite(n) || n < 1 || !Number.isInteger(n)) {
		throw new InputError(
			`The ${label} must be a whole number of at least 1, but it is ${preview(value)}`,
			hint,
		);
	}
	return n;
}

/** How many results a Get Many returns: all (Infinity) with Return All, else its Limit. */
export function parseLimit(returnAll: unknown, limit: unknown): number {
	if (returnAll === true) return Infinity;
	const hint = 'Set Limit to a whole number such as 50, or turn on Return All';
	return parsePositiveInteger(limit, 'limit', hint);
}

/** The status a write may set: `pending` (generate now) or `draft`. */
export function parseWriteStatus(value: unknown): 'pending' | 'draft' {
	if (value === 'pending' || value === 'draft') return value;
	throw new InputError(
		`The status "${preview(value)}" is not allowed`,
		'Choose "Pending" to generate the file now, or "Draft" to store the document without generating it',
	);
}

/** The name of the binary field a file goes into: a non-empty text, trimmed. */
export function parseBinaryPropertyName(value: unknown): string {
	const name = typeof value === 'string' ? value.trim() : '';
	if (name === '') {
		throw new InputError(
			'The output binary field name is empty',
			'Enter a field name such as "data" in "Put Output File in Field"',
		);
	}
	return name;
}

export const DEFAULT_MAX_FILE_MB = 100;

/** Max File Size (MB) in bytes; undefined for no limit (0). Unset: the default, 100 MB. */
export function parseMaxFileSize(value: unknown): number | undefined {
	const unset = value === undefined || value === null || value === '';
	const mb = unset ? DEFAULT_MAX_FILE_MB : typeof value === 'string' ? Number(value) : value;
	if (typeof mb !== 'number' || !Number.isFinite(mb) || mb < 0) {
		throw new InputError(
			`The max file size must be a number of MB, 0 or more, but it is ${typeof value === 'string' ? `"${preview(value)}"` : describe(value)}`,
			'Set Max File Size to the largest file to accept in MB (e.g. 100), or 0 for no limit',
		);
	}
	return mb === 0 ? undefined : Math.round(mb * 1024 * 1024);
}

/** A date/time (ISO text, a Luxon DateTime, a Date or epoch milliseconds) as unix seconds. */
export function toUnixSeconds(value: unknown, label: string): number {
	let ms: number | undefined;
	if (value instanceof Date) ms = value.getTime();
	else if (typeof value === 'number') ms = value;
	else if (typeof value === 'string' && value.trim() !== '') {
		const text = value.trim();
		ms = /^\d{9,11}$/.test(text) ? Number(text) * 1000 : Date.parse(text);
	} else if (value && typeof value === 'object') {
		const date = value as { toMillis?: () => number; toISO?: () => string };
		if (typeof date.toMillis === 'function') ms = date.toMillis();
		else if (typeof date.toISO === 'function') ms = Date.parse(String(date.toISO()));
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

/** The Filters collection (Get Many, the trigger) as list filters, checked; blanks left out. */
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
