/**
 * Secrets kept out of errors (nodes/shared/transport/errors.ts): each form a secret takes in a
 * text, removed on its own: URL- and form-encoded (either case
 * of hex), JSON-escaped once and twice, base64 and base64url at each byte alignment, a
 * signing secret without its `whsec_` prefix; and what is left alone. The error body kept and an
 * error's own text, cut at their bounds in UTF-16 units with no part of a secret left. Pure.
 */
import type { TransportContext } from '../../../../nodes/shared/types';
import {
	apiError,
	redact,
	safeDetail,
	secretForms,
} from '../../../../nodes/shared/transport/errors';
import { nodeFixture } from '../../../harness/fixtures';

/** A key planted in texts cut at their bounds. */
// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- test code: a made-up key
const SECRET = 'sk_live_EDGE_0123456789abcdef0123';
/** Half of a character written as two UTF-16 units, without its other half. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

// A space, `/ + & = " \` and bytes whose base64 has `+` and `/`.
const KEY = 'sk_a b/c+d"e\\f&g=h>>>???';

test.each([
	['as it is', KEY],
	['URL-encoded', encodeURIComponent(KEY)],
	[
		'URL-encoded, lower-case hex',
		encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
	],
	['form-encoded', encodeURIComponent(KEY).replace(/%20/g, '+')],
	['JSON-escaped', JSON.stringify(KEY).slice(1, -1)],
	['JSON-escaped twice', JSON.stringify(JSON.stringify(KEY)).slice(3, -3)],
])('the key %s is removed', (_name, form) => {
	expect(redact(`before ${form} after`, KEY)).toBe('before *** after');
});

test.each([0, 1, 2])('the key in base64 and base64url after %i bytes is removed', (shift) => {
	const base64 = Buffer.concat([Buffer.alloc(shift, 65), Buffer.from(`Bearer ${KEY}`)]).toString(
		'base64',
	);
	const url = base64.replace(/\+/g, '-').replace(/\//g, '_');
	for (const text of [base64, url]) {
		const out = redact(text, KEY);
		expect(out).toContain('***');
		// What is left is the prefix's characters and at most the edges of the key's.
		expect(out.replace('***', '').length).toBeLessThan(text.length - 20);
	}
});

test('the base64 of a key of 6 bytes (8 characters) is removed; shorter cores are not looked for', () => {
	expect(redact('token YWJjZGVm end', 'abcdef')).toBe('token *** end');
	expect(secretForms('abcde')).toEqual(['abcde']);
});

test('a signing secret is removed without its whsec_ prefix too; no other prefix is cut', () => {
	const signing = 'whsec_c2VjcmV0LWJ5dGVz';
	expect(redact('sig c2VjcmV0LWJ5dGVz', signing)).toBe('sig ***');
	expect(redact('tail 345678', 'key_12345678')).toBe('tail 345678');
	// A form shorter than 4 characters is never removed (it would hit ordinary text).
	expect(redact('whsec_ab and ab', 'whsec_ab')).toBe('*** and ab');
});

test('forms come longest first, each once', () => {
	const forms = secretForms(KEY);
	expect(new Set(forms).size).toBe(forms.length);
	expect(forms.map((form) => form.length)).toEqual(
		[...forms.map((form) => form.length)].sort((a, b) => b - a),
	);
	expect(forms[forms.length - 1].length).toBeGreaterThanOrEqual(4);
});

test('several secrets, missing or short ones skipped', () => {
	expect(redact('one abcd1234 two zyxw9876', [undefined, 'abcd1234', '', 'zyxw9876'])).toBe(
		'one *** two ***',
	);
	expect(redact('abc and abcd', ['abc'])).toBe('abc and abcd');
	expect(redact('abcd and abcd', 'abcd')).toBe('*** and ***');
	expect(redact('text', [])).toBe('text');
});

describe('the body an API error keeps: 2,000 UTF-16 units, the secret removed before the cut', () => {
	const ctx = { getNode: () => nodeFixture() } as unknown as TransportContext;
	const kept = (body: unknown) =>
		(
			apiError(ctx, { message: 'm', description: 'd' }, SECRET, { body }).errorResponse as {
				body?: unknown;
			}
		).body;

	test('2,000 units of two-byte text (4,000 bytes) are kept whole; 2,001 are cut, marked …', () => {
		expect(kept('é'.repeat(2000))).toBe('é'.repeat(2000));
		expect(kept('é'.repeat(2001))).toBe(`${'é'.repeat(2000)}…`);
		expect(kept(Buffer.from('é'.repeat(2001)))).toBe(`${'é'.repeat(2000)}…`);
	});

	test('a character of two units across the cut is left out whole, never halved', () => {
		expect(kept('😀'.repeat(1000))).toBe('😀'.repeat(1000));
		expect(kept(`a${'😀'.repeat(1000)}`)).toBe(`a${'😀'.repeat(999)}…`);
		const json = kept({ t: '😀'.repeat(1000) }) as string;
		expect(json).not.toMatch(LONE_SURROGATE);
		expect(json.endsWith('😀…')).toBe(true);
	});

	test('a secret across the cut leaves no part of itself', () => {
		expect(kept(`${'x'.repeat(1980)}${SECRET} tail`)).toBe(`${'x'.repeat(1980)}*** tail`);
		expect(kept(`${'x'.repeat(1990)}${SECRET} tail`)).toBe(`${'x'.repeat(1990)}*** tail`);
		expect(kept(`${'x'.repeat(1999)}${SECRET} tail`)).toBe(`${'x'.repeat(1999)}*…`);
	});
});

describe('an error’s own text (safeDetail): bounded to 2,000 units, shown to 200', () => {
	test('a secret across the 2,000th unit, brought into view when a URL query collapses, is gone', () => {
		for (const at of [1975, 1985, 1990]) {
			const line = `GET https://h.example/p?${'q'.repeat(at - 25)} ${SECRET} failed`;
			expect(line.indexOf(SECRET)).toBe(at);
			expect(safeDetail(line, SECRET)).toBe('GET https://h.example/p?… *** failed');
		}
	});

	test('200 units of astral characters are shown whole; one unit more is cut between characters', () => {
		expect(safeDetail('😀'.repeat(100), undefined)).toBe('😀'.repeat(100));
		expect(safeDetail(`a${'😀'.repeat(100)}`, undefined)).toBe(`a${'😀'.repeat(99)}…`);
	});
});
