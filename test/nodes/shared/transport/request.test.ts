/** The pure pieces of an API call (nodes/shared/transport/request.ts) and the HTTP date reader. */
import { parseHttpDate } from '../../../../nodes/shared/helpers/dates';
import { DEFAULT_TIMEOUT_MS } from '../../../../nodes/shared/transport/exchange';
import {
	buildQuery,
	normalizeBaseUrl,
	timeoutFromCredential,
} from '../../../../nodes/shared/transport/request';

describe('timeoutFromCredential', () => {
	test.each([
		[undefined, DEFAULT_TIMEOUT_MS],
		[null, DEFAULT_TIMEOUT_MS],
		['', DEFAULT_TIMEOUT_MS],
		[0, DEFAULT_TIMEOUT_MS],
		[-5, DEFAULT_TIMEOUT_MS],
		['abc', DEFAULT_TIMEOUT_MS],
		[Number.NaN, DEFAULT_TIMEOUT_MS],
		[1, 1000],
		[2.5, 2500],
		['10', 10_000],
		[100_000, 600_000],
	])('%p → %p ms', (value, ms) => {
		expect(timeoutFromCredential(value)).toBe(ms);
	});
});

describe('buildQuery', () => {
	test('encodes keys and values, drops empty ones, keeps repeats', () => {
		expect(
			buildQuery([
				['q[document_template_id][]', 'a'],
				['q[document_template_id][]', 'b'],
				['q[status]', undefined],
				['x', ''],
				['page[number]', 2],
			]),
		).toBe(
			'?q%5Bdocument_template_id%5D%5B%5D=a&q%5Bdocument_template_id%5D%5B%5D=b&page%5Bnumber%5D=2',
		);
		expect(buildQuery([['q[search]', 'a&b=c #é']])).toBe('?q%5Bsearch%5D=a%26b%3Dc%20%23%C3%A9');
		expect(buildQuery(undefined)).toBe('');
	});
});

describe('parseHttpDate (the Date header of list answers)', () => {
	test('reads IMF-fixdate', () => {
		expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
		expect(parseHttpDate('Wed, 29 Feb 2012 23:59:59 GMT')).toBe(Date.UTC(2012, 1, 29, 23, 59, 59));
		expect(parseHttpDate(' Thu, 04 Jul 2041 12:00:00 GMT ')).toBe(Date.UTC(2041, 6, 4, 12));
		expect(parseHttpDate(['Thu, 04 Jul 2041 12:00:00 GMT'])).toBe(Date.UTC(2041, 6, 4, 12));
		expect(parseHttpDate(new Date(Date.UTC(2031, 4, 17, 9, 30, 0, 250)).toUTCString())).toBe(
			Date.UTC(2031, 4, 17, 9, 30, 0),
		);
	});

	test.each([
		undefined,
		null,
		'',
		1700000000,
		'junk',
		['Thu, 04 Jul 2041 12:00:00 GMT', 'Thu, 04 Jul 2041 12:00:01 GMT'],
		[],
		'Sunday, 06-Nov-94 08:49:37 GMT', // RFC 850: obsolete
		'Sun Nov  6 08:49:37 1994', // asctime: obsolete
		'2041-07-04T12:00:00Z',
		'Thu, 04 Jul 2041 12:00:00 +0000',
		'Thu, 4 Jul 2041 12:00:00 GMT',
		'Thu, 04 Jul 2041 12:00 GMT',
		'thu, 04 jul 2041 12:00:00 gmt',
		'Fri, 04 Jul 2041 12:00:00 GMT', // wrong weekday
		'Fri, 30 Feb 2041 12:00:00 GMT', // no such day
		'Thu, 04 Jul 2041 24:00:00 GMT',
		'Thu, 04 Jul 2041 12:60:00 GMT',
		'Thu, 04 Jul 2041 12:00:60 GMT',
		'Mon, 06 Nov 0094 08:49:37 GMT', // would become 1994
	])('ignores %p', (value) => {
		expect(parseHttpDate(value)).toBeUndefined();
	});
});

describe('normalizeBaseUrl', () => {
	test.each([
		['https://api.pdfmonkey.io', 'https://api.pdfmonkey.io'],
		['https://api.pdfmonkey.io/', 'https://api.pdfmonkey.io'],
		['  https://api.pdfmonkey.io/api/v1/ ', 'https://api.pdfmonkey.io'],
		['http://127.0.0.1:4010/API/V1', 'http://127.0.0.1:4010'],
		['', 'https://api.pdfmonkey.io'],
		[undefined, 'https://api.pdfmonkey.io'],
		[42, 'https://api.pdfmonkey.io'],
	])('%p → %p', (value, expected) => {
		expect(normalizeBaseUrl(value)).toBe(expected);
	});
});
