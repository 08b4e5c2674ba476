/**
 * When a download link ends: the URL's own signature times where it has them, else the read
 * time plus one hour (unit); every output item that carries a `download_url` says it, as the
 * engine reads documents from the sandbox, whose links carry X-Amz signature times.
 */
import {
	LINK_LIFE_MS,
	linkExpiry,
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
