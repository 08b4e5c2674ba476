/** The options both triggers share (Events, Download File), read and checked. Pure. */
import { InputError, parseBinaryPropertyName, parseMaxFileSize } from './parse';

/** The finished states of a document that the triggers fire on (their Events). */
export type TriggerEvent = 'success' | 'failure';
export const TRIGGER_EVENTS: readonly TriggerEvent[] = ['success', 'failure'];

/** The values of an Events parameter: a list, or (from an expression) a comma-separated text. */
export function eventValues(raw: unknown): unknown[] {
	return (Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/[\s,;]+/) : [raw])
		.map((e) => (typeof e === 'string' ? e.trim() : e))
		.filter((e) => e !== '' && e !== undefined && e !== null);
}

/** The Events of a trigger, checked: duplicates dropped, order kept. At least one is needed. */
export function parseTriggerEvents(raw: unknown): TriggerEvent[] {
	const events: TriggerEvent[] = [];
	for (const value of eventValues(raw)) {
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
	return events;
}

/** Download File and its binary field, the field read (and checked) only when wanted. */
export function parseFileOption(
	download: unknown,
	binaryPropertyName: () => unknown,
	maxFileSize: () => unknown = () => undefined,
): { download: boolean; binaryPropertyName: string; maxFileBytes?: number } {
	const wanted = download === true;
	return {
		download: wanted,
		binaryPropertyName: wanted ? parseBinaryPropertyName(binaryPropertyName()) : 'data',
		maxFileBytes: wanted ? parseMaxFileSize(maxFileSize()) : undefined,
	};
}
