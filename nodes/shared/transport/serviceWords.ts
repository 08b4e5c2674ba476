/**
 * The service's own words in an error answer, and an error's own text, made short and safe to
 * show. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import { parseJsonLoose } from '../helpers/json';
import { redact, type Secrets } from './redact';

const MAX_DETAIL = 500;

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function clip(value: string, max = MAX_DETAIL): string {
	return value.length > max ? `${value.slice(0, max)}…` : value;
}

/** The field a JSON:API `source` points at (`/data/attributes/identifier` → `identifier`). */
function pointedField(source: unknown): string | undefined {
	if (!source || typeof source !== 'object') return undefined;
	const pointer = text((source as IDataObject).pointer) ?? text((source as IDataObject).parameter);
	const last = pointer?.split('/').pop();
	return last && !['data', 'attributes', 'base', 'status'].includes(last) ? last : undefined;
}

/** "identifier can't be blank": the field in words before its message, unless already named. */
function withField(field: string | undefined, message: string): string {
	if (!field) return message;
	const words = field.replace(/_/g, ' ');
	return message.toLowerCase().startsWith(words.toLowerCase()) ? message : `${words} ${message}`;
}

/** The service's own words from an error body, whichever of the shapes it has. */
export function serviceDetails(body: unknown): string[] {
	const value = parseJsonLoose(Buffer.isBuffer(body) ? body.toString('utf8') : body);
	if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
	const obj = value as IDataObject;
	const out: string[] = [];
	if (Array.isArray(obj.errors)) {
		for (const entry of obj.errors) {
			if (entry && typeof entry === 'object') {
				const e = entry as IDataObject;
				const detail = text(e.detail) ?? text(e.title) ?? text(e.message);
				if (detail) out.push(clip(withField(pointedField(e.source), detail)));
			} else if (text(entry)) out.push(clip(String(entry)));
		}
	} else if (obj.errors && typeof obj.errors === 'object') {
		for (const [field, messages] of Object.entries(obj.errors as IDataObject)) {
			// One level of nesting is read too: {"document": {"payload": ["is invalid"]}}.
			const nested = messages && typeof messages === 'object' && !Array.isArray(messages);
			const pairs: Array<[string, unknown]> = nested
				? Object.entries(messages as IDataObject)
				: [[field, messages]];
			for (const [name, list] of pairs) {
				for (const message of Array.isArray(list) ? list : [list]) {
					const m = text(message);
					if (m) out.push(clip(name === 'base' || name === 'status' ? m : withField(name, m)));
				}
			}
		}
	} else {
		const single = text(obj.errors);
		if (single) out.push(clip(single));
	}
	const single = text(obj.error) ?? text(obj.message);
	if (single) out.push(clip(single));
	return out;
}

/**
 * An error's own text made safe to show: first line only, the secret removed, query strings
 * of URLs (presigned signatures) cut, and clipped.
 */
export function safeDetail(value: unknown, secret: Secrets): string | undefined {
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	// Bounded before the patterns run: a URL pattern over a long line of many "http://" is
	// quadratic, and only the first 200 characters are shown anyway.
	const firstLine = value.trim().split('\n')[0].slice(0, 2000);
	return clip(redact(firstLine, secret).replace(/(https?:\/\/[^\s?#]*)[?#]\S*/gi, '$1?…'), 200);
}
