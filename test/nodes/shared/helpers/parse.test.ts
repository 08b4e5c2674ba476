/** Unit tests of the pure input checks (nodes/shared/helpers/parse.ts). */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import {
	InputError,
	checkDepth,
	isUuid,
	parseBinaryPropertyName,
	parseId,
	parseIdList,
	parseJsonObject,
	parseLimit,
	parseListFilters,
	parseMaxFileSize,
	parsePositiveInteger,
	parseWriteStatus,
	preview,
	toUnixSeconds,
} from '../../../../nodes/shared/helpers/parse';
import { ID, refusal } from '../../../harness/refusal';
import {
	parseFileOption,
	parseTriggerEvents,
} from '../../../../nodes/shared/helpers/triggerOptions';
import {
	MAX_JSON_DEPTH,
	jsonDepth,
	jsonProblem,
	parseJsonLoose,
} from '../../../../nodes/shared/helpers/json';
import {
	payloadFromFields,
	requirePayload,
} from '../../../../nodes/DocumentGeneration/descriptions/payloadParts';

const ID2 = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';

const JS_ERROR_TEXT =
	/TypeError|Cannot read properties|undefined is not|is not a function|\[object Object\]|Unexpected token/;

describe('parseId', () => {
	test('plain, padded, upper-case, locator, URL and path forms', () => {
		expect(parseId(ID, 'document ID')).toBe(ID);
		expect(parseId(`  ${ID}\n`, 'document ID')).toBe(ID);
		expect(parseId(ID.toUpperCase(), 'document ID')).toBe(ID);
		expect(parseId({ __rl: true, mode: 'id', value: ID }, 'document ID')).toBe(ID);
		expect(parseId(`https://dashboard.pdfmonkey.io/documents/${ID}`, 'document ID')).toBe(ID);
		expect(parseId(`?id=${ID}`, 'document ID')).toBe(ID);
	});

	test.each([
		['empty', ''],
		['spaces', '   '],
		['undefined', undefined],
		['null', null],
		['number', 42],
		['array', [ID]],
		['locator without value', { __rl: true, mode: 'id', value: '' }],
		['short', '1b2c3d4e'],
		['id with suffix', `${ID}x`],
		['id glued to text', `abc${ID}`],
		['path traversal', `../${ID}/../../current_user`],
		['query injection', `${ID}?q=1`],
	])('refuses %s with a message naming the field', (_label, value) => {
		const e = refusal(() => parseId(value, 'document ID'));
		expect(e.message).toMatch(/document ID/);
		expect(e.hint).toMatch(/UUID/);
		expect(e.message).not.toMatch(JS_ERROR_TEXT);
	});

	test('anything accepted is a lower-case UUID (safe to put in a path)', () => {
		fc.assert(
			fc.property(
				fc.oneof(
					fc.string(),
					fc.uuid(),
					fc.uuid().map((u) => `x/${u}`),
					fc.anything(),
				),
				(value) => {
					try {
						const id = parseId(value, 'document ID');
						return isUuid(id) && id === id.toLowerCase();
					} catch (error) {
						return error instanceof InputError && !JS_ERROR_TEXT.test(error.message);
					}
				},
			),
			{ numRuns: 500 },
		);
	});
});

describe('parseJsonObject', () => {
	test('objects and JSON text of one object', () => {
		expect(parseJsonObject({ a: 1 }, 'payload')).toEqual({ a: 1 });
		expect(parseJsonObject('{"a": [1, "二", "🙂"]}', 'payload')).toEqual({ a: [1, '二', '🙂'] });
		expect(parseJsonObject('  {}  ', 'payload')).toEqual({});
	});

	test('empty values mean "not given"', () => {
		for (const value of [undefined, null, '', '   '])
			expect(parseJsonObject(value, 'payload')).toBeUndefined();
	});

	test.each([
		['array', [1, 2], /must be one JSON object, but it is an array/],
		['array text', '[{"a":1}]', /must be one JSON object, but it is an array/],
		['number text', '42', /but it is a number/],
		['string text', '"hi"', /but it is a text/],
		['null text', 'null', /but it is null/],
		['boolean', true, /but it is a boolean/],
		['number', 7, /but it is a number/],
		['broken JSON', '{"a": ', /is not valid JSON/],
		['not JSON', 'customer=Ada', /is not valid JSON/],
	])('refuses %s', (_label, value, message) => {
		const e = refusal(() => parseJsonObject(value, 'payload'));
		expect(e.message).toMatch(/payload/);
		expect(e.message).toMatch(message);
		expect(e.hint).toMatch(/object/);
	});

	test.each([
		['customer=Ada', /^unexpected "c"; check quotes, commas and brackets$/],
		['{"a": ', /^it ends too early/],
		['{a:1}', /^names need double quotes.* at character 2$/],
		['{"a":1,}', /^names need double quotes.* at character 8$/],
		['{"a" 1}', /^a ":" is missing after a name at character 6$/],
		['{"a":"x}', /^a text in quotes is not closed at character 9$/],
		['{"a":1} x', /^there is more text after the end of the object at character 9$/],
		['[1,]', /^unexpected "\]"/],
	])('broken JSON %j is described in plain words', (text, problem) => {
		const e = refusal(() => parseJsonObject(text, 'payload'));
		expect(e.message).toMatch(/^The payload is not valid JSON \(/);
		expect(e.message).not.toMatch(JS_ERROR_TEXT);
		expect(e.message).not.toMatch(/Unexpected token|is not valid JSON\)$/);
		let parserMessage = '';
		try {
			JSON.parse(text);
		} catch (error) {
			parserMessage = (error as Error).message;
		}
		expect(jsonProblem(parserMessage)).toMatch(problem);
	});

	test('an array hint says how to wrap it', () => {
		expect(refusal(() => parseJsonObject([], 'payload')).hint).toMatch(
			/Wrap the list in an object/,
		);
	});

	test('never crashes on any value', () => {
		fc.assert(
			fc.property(fc.oneof(fc.anything(), fc.json(), fc.string()), (value) => {
				try {
					const out = parseJsonObject(value, 'meta');
					return (
						out === undefined || (typeof out === 'object' && out !== null && !Array.isArray(out))
					);
				} catch (error) {
					return error instanceof InputError && !JS_ERROR_TEXT.test(error.message);
				}
			}),
			{ numRuns: 500 },
		);
	});
});

describe('parseIdList', () => {
	test('arrays, comma/space/newline separated text, locators; de-duplicated, lower-cased', () => {
		expect(parseIdList([ID, ID2], 'template filter')).toEqual([ID, ID2]);
		expect(parseIdList(`${ID}, ${ID2.toUpperCase()}\n${ID}`, 'template filter')).toEqual([ID, ID2]);
		expect(parseIdList([`${ID},${ID2}`], 'template filter')).toEqual([ID, ID2]);
		expect(parseIdList([{ value: ID }], 'template filter')).toEqual([ID]);
		for (const empty of [undefined, null, '', [], [''], ' , '])
			expect(parseIdList(empty, 'template filter')).toEqual([]);
	});

	test.each([['nope'], [[ID, 'nope']], [42], [[{}]], [[null, 'x']]])('refuses %j', (value) => {
		const e = refusal(() => parseIdList(value, 'template filter'));
		expect(e.message).toMatch(/template filter contains ".*", which is not a valid ID/);
	});
});

describe('toUnixSeconds', () => {
	test('ISO text, Date, epoch ms, epoch seconds text, Luxon-like objects', () => {
		expect(toUnixSeconds('2026-01-31T09:00:00Z', 'date')).toBe(1769850000);
		expect(toUnixSeconds(new Date(1769850000123), 'date')).toBe(1769850000);
		expect(toUnixSeconds(1769850000999, 'date')).toBe(1769850000);
		expect(toUnixSeconds('1769850000', 'date')).toBe(1769850000);
		expect(toUnixSeconds({ toMillis: () => 1769850000500 }, 'date')).toBe(1769850000);
		expect(toUnixSeconds({ toISO: () => '2026-01-31T09:00:00.000Z' }, 'date')).toBe(1769850000);
	});

	test.each([
		['yesterday'],
		[''],
		[null],
		[undefined],
		[Number.NaN],
		[Infinity],
		[{}],
		[[]],
		[new Date('x')],
	])('refuses %p', (value) => {
		const e = refusal(() => toUnixSeconds(value, 'Updated Since date'));
		expect(e.message).toMatch(/Updated Since date/);
		expect(e.message).not.toMatch(JS_ERROR_TEXT);
	});
});

describe('parsePositiveInteger', () => {
	test('whole numbers of at least 1, also as text', () => {
		expect(parsePositiveInteger(1, 'limit', 'hint')).toBe(1);
		expect(parsePositiveInteger('50', 'limit', 'hint')).toBe(50);
	});
	test.each([
		[0],
		[-1],
		[1.5],
		['abc'],
		[''],
		[null],
		[undefined],
		[Number.NaN],
		[Infinity],
		[{}],
		['1e400'],
	])('refuses %p', (value) => {
		const e = refusal(() => parsePositiveInteger(value, 'limit', 'Set Limit to 1 or more'));
		expect(e.message).toMatch(/^The limit must be a whole number of at least 1/);
		expect(e.hint).toBe('Set Limit to 1 or more');
	});
});

describe('parseLimit (Return All and Limit of the Get Many operations)', () => {
	test('Return All gives every result, whatever Limit says', () => {
		expect(parseLimit(true, 50)).toBe(Infinity);
		expect(parseLimit(true, 'junk')).toBe(Infinity);
	});
	test('otherwise the Limit, checked, with a hint that names both fields', () => {
		expect(parseLimit(false, 7)).toBe(7);
		expect(parseLimit(undefined, '3')).toBe(3);
		const e = refusal(() => parseLimit(false, 0));
		expect(e.message).toMatch(/^The limit must be a whole number of at least 1, but it is 0/);
		expect(e.hint).toBe('Set Limit to a whole number such as 50, or turn on Return All');
	});
});

describe('preview and parseJsonLoose', () => {
	test('preview clips and survives odd values', () => {
		expect(preview('x'.repeat(100))).toBe(`${'x'.repeat(40)}…`);
		expect(preview(undefined)).toBe('undefined');
		expect([NaN, Infinity, -Infinity].map((n) => preview(n))).toEqual([
			'NaN',
			'Infinity',
			'-Infinity',
		]);
		const circular: Record<string, unknown> = {};
		circular.self = circular;
		expect(preview(circular)).toBe('[object Object]');
		expect(preview(10n)).toBe('10');
	});
	test('parseJsonLoose parses JSON text and leaves everything else alone', () => {
		expect(parseJsonLoose('{"a":1}')).toEqual({ a: 1 });
		expect(parseJsonLoose('not json')).toBe('not json');
		expect(parseJsonLoose(5)).toBe(5);
	});
});

describe('parseWriteStatus', () => {
	test('pending and draft pass; anything else is refused with the allowed values', () => {
		expect(parseWriteStatus('pending')).toBe('pending');
		expect(parseWriteStatus('draft')).toBe('draft');
		for (const bad of ['success', 'PENDING', '', null, undefined, 3]) {
			expect(() => parseWriteStatus(bad)).toThrow(InputError);
			expect(() => parseWriteStatus(bad)).toThrow(/is not allowed/);
		}
		expect(() => parseWriteStatus('generating')).toThrow('The status "generating" is not allowed');
	});
});

describe('parseBinaryPropertyName', () => {
	test('a name is trimmed; empty, blank and non-text names are refused', () => {
		expect(parseBinaryPropertyName('  pdf ')).toBe('pdf');
		for (const bad of ['', '   ', null, undefined, 7, {}]) {
			expect(() => parseBinaryPropertyName(bad)).toThrow('The output binary field name is empty');
		}
	});
});

describe('parseListFilters', () => {
	test('every filter checked and converted; blank fields left out', () => {
		expect(parseListFilters({})).toEqual({});
		expect(parseListFilters(undefined)).toEqual({});
		expect(
			parseListFilters({
				templateIds: `${ID}, ${ID2.toUpperCase()}`,
				status: 'failure',
				workspaceId: ID,
				updatedSince: '2026-01-31T09:00:00Z',
			}),
		).toEqual({
			templateIds: [ID, ID2],
			status: 'failure',
			workspaceId: ID,
			updatedSince: 1769850000,
		});
		expect(
			parseListFilters({ templateIds: [], status: '', workspaceId: null, updatedSince: '' }),
		).toEqual({});
	});

	test('a bad status, workspace, template or date is refused', () => {
		expect(() => parseListFilters({ status: 'pending' })).toThrow(
			'The status filter "pending" is not one the list accepts',
		);
		expect(() => parseListFilters({ workspaceId: 'acme' })).toThrow(
			/workspace ID "acme" is not a valid ID/,
		);
		expect(() => parseListFilters({ templateIds: ['nope'] })).toThrow(
			/template filter contains "nope"/,
		);
		expect(() => parseListFilters({ updatedSince: 'yesterday-ish' })).toThrow(/is not a date/);
	});
});

describe('broken JSON: the cause and the place', () => {
	test.each([
		['{"a": 1,}', /^a comma comes right before "}" at character 9: remove that last comma$/],
		['{\n  "a": 1,\n  "b": [1, 2,]\n}', /^a comma comes right before "]" at line 3, column 14/],
		[
			'{customer: "Ada"}',
			/^the name customer needs double quotes, e.g. "customer" at character 2$/,
		],
		['{"a": 1, total: 2}', /^the name total needs double quotes/],
		[
			"{'a': 1}",
			/^texts and names need double quotes \("\), not single quotes \('\) at character 2$/,
		],
		['{\n  "a": "x\n}', /^a text in quotes is not closed before the end of its line at line 2/],
	])('%j', (text, problem) => {
		const e = refusal(() => parseJsonObject(text, 'payload'));
		expect(e.message).toMatch(/^The payload is not valid JSON \(/);
		expect(e.message.slice('The payload is not valid JSON ('.length, -1)).toMatch(problem);
	});
});

describe('payloadFromFields (Payload Mode "Fields")', () => {
	test('dotted names build nested objects; values are kept as given', () => {
		expect(
			payloadFromFields([
				{ key: 'customer.name', value: 'Ada' },
				{ key: 'customer.address.city', value: 'London' },
				{ key: 'total', value: 42 },
				{ key: ' lines ', value: [{ q: 1 }] },
				{ key: '', value: 'skipped' },
			]),
		).toEqual({
			customer: { name: 'Ada', address: { city: 'London' } },
			total: 42,
			lines: [{ q: 1 }],
		});
	});

	test('a name given twice, or both a value and an object, is refused naming the field', () => {
		expect(
			refusal(() =>
				payloadFromFields([
					{ key: 'a', value: 1 },
					{ key: 'a', value: 2 },
				]),
			).message,
		).toMatch(/field 2 \("a"\) sets "a", which another field already sets/);
		expect(
			refusal(() =>
				payloadFromFields([
					{ key: 'a', value: 1 },
					{ key: 'a.b', value: 2 },
				]),
			).message,
		).toMatch(/field 2 \("a.b"\) puts a name under "a"/);
		expect(
			refusal(() =>
				payloadFromFields([
					{ key: 'a.b', value: 1 },
					{ key: 'a', value: 2 },
				]),
			).message,
		).toMatch(/field 2 \("a"\) sets "a"/);
		// An object given as a value (from an expression) is a value, not a level to add to.
		expect(
			refusal(() =>
				payloadFromFields([
					{ key: 'a', value: { x: 1 } },
					{ key: 'a.b', value: 2 },
				]),
			).message,
		).toMatch(/field 2 \("a.b"\) puts a name under "a"/);
		expect(refusal(() => payloadFromFields([{ key: 'a..b', value: 1 }])).message).toMatch(
			/empty part in its name/,
		);
	});

	test('a value of 0, false or empty text is kept as given; only a missing value is empty text', () => {
		expect(
			payloadFromFields([
				{ key: 'total', value: 0 },
				{ key: 'paid', value: false },
				{ key: 'note', value: '' },
				{ key: 'missing' },
			]),
		).toEqual({ total: 0, paid: false, note: '', missing: '' });
	});

	test('a clash under a dotted name is shown with its dots', () => {
		const twice = refusal(() =>
			payloadFromFields([
				{ key: 'a.b', value: 1 },
				{ key: 'a.b', value: 2 },
			]),
		);
		expect(twice.message).toBe(
			'The payload field 2 ("a.b") sets "a.b", which another field already sets',
		);
		const both = refusal(() =>
			payloadFromFields([
				{ key: 'a.b', value: 1 },
				{ key: 'a.b.c', value: 2 },
			]),
		);
		expect(both.message).toBe(
			'The payload field 2 ("a.b.c") puts a name under "a.b", which another field sets to a value',
		);
		expect(both.hint).toBe('Use either "a.b" or names under it such as "a.b.name", not both');
	});

	test('a row whose name is only blanks (spaces, a tab) is skipped like an empty one', () => {
		expect(
			payloadFromFields([
				{ key: '   ', value: 'skipped' },
				{ key: '\t', value: 'skipped too' },
				{ key: 'total', value: 42 },
			]),
		).toEqual({ total: 42 });
	});

	test('names such as __proto__ are plain keys: nothing leaks into prototypes', () => {
		const payload = payloadFromFields([{ key: '__proto__.polluted', value: 'yes' }]);
		expect(Object.keys(payload)).toEqual(['__proto__']);
		expect(JSON.stringify(payload)).toBe('{"__proto__":{"polluted":"yes"}}');
		expect(({} as IDataObject).polluted).toBeUndefined();
	});

	test('nothing given is an empty payload, which requirePayload refuses', () => {
		expect(payloadFromFields(undefined)).toEqual({});
		expect(refusal(() => requirePayload(payloadFromFields([]), 'fields')).message).toBe(
			'The payload is empty, so the document would be blank',
		);
		expect(refusal(() => requirePayload(undefined, 'json')).hint).toMatch(/\{\{ \$json \}\}/);
	});

	test('a name of 1000 levels is taken; one of 1001 is refused with the bound', () => {
		const levels = (n: number) => Array.from({ length: n }, (_, i) => `l${i}`).join('.');
		const payload = payloadFromFields([{ key: levels(1000), value: 'deep' }]);
		expect(JSON.stringify(payload)).toContain('"l999":"deep"');
		const e = refusal(() => payloadFromFields([{ key: levels(1001), value: 'deep' }]));
		expect(e.message).toMatch(/^The payload field 1 \(.*\) has more than 1000 levels in its name$/);
		expect(e.hint).toMatch(/names of at most 1000 levels/);
	});

	test('spaces around the parts of a dotted name are dropped', () => {
		expect(payloadFromFields([{ key: ' customer . name ', value: 'Ada' }])).toEqual({
			customer: { name: 'Ada' },
		});
	});

	test('a name an expression gives as a number is used as text; a row without a value sends empty text', () => {
		expect(payloadFromFields([{ key: 2026, value: 'year' }])).toEqual({ '2026': 'year' });
		expect(payloadFromFields([{ key: 'note' }])).toEqual({ note: '' });
		expect(payloadFromFields([{ key: 'note', value: null }])).toEqual({ note: '' });
	});

	test('a refused name says how to name the fields instead', () => {
		const twice = refusal(() =>
			payloadFromFields([
				{ key: 'a', value: 1 },
				{ key: 'a', value: 2 },
			]),
		);
		expect(twice.hint).toMatch(/^Give each name once/);
		const both = refusal(() =>
			payloadFromFields([
				{ key: 'a', value: 1 },
				{ key: 'a.b', value: 2 },
			]),
		);
		expect(both.hint).toBe('Use either "a" or names under it such as "a.name", not both');
		const empty = refusal(() => payloadFromFields([{ key: 'a..b', value: 1 }]));
		expect(empty.hint).toMatch(/dots separate the levels/);
	});

	test("an empty payload's hint names where the data goes in each Payload Mode", () => {
		expect(refusal(() => requirePayload({}, 'fields')).hint).toMatch(/under Payload Fields/);
		expect(refusal(() => requirePayload({}, 'templateFields')).hint).toMatch(
			/at least one of the Template Fields/,
		);
		expect(refusal(() => requirePayload({}, 'json')).hint).toMatch(/into Payload \(JSON\)/);
	});

	test('a payload nested deeper than 1000 levels is refused', () => {
		let deep: IDataObject = { end: true };
		for (let i = 0; i < 1001; i++) deep = { next: deep };
		expect(refusal(() => requirePayload(deep, 'templateFields')).message).toMatch(
			/^The payload is nested more than 1000 levels deep$/,
		);
		expect(requirePayload({ a: 1 }, 'fields')).toEqual({ a: 1 });
	});
});

describe('parseTriggerEvents and parseFileOption (both triggers)', () => {
	test('a list or comma-separated text; duplicates dropped; unknown or none refused', () => {
		expect(parseTriggerEvents(['success'])).toEqual(['success']);
		expect(parseTriggerEvents(' failure, success ,failure')).toEqual(['failure', 'success']);
		expect(refusal(() => parseTriggerEvents(['done'])).message).toBe(
			'The event "done" is not one the trigger knows',
		);
		expect(refusal(() => parseTriggerEvents([])).message).toBe('No event is chosen');
		expect(refusal(() => parseTriggerEvents('')).message).toBe('No event is chosen');
	});

	test('the binary field is read and checked only when the file is wanted', () => {
		const field = jest.fn(() => ' pdf ');
		expect(parseFileOption(false, field)).toEqual({ download: false, binaryPropertyName: 'data' });
		expect(field).not.toHaveBeenCalled();
		// Max File Size: the default (100 MB) when it is not given.
		expect(parseFileOption(true, field)).toEqual({
			download: true,
			binaryPropertyName: 'pdf',
			maxFileBytes: 100 * 1024 * 1024,
		});
		expect(refusal(() => parseFileOption(true, () => '')).message).toMatch(
			/binary field name is empty/,
		);
	});

	test('Max File Size: MB to bytes, 0 for no limit, read only when the file is wanted', () => {
		const size = jest.fn(() => 2);
		expect(parseFileOption(false, () => 'data', size).maxFileBytes).toBeUndefined();
		expect(size).not.toHaveBeenCalled();
		expect(parseFileOption(true, () => 'data', size).maxFileBytes).toBe(2 * 1024 * 1024);
		expect(
			parseFileOption(
				true,
				() => 'data',
				() => 0,
			).maxFileBytes,
		).toBeUndefined();
		expect(
			parseFileOption(
				true,
				() => 'data',
				() => '0.5',
			).maxFileBytes,
		).toBe(512 * 1024);
		for (const bad of [-1, 'big', Number.NaN, {}])
			expect(
				refusal(() =>
					parseFileOption(
						true,
						() => 'data',
						() => bad,
					),
				).message,
			).toMatch(/max file size must be a number of MB, 0 or more/);
	});
});

const MB = 1024 * 1024;

/** `{ next: { next: … } }`, `levels` objects deep. */
function nested(levels: number): object {
	let value: object = {};
	for (let i = 1; i < levels; i++) value = { next: value };
	return value;
}

describe('parseId', () => {
	test('nothing, null and blank text are empty; another value names what it is', () => {
		for (const empty of [undefined, null, '', '   ', { value: null }]) {
			expect(refusal(() => parseId(empty, 'template')).message).toBe('The template is empty');
		}
		expect(refusal(() => parseId([ID], 'template')).message).toBe(
			'The template must be text, but it is an array',
		);
		expect(refusal(() => parseId({ value: {} }, 'template')).message).toBe(
			'The template must be text, but it is an object',
		);
		expect(refusal(() => parseId(undefined, 'template')).hint).toBe(
			'Enter the template (a UUID such as 1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d), or pick one from the list',
		);
	});

	test('a number or a boolean from an expression is shown as the text it gives', () => {
		expect(refusal(() => parseId(12345, 'document ID')).message).toBe(
			'The document ID "12345" is not a valid ID',
		);
		expect(refusal(() => parseId(true, 'document ID')).message).toBe(
			'The document ID "true" is not a valid ID',
		);
	});

	test('a link is read for its ID only when the ID follows a "/" or "=", not any text ending in one', () => {
		expect(parseId(`https://app.example.com/documents/${ID}`, 'document ID')).toBe(ID);
		const glued = `https://app.example.com/documents/copy-${ID}`;
		expect(refusal(() => parseId(glued, 'document ID')).message).toBe(
			`The document ID "${preview(glued)}" is not a valid ID`,
		);
	});
});

describe('parseJsonObject and checkDepth', () => {
	test('JSON text of blanks in quotes is named an empty text', () => {
		expect(refusal(() => parseJsonObject('"   "', 'payload')).message).toBe(
			'The payload must be one JSON object, but it is an empty text',
		);
	});

	test('exactly the bound of levels is taken; one more is refused, saying how to fix it', () => {
		expect(jsonDepth(nested(MAX_JSON_DEPTH))).toBe(MAX_JSON_DEPTH);
		expect(() => checkDepth(nested(MAX_JSON_DEPTH), 'payload')).not.toThrow();
		const e = refusal(() => checkDepth(nested(MAX_JSON_DEPTH + 1), 'payload'));
		expect(e.message).toBe(`The payload is nested more than ${MAX_JSON_DEPTH} levels deep`);
		expect(e.hint).toBe(
			`Flatten the payload: objects and lists may nest at most ${MAX_JSON_DEPTH} levels (a template reads a few), e.g. send a long chain as a list`,
		);
	});
});

describe('parseIdList', () => {
	test('empty places in a list (null, nothing, empty text) are skipped, not refused', () => {
		expect(parseIdList([ID, null, undefined, ''], 'template filter')).toEqual([ID]);
	});

	test('a value that is not an ID is refused, saying how to list them', () => {
		expect(refusal(() => parseIdList('invoice', 'template filter')).hint).toBe(
			'List template IDs (UUIDs) separated by commas, or pick them from the list',
		);
	});
});

describe('parsePositiveInteger', () => {
	test('only a number or its text: true and a list of one number are refused', () => {
		for (const bad of [true, [5], ['5']]) {
			expect(refusal(() => parsePositiveInteger(bad, 'limit', 'hint')).message).toMatch(
				/^The limit must be a whole number of at least 1, but it is /,
			);
		}
	});
});

describe('the hints of the status and the binary field', () => {
	test('each refusal says how to fix it', () => {
		expect(refusal(() => parseWriteStatus('done')).hint).toBe(
			'Choose "Pending" to generate the file now, or "Draft" to store the document without generating it',
		);
		expect(refusal(() => parseBinaryPropertyName(' ')).hint).toBe(
			'Enter a field name such as "data" in "Put Output File in Field"',
		);
	});
});

describe('parseMaxFileSize', () => {
	test('null and empty text from an expression mean unset: the default 100 MB', () => {
		for (const unset of [undefined, null, '']) expect(parseMaxFileSize(unset)).toBe(100 * MB);
	});

	test('only a number or its text: true and a list of one number are refused', () => {
		for (const bad of [true, [2]]) expect(() => parseMaxFileSize(bad)).toThrow(InputError);
	});

	test('a refusal quotes a text, names any other value, and says how to fix it', () => {
		const text = refusal(() => parseMaxFileSize('big'));
		expect(text.message).toBe(
			'The max file size must be a number of MB, 0 or more, but it is "big"',
		);
		expect(text.hint).toBe(
			'Set Max File Size to the largest file to accept in MB (e.g. 100), or 0 for no limit',
		);
		expect(refusal(() => parseMaxFileSize(-1)).message).toBe(
			'The max file size must be a number of MB, 0 or more, but it is a number',
		);
	});
});

test('preview clips only a text longer than its bound', () => {
	expect(preview('x'.repeat(40))).toBe('x'.repeat(40));
	expect(preview('x'.repeat(41))).toBe(`${'x'.repeat(40)}…`);
});
