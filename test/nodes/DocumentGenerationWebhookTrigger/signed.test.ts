/**
 * A signed delivery whose body n8n cannot hand over (its reader fails: a body over n8n's size
 * limit, a connection cut while it was read): refused 401 before any signature check, saying
 * to send it again with its body; and a body n8n kept is not read a second time. On a stand-in
 * for n8n's webhook context.
 */
import { createHmac } from 'crypto';
import type { IWebhookFunctions } from 'n8n-workflow';

import type { WebhookSettings } from '../../../nodes/DocumentGenerationWebhookTrigger/settings';
import { receiveSigned } from '../../../nodes/DocumentGenerationWebhookTrigger/signed';
import { DEFAULT_WEBHOOK_SECRET } from '../../sandbox';

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
