/**
 * Unit tests of nodes/shared/helpers/document.ts: a document's `meta` (one parse, two views),
 * its payload's depth bound, and the file name made for its binary.
 */
import {
	fileNameFor,
	metaObject,
	normalizeDocument,
} from '../../../../nodes/shared/helpers/document';

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

describe('normalizeDocument: a payload of 1,000 levels is parsed; one of 1,001 stays text', () => {
	/** JSON text `depth` levels deep, objects (a 4-byte key) and lists in turn. */
	const deepText = (depth: number) => {
		let [open, close] = ['', ''];
		for (let level = 0; level < depth; level++) {
			open += level % 2 ? '[' : '{"😀":';
			close = (level % 2 ? ']' : '}') + close;
		}
		return `${open}"é"${close}`;
	};

	test('levels are counted whatever the bytes of the keys, and lists count as objects do', () => {
		const at = normalizeDocument({ payload: deepText(1000) }).payload;
		expect(typeof at).toBe('object');
		expect(JSON.stringify(at)).toBe(deepText(1000));
		expect(normalizeDocument({ payload: deepText(1001) }).payload).toBe(deepText(1001));
	});
});

describe('fileNameFor: 255 UTF-8 bytes with the extension it adds', () => {
	const named = (filename: string, output_type = 'pdf') =>
		fileNameFor({ id: 'x', filename, output_type });

	test('a name with no extension, 251 bytes with ".pdf" added to 255, is kept whole', () => {
		expect(named(`${'é'.repeat(125)}a`)).toBe(`${'é'.repeat(125)}a.pdf`);
	});

	test('a name of 254 bytes with no extension is cut so that with ".pdf" it fits 255', () => {
		const name = named('é'.repeat(127));
		expect(name).toBe(`${'é'.repeat(125)}.pdf`);
		expect(Buffer.byteLength(name)).toBe(254);
	});

	test('a name of 200 units with no extension is cut so that with ".png" it fits 200', () => {
		expect(named('n'.repeat(200), 'image')).toBe(`${'n'.repeat(196)}.png`);
		expect(named('😀'.repeat(100), 'image')).toBe(`${'😀'.repeat(62)}.png`);
	});
});
