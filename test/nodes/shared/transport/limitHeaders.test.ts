/** Unit tests of reading the limit headers (nodes/shared/transport/limitHeaders.ts). */
import { parseLimitHeaders } from '../../../../nodes/shared/transport/limitHeaders';

const T = 1_000_000;

describe('parseLimitHeaders', () => {
	const from = (headers: Record<string, string>) => (name: string) => headers[name];

	test('X-RateLimit-*: reset as a unix time, read against the answer’s own clock', () => {
		const now = Date.UTC(2026, 10, 24, 12, 0, 10);
		expect(
			parseLimitHeaders(
				from({
					'x-ratelimit-limit': '100',
					'x-ratelimit-remaining': '42',
					'x-ratelimit-reset': String(Date.UTC(2026, 10, 24, 12, 1, 0) / 1000),
				}),
				now,
			),
		).toEqual({ limit: 100, remaining: 42, resetMs: 50_000 });
	});

	test('X-RateLimit-Reset as seconds from now', () => {
		expect(
			parseLimitHeaders(from({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '12' }), T),
		).toEqual({ remaining: 0, resetMs: 12_000 });
	});

	test('IETF drafts: separate fields, the combined field, and the structured one with a policy', () => {
		expect(
			parseLimitHeaders(
				from({ 'ratelimit-limit': '10', 'ratelimit-remaining': '4', 'ratelimit-reset': '7' }),
				T,
			),
		).toEqual({ limit: 10, remaining: 4, resetMs: 7000 });
		expect(parseLimitHeaders(from({ ratelimit: 'limit=10, remaining=4, reset=7' }), T)).toEqual({
			limit: 10,
			remaining: 4,
			resetMs: 7000,
		});
		expect(
			parseLimitHeaders(
				from({ ratelimit: '"default";r=4;t=7', 'ratelimit-policy': '"default";q=10;w=60' }),
				T,
			),
		).toEqual({ limit: 10, remaining: 4, resetMs: 7000 });
	});

	test('several policies in one field: the tightest counts', () => {
		expect(
			parseLimitHeaders(from({ ratelimit: '"hour";r=400;t=3000, "minute";r=3;t=20' }), T),
		).toEqual({ remaining: 3, resetMs: 20_000 });
	});

	test('none, or junk: nothing', () => {
		expect(parseLimitHeaders(from({}), T)).toBeUndefined();
		expect(parseLimitHeaders(from({ 'x-ratelimit-remaining': 'lots' }), T)).toBeUndefined();
	});
});
