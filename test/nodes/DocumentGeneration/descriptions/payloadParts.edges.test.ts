/**
 * The edges of payloadParts that mutation testing found unpinned: sizes at each unit's
 * threshold, the hint of a refused path, and what a path replaces or keeps. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	PAYLOAD_BOUNDS,
	checkPayloadSize,
	sizeText,
	withValueAt,
} from '../../../../nodes/DocumentGeneration/descriptions/payloadParts';
import { FileBudget } from '../../../../nodes/DocumentGeneration/descriptions/payloadFiles';

test('sizes change unit at exactly 1 KB and 1 MB', () => {
	expect(sizeText(0)).toBe('0 bytes');
	expect(sizeText(1023)).toBe('1023 bytes');
	expect(sizeText(1024)).toBe('1 KB');
	expect(sizeText(1535)).toBe('1 KB');
	expect(sizeText(1536)).toBe('2 KB');
	expect(sizeText(1024 * 1024 - 1)).toBe('1024 KB');
	expect(sizeText(1024 * 1024)).toBe('1.0 MB');
});

test('the bounds a document and a run are held to', () => {
	expect(PAYLOAD_BOUNDS).toEqual({
		fileBytes: 5 * 1024 * 1024,
		payloadBytes: 20 * 1024 * 1024,
		lines: 10_000,
		runFileBytes: 256 * 1024 * 1024,
	});
});

test('a path through a value is refused with the part and a top-level name to use instead', () => {
	let refusal: { message: string; hint: string } | undefined;
	try {
		withValueAt({ company: { logo: 'text' } }, 'company.logo.small', 1, 'file "logo"');
	} catch (error) {
		refusal = error as { message: string; hint: string };
	}
	expect(refusal?.message).toBe(
		'The file "logo" goes under "company.logo", but the payload has a value there, not an object',
	);
	expect(refusal?.hint).toMatch(/e\.g\. "logo_small" at the top level/);
});

test('the value replaces what stood at the path; the objects on the way keep their other keys', () => {
	const payload = { a: { b: { old: 1 }, keep: true }, top: 'x' };
	expect(withValueAt(payload, 'a.b', 2, 'file')).toEqual({ a: { b: 2, keep: true }, top: 'x' });
	expect(withValueAt(payload, 'a.b.c', 3, 'file')).toEqual({
		a: { b: { old: 1, c: 3 }, keep: true },
		top: 'x',
	});
	expect(payload).toEqual({ a: { b: { old: 1 }, keep: true }, top: 'x' });
	// An inherited key on the way is not the payload's: a new object is made there.
	const inherited = Object.create({ a: 'inherited' }) as IDataObject;
	expect(withValueAt(inherited, 'a.b', 1, 'file')).toEqual({ a: { b: 1 } });
});

test('a run past its file budget says how to send less', () => {
	const budget = new FileBudget(1);
	const refusal = (() => {
		try {
			budget.take(2);
		} catch (error) {
			return error as { hint: string };
		}
		return undefined;
	})();
	expect(refusal?.hint).toMatch(/Send fewer items per run \(Loop Over Items/);
});

test('a payload past its bound says how to send less', () => {
	const payload = { t: 'x'.repeat(PAYLOAD_BOUNDS.payloadBytes) };
	const refusal = (() => {
		try {
			checkPayloadSize(payload);
		} catch (error) {
			return error as { hint: string };
		}
		return undefined;
	})();
	expect(refusal?.hint).toMatch(/^Send less data: smaller or fewer files/);
	expect(refusal?.hint).toMatch(/group by a finer key/);
});
