/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: a published example secret, never inside n8n */
/**
 * Unit tests of the signed delivery (nodes/DocumentGenerationWebhookTrigger/signature.ts): the
 * Svix signature check, and a body n8n cannot hand over refused 401 before any check, a body
 * n8n kept not read a second time (on a stand-in for n8n's webhook context).
 */
import { createHmac } from 'crypto';
import type { IWebhookFunctions } from 'n8n-workflow';

import type { WebhookSettings } from '../../../nodes/DocumentGenerationWebhookTrigger/settings';
import {
	receiveSigned,
	signingKey,
	verifySignature,
} from '../../../nodes/DocumentGenerationWebhookTrigger/signature';
import { DEFAULT_WEBHOOK_SECRET } from '../../sandbox';

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

	test('300 s away either way is accepted; 300.001 s is refused: the bound is in seconds of the clock', () => {
		for (const now of [NOW + 300_000, NOW - 300_000])
			expect(verifySignature(SECRET, delivery(), now)).toEqual({ ok: true });
		for (const now of [NOW + 300_001, NOW - 300_001]) {
			const verdict = verifySignature(SECRET, delivery(), now);
			expect(!verdict.ok && verdict.reason).toMatch(/more than 5 minutes/);
		}
	});

	/** A `v1` signature by SECRET of `body` (bytes, or text as UTF-8) sent at `timestamp`. */
	const signed = (body: string | Buffer, timestamp = TIMESTAMP) =>
		`v1,${createHmac('sha256', signingKey(SECRET)!)
			.update(Buffer.concat([Buffer.from(`${ID}.${timestamp}.`), Buffer.from(body)]))
			.digest('base64')}`;

	test('a timestamp in milliseconds, not seconds, is refused, however well signed', () => {
		const ms = String(NOW);
		const verdict = verifySignature(
			SECRET,
			delivery({ timestamp: ms, signature: signed(BODY, ms) }),
			NOW,
		);
		expect(!verdict.ok && verdict.reason).toMatch(/more than 5 minutes/);
	});

	test('a body of multibyte text is checked on its UTF-8 bytes, as a Buffer or as text', () => {
		const body = '{"name": "Zoë 😀 名"}';
		for (const rawBody of [Buffer.from(body, 'utf8'), body])
			expect(verifySignature(SECRET, delivery({ rawBody, signature: signed(body) }), NOW)).toEqual({
				ok: true,
			});
		// The same characters in another encoding are other bytes.
		const latin1 = Buffer.from('{"name": "Zoë"}', 'latin1');
		const check = delivery({ rawBody: latin1, signature: signed('{"name": "Zoë"}') });
		expect(verifySignature(SECRET, check, NOW).ok).toBe(false);
		expect(verifySignature(SECRET, { ...check, signature: signed(latin1) }, NOW).ok).toBe(true);
	});

	test('a secret that is not whsec_ base64 is refused, never thrown on', () => {
		expect(signingKey('whsec_')).toBeUndefined();
		expect(signingKey('not base64!')).toBeUndefined();
		expect(verifySignature('whsec_***', delivery(), NOW).ok).toBe(false);
		expect(signingKey(SECRET)).toEqual(Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64'));
	});
});

const settings: WebhookSettings = {
	events: ['success'],
	quotaWarning: false,
	registration: 'manual',
	templateIds: [],
	download: false,
	binaryPropertyName: 'data',
};

test('a delivery whose body n8n cannot read is answered 401 saying to send it again with its body', async () => {
	const answered: Array<{ status: number; body: unknown }> = [];
	const res = {
		status: (status: number) => ({ json: (body: unknown) => answered.push({ status, body }) }),
	};
	const ctx = {
		getRequestObject: () => ({
			readRawBody: async () => {
				throw new Error('request entity too large');
			},
		}),
		getHeaderData: () => ({
			'svix-id': 'msg_unread',
			'svix-timestamp': String(Math.floor(Date.now() / 1000)),
			'svix-signature': 'v1,bm90IHJlYWQ=',
		}),
		getResponseObject: () => res,
		getWorkflow: () => ({ id: 'w' }),
		getNode: () => ({ id: 'n' }),
	} as unknown as IWebhookFunctions;
	expect(await receiveSigned(ctx, settings, DEFAULT_WEBHOOK_SECRET)).toEqual({
		noWebhookResponse: true,
	});
	expect(answered).toEqual([
		{
			status: 401,
			body: {
				error:
					'Invalid signature: the request body could not be read; send the delivery again with its body',
			},
		},
	]);
});

/** The service's signature of a delivery: HMAC-SHA256 of "<id>.<timestamp>.<body>". */
const sign = (id: string, timestamp: string, body: string) =>
	`v1,${createHmac('sha256', Buffer.from(DEFAULT_WEBHOOK_SECRET.replace(/^whsec_/, ''), 'base64'))
		.update(`${id}.${timestamp}.${body}`)
		.digest('base64')}`;

test('a body n8n kept already is checked as it is, without reading the request a second time', async () => {
	const body = JSON.stringify({ type: 'documents.generation.unknown', payload: {} });
	const timestamp = String(Math.floor(Date.now() / 1000));
	let reads = 0;
	const ctx = {
		getRequestObject: () => ({
			rawBody: Buffer.from(body),
			// n8n's reader on a request whose body it read already: a stream that is over.
			readRawBody: async () => {
				reads++;
				throw new Error('stream is not readable');
			},
		}),
		getHeaderData: () => ({
			'svix-id': 'msg_kept',
			'svix-timestamp': timestamp,
			'svix-signature': sign('msg_kept', timestamp, body),
		}),
		getWorkflow: () => ({ id: 'w' }),
		getNode: () => ({ id: 'n' }),
	} as unknown as IWebhookFunctions;
	expect(await receiveSigned(ctx, settings, DEFAULT_WEBHOOK_SECRET)).toEqual({
		webhookResponse: { received: true, started: false, reason: 'the body holds no document' },
	});
	expect(reads).toBe(0);
});
