/**
 * The edges of a download link's end time that mutation testing found unpinned: the exact
 * form of a signing time, the bounds of each part of it, of its seconds and of the URL, and
 * which signature wins. Pure.
 */
import {
	LINK_LIFE_MS,
	linkExpiry,
	signedAt,
	signedExpiry,
	withLinkExpiry,
} from '../../../../nodes/shared/helpers/linkExpiry';

const READ_AT = Date.UTC(2026, 10, 26, 10, 0, 0);
const HOUR = new Date(READ_AT + LINK_LIFE_MS).toISOString();
const amz = (date: string, expires = '60') =>
	`https://f.example/f?X-Amz-Date=${date}&X-Amz-Expires=${expires}`;

test.each([
	['19700101T000000Z', '1970-01-01T00:01:00.000Z'],
	['20261126T235959Z', '2026-11-27T00:00:59.000Z'],
	['20280229T120000Z', '2028-02-29T12:01:00.000Z'],
	['20261231T000000Z', '2026-12-31T00:01:00.000Z'],
])('a signing time of %s is read', (date, ends) => {
	expect(linkExpiry(amz(date), READ_AT)).toBe(ends);
});

test.each([
	['a year before 1970', '19691231T235959Z'],
	['a 13th month', '20261301T000000Z'],
	['a month 0', '20260001T000000Z'],
	['a day 0', '20261100T000000Z'],
	['February 29th of a common year', '20260229T000000Z'],
	['one character short', '20261126T10000Z'],
	['one character more', '20261126T1000000Z'],
	['no T', '20261126X100000Z'],
	['no Z', '20261126T100000X'],
	['a letter among the digits', '2026112aT100000Z'],
	['a sign among the digits', '+0261126T100000Z'],
	['a sign in the month', '2026+126T100000Z'],
	['a character after the Z', '20261126T100000Z0'],
])('a signing time with %s is not read: one hour from the read', (_name, date) => {
	expect(linkExpiry(amz(date), READ_AT)).toBe(HOUR);
	expect(signedAt(amz(date))).toBeUndefined();
});

test('a life of up to 10 digits is read, 0 included; 11 digits or none is not', () => {
	const at = Date.UTC(2026, 10, 26, 10, 0, 0);
	expect(signedExpiry(amz('20261126T100000Z', '0'))).toBe(at);
	expect(signedExpiry(amz('20261126T100000Z', '9999999999'))).toBe(at + 9_999_999_999_000);
	expect(signedExpiry(amz('20261126T100000Z', '99999999999'))).toBeUndefined();
	expect(signedExpiry(amz('20261126T100000Z', ''))).toBeUndefined();
	expect(signedExpiry('https://f.example/f?Expires=9999999999')).toBe(9_999_999_999_000);
	expect(signedExpiry('https://f.example/f?Expires=99999999999')).toBeUndefined();
	expect(signedExpiry('https://f.example/f?Expires=1e9')).toBeUndefined();
});

test('an X-Amz time without its life gives way to X-Goog, then to Expires', () => {
	expect(
		signedExpiry(
			'https://f.example/f?X-Amz-Date=20261126T100000Z&X-Goog-Date=20261126T110000Z&X-Goog-Expires=60',
		),
	).toBe(Date.UTC(2026, 10, 26, 11, 1, 0));
	expect(signedExpiry('https://f.example/f?X-Amz-Date=20261126T100000Z&Expires=1795000000')).toBe(
		1_795_000_000_000,
	);
	expect(signedExpiry('https://f.example/f?X-Amz-Expires=60')).toBeUndefined();
	expect(signedExpiry('not a url')).toBeUndefined();
});

test('signedAt: the X-Amz or X-Goog date, whichever is readable first', () => {
	expect(signedAt(amz('20261126T100000Z'))).toBe(Date.UTC(2026, 10, 26, 10, 0, 0));
	expect(signedAt('https://g.example/f?x-goog-date=20261126T110000Z')).toBe(
		Date.UTC(2026, 10, 26, 11, 0, 0),
	);
	expect(signedAt('https://g.example/f?X-Amz-Date=bad&X-Goog-Date=20261126T110000Z')).toBe(
		Date.UTC(2026, 10, 26, 11, 0, 0),
	);
	expect(signedAt('https://g.example/f')).toBeUndefined();
	expect(signedAt('not a url')).toBeUndefined();
});

test('a URL of 16384 characters is read; one longer is not', () => {
	const base = 'https://f.example/f?Expires=1795000000&pad=';
	const at = (length: number) => base + 'a'.repeat(length - base.length);
	expect(signedExpiry(at(16_384))).toBe(1_795_000_000_000);
	expect(signedExpiry(at(16_385))).toBeUndefined();
	expect(signedAt(`${amz('20261126T100000Z')}&pad=${'a'.repeat(16_384)}`)).toBeUndefined();
});

test('a link that is not text has no time; a time past what a date can say is none', () => {
	expect(linkExpiry(42, READ_AT)).toBeNull();
	expect(linkExpiry(['https://f.example/f'], READ_AT)).toBeNull();
	const last = 8.64e15;
	expect(linkExpiry('https://f.example/f', last - LINK_LIFE_MS)).toBe(new Date(last).toISOString());
	expect(linkExpiry('https://f.example/f', last - LINK_LIFE_MS + 1)).toBeNull();
	expect(linkExpiry('https://f.example/f', -last - LINK_LIFE_MS)).toBe(
		new Date(-last).toISOString(),
	);
	expect(linkExpiry('https://f.example/f', -last - LINK_LIFE_MS - 1)).toBeNull();
	expect(linkExpiry('https://f.example/f', Number.NaN)).toBeNull();
});

test('withLinkExpiry gives a copy, the record read left as it was', () => {
	const record = { id: 'x', download_url: 'https://f.example/f' };
	const out = withLinkExpiry(record, READ_AT);
	expect(out).toEqual({ ...record, download_url_expires_at: HOUR });
	expect(record).toEqual({ id: 'x', download_url: 'https://f.example/f' });
});
