/**
 * Secrets kept out of errors (nodes/shared/transport/errors.ts): each form a secret takes in a
 * text, removed on its own: URL- and form-encoded (either case
 * of hex), JSON-escaped once and twice, base64 and base64url at each byte alignment, a
 * signing secret without its `whsec_` prefix; and what is left alone. Pure.
 */
import { redact, secretForms } from '../../../../nodes/shared/transport/errors';

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
