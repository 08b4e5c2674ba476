/** What failed and whether to retry (nodes/shared/transport/retry.ts): the policy, the network code. */
import { type INode, type JsonObject, NodeApiError } from 'n8n-workflow';
import fc from 'fast-check';

import {
	backoffDelay,
	DEFAULT_RETRY_POLICY,
	isIdempotent,
	isRetryableStatus,
	mayHaveActed,
	networkFailure,
	networkKind,
	nextDelay,
	parseRetryAfter,
	type RetryPolicy,
	shouldRetry,
} from '../../../../nodes/shared/transport/retry';
import { nodeFixture } from '../../../harness/fixtures';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('parseRetryAfter', () => {
	test.each([
		['0', 0],
		['1', 1000],
		['  7 ', 7000],
		['120', 120_000],
		['1.5', 1500],
	])('delta-seconds %j → %d ms', (header, ms) => {
		expect(parseRetryAfter(header, NOW)).toBe(ms);
	});

	test('a number (some clients parse the header) counts as seconds', () => {
		expect(parseRetryAfter(3, NOW)).toBe(3000);
		expect(parseRetryAfter(-3, NOW)).toBeUndefined();
		expect(parseRetryAfter(Number.NaN, NOW)).toBeUndefined();
	});

	test('IMF-fixdate in the future → the time until then', () => {
		expect(parseRetryAfter(new Date(NOW + 5000).toUTCString(), NOW)).toBe(5000);
		expect(parseRetryAfter('Thu, 15 Jan 2026 12:01:00 GMT', NOW)).toBe(60_000);
	});

	test('RFC 850 and asctime dates (obsolete forms HTTP still allows) are read as GMT', () => {
		expect(parseRetryAfter('Thursday, 15-Jan-26 12:00:10 GMT', NOW)).toBe(10_000);
		expect(parseRetryAfter('Thu Jan 15 12:00:20 2026', NOW)).toBe(20_000);
	});

	test('a date in the past means no wait', () => {
		expect(parseRetryAfter(new Date(NOW - 60_000).toUTCString(), NOW)).toBe(0);
	});

	test('the first of repeated headers is used', () => {
		expect(parseRetryAfter(['2', '9'], NOW)).toBe(2000);
	});

	test.each([
		undefined,
		null,
		'',
		'   ',
		'soon',
		'-1',
		'1e3',
		'0x10',
		'tomorrow 12:00',
		'2026-01-15',
		'12:00:00',
		'NaN',
		{},
		[],
		true,
	])('junk %j → undefined', (header) => {
		expect(parseRetryAfter(header, NOW)).toBeUndefined();
	});

	test('never throws and never gives a negative or non-finite wait (random text)', () => {
		fc.assert(
			fc.property(
				fc.oneof(
					fc.string(),
					fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()),
				),
				(header) => {
					const ms = parseRetryAfter(header, NOW);
					return ms === undefined || (Number.isFinite(ms) && ms >= 0);
				},
			),
			{ numRuns: 500 },
		);
	});
});

describe('backoffDelay', () => {
	const policy: RetryPolicy = {
		maxAttempts: 10,
		budgetMs: 1e9,
		baseDelayMs: 500,
		maxDelayMs: 8000,
	};

	test('grows exponentially between half and all of base·2^attempt', () => {
		expect(backoffDelay(0, policy, () => 0)).toBe(250);
		expect(backoffDelay(0, policy, () => 1)).toBe(500);
		expect(backoffDelay(1, policy, () => 0)).toBe(500);
		expect(backoffDelay(1, policy, () => 1)).toBe(1000);
		expect(backoffDelay(3, policy, () => 0.5)).toBe(3000);
	});

	test('is capped by maxDelayMs', () => {
		expect(backoffDelay(4, policy, () => 1)).toBe(8000);
		expect(backoffDelay(20, policy, () => 1)).toBe(8000);
		expect(backoffDelay(20, policy, () => 0)).toBe(4000);
	});

	test('stays within bounds for any attempt and random value', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 0, max: 60 }),
				fc.double({ min: 0, max: 1, noNaN: true }),
				(attempt, r) => {
					const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
					const d = backoffDelay(attempt, policy, () => r);
					return d >= Math.floor(ceiling / 2) && d <= ceiling;
				},
			),
		);
	});
});

describe('shouldRetry: method × outcome', () => {
	const retried = (method: string, status: number) =>
		shouldRetry(method, { kind: 'status', status });
	const retriedNet = (method: string, code: string) =>
		shouldRetry(method, { kind: 'network', code });

	test.each(['GET', 'PUT', 'DELETE', 'get'])(
		'%s is retried on 408, 429 and every 5xx, and on nothing else',
		(method) => {
			for (const status of [408, 429, 500, 502, 503, 504, 599])
				expect(retried(method, status)).toBe(true);
			for (const status of [200, 201, 204, 301, 400, 401, 403, 404, 409, 422])
				expect(retried(method, status)).toBe(false);
		},
	);

	test('POST (create) is retried on 429 only: the service refused it before acting', () => {
		expect(retried('POST', 429)).toBe(true);
		for (const status of [408, 500, 502, 503, 504, 400, 401, 404, 422])
			expect(retried('POST', status)).toBe(false);
	});

	test.each(['GET', 'PUT', 'DELETE', 'POST'])(
		'%s is retried when the connection was never made',
		(method) => {
			for (const code of [
				'ECONNREFUSED',
				'ENOTFOUND',
				'EAI_AGAIN',
				'EHOSTUNREACH',
				'ENETUNREACH',
			]) {
				expect(retriedNet(method, code)).toBe(true);
			}
		},
	);

	test('a dropped connection is retried for reads and idempotent writes, never for POST', () => {
		for (const code of ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']) {
			expect(retriedNet('GET', code)).toBe(true);
			expect(retriedNet('PUT', code)).toBe(true);
			expect(retriedNet('DELETE', code)).toBe(true);
			expect(retriedNet('POST', code)).toBe(false);
		}
	});

	test('a timeout is retried for a safe read (GET) only, never for a write', () => {
		for (const method of ['GET', 'PUT', 'DELETE', 'POST', 'PATCH']) {
			for (const code of [
				'ECONNABORTED',
				'ETIMEDOUT',
				'ESOCKETTIMEDOUT',
				'UND_ERR_HEADERS_TIMEOUT',
			]) {
				expect(retriedNet(method, code)).toBe(method === 'GET');
			}
		}
	});

	test('unknown failures (bad URL, cancelled, unknown) are not retried', () => {
		for (const code of ['ERR_INVALID_URL', 'ERR_CANCELED', 'EUNKNOWN', 'EPROTO']) {
			expect(retriedNet('GET', code)).toBe(false);
			expect(retriedNet('POST', code)).toBe(false);
		}
	});

	test('helpers agree', () => {
		expect(isIdempotent('GET')).toBe(true);
		expect(isIdempotent('post')).toBe(false);
		expect(isRetryableStatus(600)).toBe(false);
		expect(networkKind('ECONNRESET')).toBe('broken');
		expect(networkKind('ECONNREFUSED')).toBe('never-sent');
		expect(networkKind('ECONNABORTED')).toBe('timeout');
		expect(networkKind('ERR_INVALID_URL')).toBe('other');
		expect(mayHaveActed({ kind: 'status', status: 502 })).toBe(true);
		expect(mayHaveActed({ kind: 'status', status: 429 })).toBe(false);
		expect(mayHaveActed({ kind: 'network', code: 'ECONNREFUSED' })).toBe(false);
		expect(mayHaveActed({ kind: 'network', code: 'ECONNRESET' })).toBe(true);
	});
});

describe('nextDelay', () => {
	const policy = DEFAULT_RETRY_POLICY;
	const start = 1_000_000;

	test('defaults: 6 attempts within 25 s', () => {
		expect(policy).toEqual({
			maxAttempts: 6,
			budgetMs: 25_000,
			baseDelayMs: 500,
			maxDelayMs: 8000,
		});
	});

	test('no wait after the last attempt', () => {
		expect(
			nextDelay(policy.maxAttempts - 1, policy, { startedAt: start, now: start, random: () => 0 }),
		).toBeUndefined();
		expect(
			nextDelay(policy.maxAttempts - 2, policy, { startedAt: start, now: start, random: () => 0 }),
		).toBe(4000);
	});

	test('no wait that would end past the budget', () => {
		expect(nextDelay(0, policy, { startedAt: start, now: start + 24_700, random: () => 0 })).toBe(
			250,
		);
		expect(
			nextDelay(0, policy, { startedAt: start, now: start + 24_800, random: () => 0 }),
		).toBeUndefined();
	});

	test('Retry-After is honoured: the wait is at least what the service asked', () => {
		expect(
			nextDelay(0, policy, { startedAt: start, now: start, retryAfterMs: 3000, random: () => 1 }),
		).toBe(3000);
		// never shorter than the backoff, so Retry-After: 0 cannot make it hammer the service
		expect(
			nextDelay(0, policy, { startedAt: start, now: start, retryAfterMs: 0, random: () => 0 }),
		).toBe(250);
		expect(
			nextDelay(3, policy, { startedAt: start, now: start, retryAfterMs: 1000, random: () => 0 }),
		).toBe(2000);
	});

	test('a Retry-After beyond the budget ends the retries at once', () => {
		expect(
			nextDelay(0, policy, { startedAt: start, now: start, retryAfterMs: 30_000 }),
		).toBeUndefined();
		expect(
			nextDelay(0, policy, { startedAt: start, now: start + 20_000, retryAfterMs: 6000 }),
		).toBeUndefined();
	});

	test('simulated persistent failure: total wait is bounded well under 30 s', () => {
		fc.assert(
			fc.property(
				fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 10, maxLength: 10 }),
				fc.integer({ min: 0, max: 3000 }),
				(randoms, requestMs) => {
					let now = start;
					let attempts = 0;
					for (let attempt = 0; ; attempt++) {
						attempts++;
						now += requestMs;
						const delay = nextDelay(attempt, policy, {
							startedAt: start,
							now,
							random: () => randoms[attempt % randoms.length],
						});
						if (delay === undefined) break;
						now += delay;
					}
					// the budget bounds the waits; the last request adds at most its own duration
					return attempts <= policy.maxAttempts && now - start <= policy.budgetMs + requestMs;
				},
			),
		);
	});
});

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
		// The kept text, not the wrapper's own, is the detail a user reads.
		expect(networkFailure(v1('ECONNABORTED', 'timeout of 1000ms exceeded')).detail).toBe(
			'timeout of 1000ms exceeded',
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
