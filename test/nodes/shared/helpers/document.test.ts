/** Unit tests of reading a document's `meta` (nodes/shared/helpers/document.ts): one parse, two views. */
import { metaObject, normalizeDocument } from '../../../../nodes/shared/helpers/document';

describe('metaObject: meta as a plain object to read keys from', () => {
	test('a string of JSON (API answers) and an object (webhook bodies) read alike', () => {
		expect(metaObject('{"_filename":"a.pdf","n":1}')).toEqual({ _filename: 'a.pdf', n: 1 });
		expect(metaObject({ _webhook_channel: 'eu' })).toEqual({ _webhook_channel: 'eu' });
	});

	test.each([
		['null', null],
		['absent', undefined],
		['empty text', ''],
		['invalid JSON', '{"a":'],
		['a JSON list', '[1,2]'],
		['a list', [{ a: 1 }]],
		['a JSON number', '3'],
		['a JSON text', '"x"'],
		['a number', 7],
	])('%s is {}', (_label, value) => {
		expect(metaObject(value)).toEqual({});
	});
});

describe('normalizeDocument keeps its contract for meta', () => {
	test('parsed into an object or null; invalid JSON left as the string it was', () => {
		expect(normalizeDocument({ meta: '{"a":1}' }).meta).toEqual({ a: 1 });
		expect(normalizeDocument({ meta: '' }).meta).toBeNull();
		expect(normalizeDocument({ meta: null }).meta).toBeNull();
		expect(normalizeDocument({ meta: '{"a":' }).meta).toBe('{"a":');
		expect(normalizeDocument({ meta: '{"_password":"s","b":2}' }).meta).toEqual({ b: 2 });
	});
});
