/**
 * The edges of the pure input checks (nodes/shared/helpers/parse.ts) a user meets through an
 * expression: what each refusal says (an empty value or one that is not text, a text of
 * blanks, exactly the bound) and how to fix it, values that are skipped or taken as unset
 * rather than refused, and a pasted link that only looks like it ends in an ID.
 */
import { MAX_JSON_DEPTH, jsonDepth } from '../../../../nodes/shared/helpers/depth';
import {
	InputError,
	checkDepth,
	parseBinaryPropertyName,
	parseId,
	parseIdList,
	parseJsonObject,
	parseMaxFileSize,
	parsePositiveInteger,
	parseWriteStatus,
	preview,
} from '../../../../nodes/shared/helpers/parse';
import { ID, refusal } from './refusal';

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
