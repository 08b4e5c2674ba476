/**
 * When a download link ends: the URL's own signature times where it has them, else the read
 * time plus one hour (unit); every output item that carries a `download_url` says it, as the
 * engine reads documents from the sandbox, whose links carry X-Amz signature times.
 */
import {
	LINK_LIFE_MS,
	linkExpiry,
	signedAt,
	signedExpiry,
	withLinkExpiry,
} from '../../../../nodes/shared/helpers/linkExpiry';
import { useSandbox } from '../../../harness/use-sandbox';
import { numbered, numberedCreate, onDocument, run } from '../../DocumentGeneration/helpers';

const READ_AT = Date.UTC(2026, 10, 26, 10, 0, 0);

describe('linkExpiry', () => {
	test('X-Amz-Date plus X-Amz-Expires, names in any case', () => {
		const url =
			'https://files.example/f.pdf?x-amz-date=20261126T093000Z&X-Amz-Expires=900&X-Amz-Signature=ab';
		expect(linkExpiry(url, READ_AT)).toBe('2026-11-26T09:45:00.000Z');
	});

	test('X-Goog-Date plus X-Goog-Expires, and Expires in unix seconds', () => {
		expect(signedExpiry('https://g.example/f?X-Goog-Date=20261126T100000Z&X-Goog-Expires=60')).toBe(
			Date.UTC(2026, 10, 26, 10, 1, 0),
		);
		expect(linkExpiry('https://cdn.example/f.pdf?Expires=1795000000&Signature=x', READ_AT)).toBe(
			new Date(1795000000 * 1000).toISOString(),
		);
	});

	test('without signature times (or unreadable ones): one hour from the read', () => {
		const hour = new Date(READ_AT + LINK_LIFE_MS).toISOString();
		expect(linkExpiry('https://files.example/f.pdf', READ_AT)).toBe(hour);
		expect(
			linkExpiry('https://f.example/f?X-Amz-Date=20261131T000000Z&X-Amz-Expires=60', READ_AT),
		).toBe(hour);
		expect(
			linkExpiry('https://f.example/f?X-Amz-Date=20261126T000000Z&X-Amz-Expires=-1', READ_AT),
		).toBe(hour);
		expect(linkExpiry('not a url', READ_AT)).toBe(hour);
		for (const impossible of [
			'20261126T240000Z',
			'20261126T006000Z',
			'20261126T000060Z',
			'00011126T000000Z',
		])
			expect(
				linkExpiry(`https://f.example/f?X-Amz-Date=${impossible}&X-Amz-Expires=60`, READ_AT),
			).toBe(hour);
		expect(
			linkExpiry(`https://f.example/f?Expires=1795000000&pad=${'a'.repeat(20_000)}`, READ_AT),
		).toBe(hour);
	});

	test('no link, no time; a record without download_url is left as it is', () => {
		expect(linkExpiry(null, READ_AT)).toBeNull();
		expect(linkExpiry('', READ_AT)).toBeNull();
		expect(withLinkExpiry({ download_url: null }, READ_AT)).toEqual({
			download_url: null,
			download_url_expires_at: null,
		});
		expect(withLinkExpiry({ id: 'x' }, READ_AT)).toEqual({ id: 'x' });
	});

	test('a URL that repeats a name takes its first value', () => {
		const url =
			'https://f.example/f?X-Amz-Date=20261126T100000Z&X-Amz-Expires=60&X-Amz-Expires=99999';
		expect(signedExpiry(url)).toBe(Date.UTC(2026, 10, 26, 10, 1, 0));
	});
});

describe('every output item with a download_url says when it ends', () => {
	const sb = useSandbox({ pendingMs: 10, generatingMs: 30, downloadTtlMs: 600_000 });

	/** What the sandbox's link says of itself: its X-Amz signature times. */
	const ownExpiry = (url: unknown) => new Date(signedExpiry(String(url))!).toISOString();

	test('create (waited), get, get many and download: the link’s own signature times', async () => {
		const made = await run(sb, numberedCreate(sb, { download: false }), numbered(2));
		expect(made.error).toBeUndefined();
		for (const item of made.items) {
			expect(item.json.download_url).toEqual(expect.any(String));
			expect(item.json.download_url_expires_at).toBe(ownExpiry(item.json.download_url));
		}
		const id = String(made.items[0].json.id);
		const before = Date.now();
		const got = await run(sb, onDocument('get', id));
		const after = Date.now();
		const many = await run(sb, { resource: 'document', operation: 'getAll', returnAll: true });
		const downloaded = await run(sb, onDocument('download', id));
		for (const item of [...got.items, ...many.items, ...downloaded.items]) {
			expect(item.json.download_url_expires_at).toBe(ownExpiry(item.json.download_url));
		}
		// Signed while Get ran, for the sandbox's 10 minutes; the signature's time has whole
		// seconds, so within a second of that. Bracketed by the clock before and after the run:
		// true on a machine of any speed.
		const ends = Date.parse(String(got.items[0].json.download_url_expires_at));
		expect(ends).toBeGreaterThanOrEqual(before + 599_000);
		expect(ends).toBeLessThanOrEqual(after + 601_000);
	});

	test('a draft has no link and says so with null', async () => {
		const made = await run(sb, numberedCreate(sb, { status: 'draft' }));
		expect(made.items[0].json.download_url).toBeNull();
		expect(made.items[0].json.download_url_expires_at).toBeNull();
	});
});

describe('the exact form and bounds of a signing time', () => {
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

	test('the 16,384 are UTF-16 units of the URL as given, not its bytes or its encoded form', () => {
		const base = 'https://f.example/f?Expires=1795000000&pad=';
		const padded = (unit: string, length: number) => {
			const units = length - base.length;
			return base + unit.repeat(Math.floor(units / unit.length)) + 'a'.repeat(units % unit.length);
		};
		for (const unit of ['é', '😀']) {
			// 'é' is 2 bytes and 6 characters encoded; '😀' 4 bytes, 2 units, 12 characters encoded.
			expect(padded(unit, 16_384)).toHaveLength(16_384);
			expect(signedExpiry(padded(unit, 16_384))).toBe(1_795_000_000_000);
			expect(signedExpiry(padded(unit, 16_385))).toBeUndefined();
		}
	});

	test('a link that is not text has no time; a time past what a date can say is none', () => {
		expect(linkExpiry(42, READ_AT)).toBeNull();
		expect(linkExpiry(['https://f.example/f'], READ_AT)).toBeNull();
		const last = 8.64e15;
		expect(linkExpiry('https://f.example/f', last - LINK_LIFE_MS)).toBe(
			new Date(last).toISOString(),
		);
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
});
