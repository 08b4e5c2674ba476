/**
 * One delivery: trust it (a valid Svix signature when the credential has a signing secret,
 * `signed.ts`; otherwise the document re-read from the API with the key, `unsigned.ts`), check
 * it against the chosen events, templates and channel, and start one execution with the
 * document (the file attached on request) or the quota warning's figures. A refused signed
 * delivery answers 401 and starts nothing; one that does not match answers 200 (so the service
 * does not retry it) and starts nothing; one that cannot be checked just now (the request
 * limit, the service failing) answers 503, and the service sends it again later.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { CREDENTIAL_TYPE, limitRequestsTo } from '../shared/transport';
import { readWebhookSettings } from './settings';
import { receiveSigned } from './signed';
import { receiveUnsigned } from './unsigned';

/**
 * A delivery waits for the service's request limit only briefly: answered with an error, it
 * is sent again later by the service, which is better than holding the connection.
 */
const DELIVERY_LIMIT = {
	maxWaitMs: 10_000,
	advice: 'n8n answered the delivery with an error, so the service sends it again later.',
};

export async function receive(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const settings = readWebhookSettings(this);
	limitRequestsTo(this, DELIVERY_LIMIT);
	const credentials = (await this.getCredentials(CREDENTIAL_TYPE)) as IDataObject;
	const secret =
		typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret.trim() : '';
	return secret
		? await receiveSigned(this, settings, secret)
		: await receiveUnsigned(this, settings);
}
