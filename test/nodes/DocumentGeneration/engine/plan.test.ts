/** The pure pieces of running a batch again: the data's digest, the key, and each item's plan. */
import type { IDataObject } from 'n8n-workflow';

import type { Found, ReuseRequest } from '../../../../nodes/DocumentGeneration/engine/plan';
import { planFor } from '../../../../nodes/DocumentGeneration/engine/plan';
import { digestOf, parseUniqueKey } from '../../../../nodes/DocumentGeneration/engine/writes';
import { templateFilter } from '../../../../nodes/DocumentGeneration/engine/pollTiming';

const TEMPLATE = '2636105b-f28a-449b-bd3d-6861687d480f';
const fields = (payload: IDataObject, meta?: IDataObject): IDataObject => ({
	document_template_id: TEMPLATE,
	status: 'pending',
	payload,
	...(meta ? { meta } : {}),
});

describe('digestOf', () => {
	test('equal data gives an equal digest whatever the order of keys; other data another', () => {
		const a = digestOf(fields({ a: 1, b: { c: [1, 2] } }, { x: 'y' }));
		expect(a).toMatch(/^[0-9a-f]{24}$/);
		expect(digestOf(fields({ b: { c: [1, 2] }, a: 1 }, { x: 'y' }))).toBe(a);
		expect(digestOf(fields({ a: 1, b: { c: [2, 1] } }, { x: 'y' }))).not.toBe(a);
		expect(digestOf(fields({ a: 1, b: { c: [1, 2] } }, { x: 'z' }))).not.toBe(a);
		expect(
			digestOf({
				...fields({ a: 1, b: { c: [1, 2] } }, { x: 'y' }),
				document_template_id: 'other',
			}),
		).not.toBe(a);
	});

	test("the node's own marks and the PDF password are not part of the data", () => {
		const plain = digestOf(fields({ a: 1 }, { x: 'y' }));
		expect(
			digestOf(fields({ a: 1 }, { x: 'y', n8n_key: 'K', n8n_digest: 'd', _password: 'secret' })),
		).toBe(plain);
		expect(digestOf(fields({ a: 1 }, { x: 'y', _filename: 'a.pdf' }))).not.toBe(plain);
	});
});

describe('parseUniqueKey', () => {
	test('text is trimmed, numbers are text', () => {
		expect(parseUniqueKey('  INV-1 ')).toBe('INV-1');
		expect(parseUniqueKey(42)).toBe('42');
	});

	test.each([[''], ['   '], [undefined], [null]])('%p is refused as empty', (value) => {
		expect(() => parseUniqueKey(value)).toThrow('The Unique Key is empty');
	});

	test('objects and long text are refused, saying what to give', () => {
		expect(() => parseUniqueKey({ a: 1 })).toThrow(
			'The Unique Key must be text or a number, not {"a":1}',
		);
		expect(() => parseUniqueKey('x'.repeat(201))).toThrow('The Unique Key is 201 characters long');
	});
});

describe('planFor', () => {
	const request = (extra: Partial<ReuseRequest> = {}): ReuseRequest => ({
		templateId: TEMPLATE,
		digest: 'same',
		key: 'K',
		windowHours: 24,
		onConflict: 'fail',
		fields: fields({ a: 1 }),
		generates: true,
		...extra,
	});
	const found = (status: string, extra: Partial<Found> = {}): Found => ({
		card: { id: 'doc', status },
		fetchedAt: 0,
		via: 'key',
		digest: 'same',
		...extra,
	});

	test('nothing found: create', () => {
		expect(planFor(request())).toEqual({ kind: 'create' });
	});

	test.each(['success', 'pending', 'generating', 'queued-unknown'])(
		'%s with the same data: adopt',
		(status) => {
			expect(planFor(request(), found(status)).kind).toBe('adopt');
		},
	);

	test.each(['failure', 'draft'])(
		'%s with the same data: generated again by an update to pending',
		(status) => {
			expect(planFor(request(), found(status))).toMatchObject({
				kind: 'regenerate',
				fields: { status: 'pending' },
			});
		},
	);

	test('a draft asked for again as a draft is adopted as it is', () => {
		expect(planFor(request({ generates: false }), found('draft')).kind).toBe('adopt');
		expect(planFor(request({ generates: false }), found('failure')).kind).toBe('adopt');
	});

	test("a key's document with other data: a conflict, or regenerated with the item's whole write", () => {
		expect(planFor(request(), found('success', { digest: 'other' })).kind).toBe('conflict');
		expect(planFor(request(), found('success', { digest: undefined })).kind).toBe('conflict');
		const item = request({ onConflict: 'regenerate' });
		expect(planFor(item, found('success', { digest: 'other' }))).toMatchObject({
			kind: 'regenerate',
			fields: item.fields,
		});
	});

	test('a retry whose data changed makes a new document, never overwriting the earlier try', () => {
		expect(
			planFor(
				request({ onConflict: 'regenerate' }),
				found('success', { via: 'retry', digest: 'other' }),
			),
		).toEqual({ kind: 'create' });
	});
});

test('templateFilter: the distinct templates, or none past 20', () => {
	expect(templateFilter(['a', undefined, 'b', 'a'])).toEqual(['a', 'b']);
	expect(templateFilter(Array.from({ length: 21 }, (_, i) => `t${i}`))).toEqual([]);
});
