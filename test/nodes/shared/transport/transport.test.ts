/** Unit tests of the pure helpers of the transport (nodes/shared/transport/) and of the HTTP date reader. */
import { NodeApiError, type INode, type JsonObject } from 'n8n-workflow';
import { z } from 'zod';

import { DEFAULT_TIMEOUT_MS } from '../../../../nodes/shared/transport/calls';
import { networkFailure } from '../../../../nodes/shared/transport/network';
import {
	buildQuery,
	normalizeBaseUrl,
	timeoutFromCredential,
} from '../../../../nodes/shared/transport/request';
import { parseHttpDate } from '../../../../nodes/shared/helpers/dates';
import { describeShape, firstIssue } from '../../../../nodes/shared/transport/schemas';
import { nodeFixture } from '../../../harness/fixtures';

const node: INode = nodeFixture();

/** An error shaped like axios's, wrapped the way n8n's httpRequestWithAuthentication wraps it. */
function wrapped(code: string, message: string) {
	const axiosLike = Object.assign(new Error(message), {
		code,
		name: 'AxiosError',
		config: { headers: { Authorization: 'Bearer x' } },
	});
	return new NodeApiError(node, axiosLike as unknown as JsonObject);
}

describe('networkFailure', () => {
	test('finds the code below n8n\'s rewritten message (a timeout is not "aborted" = cancelled)', () => {
		const error = wrapped('ECONNABORTED', 'timeout of 1000ms exceeded');
		// n8n replaced the message with its generic text, which says "aborted"
		expect(error.message).toMatch(/aborted/);
		expect(networkFailure(error)).toEqual({
			code: 'ECONNABORTED',
			detail: 'timeout of 1000ms exceeded',
		});
	});

	test.each([
		['ECONNRESET', 'socket hang up'],
		['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9'],
		['ENOTFOUND', 'getaddrinfo ENOTFOUND api.pdfmonky.io'],
		['ERR_INVALID_URL', 'Invalid URL'],
		['ERR_CANCELED', 'canceled'],
	])('%s through the wrapper', (code, message) => {
		expect(networkFailure(wrapped(code, message)).code).toBe(code);
	});

	test('reads the error n8n 1.x hands back: no cause, the code in httpCode, the text in messages', () => {
		// What n8n-workflow 1.x's NodeApiError makes of an axios error: its own message, the
		// axios code as httpCode, the original message kept in messages, no cause.
		const v1 = (code: string, original: string) =>
			Object.assign(new Error('The connection to the server was closed unexpectedly'), {
				httpCode: code,
				messages: [original],
			});
		expect(networkFailure(v1('ECONNRESET', 'socket hang up')).code).toBe('ECONNRESET');
		expect(networkFailure(v1('ECONNABORTED', 'timeout of 1000ms exceeded')).code).toBe(
			'ECONNABORTED',
		);
		// An HTTP status in httpCode is not a network code; the kept text still names the failure.
		expect(networkFailure(v1('503', 'socket hang up')).code).toBe('ECONNRESET');
	});

	test('falls back to the messages when no level has a code', () => {
		expect(networkFailure(new Error('timeout of 30000ms exceeded')).code).toBe('ECONNABORTED');
		expect(networkFailure(new Error('socket hang up')).code).toBe('ECONNRESET');
		expect(networkFailure(new Error('x', { cause: new Error('read EPIPE') })).code).toBe('EPIPE');
		expect(
			networkFailure(Object.assign(new Error('canceled'), { name: 'CanceledError' })).code,
		).toBe('ERR_CANCELED');
		expect(networkFailure(new Error('something else'))).toEqual({
			code: 'EUNKNOWN',
			detail: 'something else',
		});
		expect(networkFailure(new Error('ERROR: bad')).code).toBe('EUNKNOWN');
	});

	test('survives odd throws and cycles', () => {
		expect(networkFailure(undefined).code).toBe('EUNKNOWN');
		expect(networkFailure('text').code).toBe('EUNKNOWN');
		const a: Record<string, unknown> = { message: 'a' };
		a.cause = a;
		expect(networkFailure(a).code).toBe('EUNKNOWN');
		expect(networkFailure({ code: 42 }).code).toBe('EUNKNOWN');
	});
});

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

describe('describeShape', () => {
	const schema = z.object({ document: z.object({ id: z.string() }) });
	const issue = (body: unknown) => describeShape(body, schema.safeParse(body).error!);
	test('in words', () => {
		expect(issue(undefined)).toBe('an empty answer');
		expect(issue('')).toBe('an empty answer');
		expect(issue('<html>')).toBe('an HTML page instead of JSON');
		expect(issue('OK')).toBe('text instead of JSON');
		expect(issue([1])).toBe('a list where an object was expected');
		expect(issue({})).toBe('document: Required');
		expect(issue({ document: { id: 1 } })).toBe('document.id: Expected string, received number');
		expect(firstIssue(new z.ZodError([]))).toBe('unexpected shape');
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
