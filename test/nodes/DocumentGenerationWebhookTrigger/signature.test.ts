/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: a published example secret, never inside n8n */
/** Unit tests of the webhook signature check (nodes/DocumentGenerationWebhookTrigger/signature.ts). */
import {
	signingKey,
	verifySignature,
} from '../../../nodes/DocumentGenerationWebhookTrigger/signature';

// The example of Svix's documentation on verifying webhooks by hand.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const TIMESTAMP = '1614265330';
const BODY = '{"test": 2432232314}';
const SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
const NOW = Number(TIMESTAMP) * 1000;

const delivery = (extra: Partial<Parameters<typeof verifySignature>[1]> = {}) => ({
	id: ID,
	timestamp: TIMESTAMP,
	signature: SIGNATURE,
	rawBody: Buffer.from(BODY),
	...extra,
});

describe('verifySignature', () => {
	test("Svix's documented example verifies, from a Buffer or a string body", () => {
		expect(verifySignature(SECRET, delivery(), NOW)).toEqual({ ok: true });
		expect(verifySignature(SECRET, delivery({ rawBody: BODY }), NOW + 299_000)).toEqual({
			ok: true,
		});
	});

	test('any of several space-separated signatures may match; other versions are skipped', () => {
		expect(
			verifySignature(SECRET, delivery({ signature: `v1,AAAA v2,xyz ${SIGNATURE}` }), NOW),
		).toEqual({ ok: true });
	});

	test.each([
		['another body', delivery({ rawBody: '{"test": 2432232315}' }), /no signature matches/],
		[
			're-serialised JSON (not the raw body)',
			delivery({ rawBody: '{"test":2432232314}' }),
			/no signature matches/,
		],
		['another id', delivery({ id: 'msg_other' }), /no signature matches/],
		['a signature of another length', delivery({ signature: 'v1,abc' }), /no signature matches/],
		['no signature header', delivery({ signature: undefined }), /header is missing/],
		['no id header', delivery({ id: '' }), /header is missing/],
		['a timestamp that is not a number', delivery({ timestamp: '16142653a0' }), /not a number/],
	])('refuses %s', (_label, d, reason) => {
		const verdict = verifySignature(SECRET, d, NOW);
		expect(verdict.ok).toBe(false);
		expect(!verdict.ok && verdict.reason).toMatch(reason);
	});

	test('a timestamp more than 5 minutes away, either way, is refused', () => {
		for (const now of [NOW + 301_000, NOW - 301_000]) {
			const verdict = verifySignature(SECRET, delivery(), now);
			expect(!verdict.ok && verdict.reason).toMatch(/more than 5 minutes/);
		}
	});

	test('a secret that is not whsec_ base64 is refused, never thrown on', () => {
		expect(signingKey('whsec_')).toBeUndefined();
		expect(signingKey('not base64!')).toBeUndefined();
		expect(verifySignature('whsec_***', delivery(), NOW).ok).toBe(false);
		expect(signingKey(SECRET)).toEqual(Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64'));
	});
});
