/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The credential (credentials/DocumentGenerationApi.credentials.ts): the fields the editor shows
 * (which are secret, required, bounded), where the key is sent (the Authorization header, the
 * request's own headers kept), and its Test: the account read at the API's address, however
 * the Base URL was pasted, and a redirect answered with words about the Base URL, the key not
 * sent on. The package is loaded inside the first test (mutation testing counts a field as
 * reached only by the test that loads it). Needs `npm run build` first.
 */
import { readFileSync } from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';

import type { ICredentialType, IHttpRequestOptions } from 'n8n-workflow';

import {
	CREDENTIAL_TYPE,
	credentialsFor,
	loadPackage,
	PROJECT_ROOT,
	propertyNamed,
	testCredential,
} from '../harness';
import { useSandbox } from '../harness/use-sandbox';
import { CORE_MAJOR } from '../harness/versions';

const { homepage } = JSON.parse(readFileSync(`${PROJECT_ROOT}/package.json`, 'utf8')) as {
	homepage: string;
};
const readme = readFileSync(`${PROJECT_ROOT}/README.md`, 'utf8');

async function credentialType(): Promise<ICredentialType> {
	return (await loadPackage()).credentialType(CREDENTIAL_TYPE);
}

/** The files behind the credential's light and dark icons, as n8n serves them. */
async function iconFiles(): Promise<string[]> {
	const pkg = await loadPackage();
	return pkg.iconFiles(pkg.credentialType(CREDENTIAL_TYPE).iconUrl);
}

/** The two secrets: password fields, the key required, the signing secret optional. */
function expectSecrets(type: ICredentialType): void {
	expect(propertyNamed(type, 'apiKey')).toEqual({
		displayName: 'API Key',
		name: 'apiKey',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		required: true,
		description:
			'The secret API key of your account, from the API key page of the dashboard (My Account → API Secret Key)',
	});
	expect(propertyNamed(type, 'webhookSecret')).toEqual({
		displayName: 'Webhook Signing Secret',
		name: 'webhookSecret',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		placeholder: 'whsec_…',
		description:
			'Optional. Used only by the instant (webhook) trigger: the signing secret of the webhook endpoint, shown beside it in the dashboard (Webhooks). With it, the trigger accepts only deliveries signed by the service; without it, it re-reads each document from the API before trusting it.',
	});
}

/** The Base URL (required, the public API by default) and the timeout (1 to 600 s, 30). */
function expectAddressAndTimeout(type: ICredentialType): void {
	expect(propertyNamed(type, 'baseUrl')).toEqual({
		displayName: 'Base URL',
		name: 'baseUrl',
		type: 'string',
		default: 'https://api.pdfmonkey.io',
		required: true,
		placeholder: 'https://api.pdfmonkey.io',
		description:
			'Root of the API host, without /api/v1. Change it only to point at a local sandbox or a proxy.',
	});
	expect(propertyNamed(type, 'requestTimeout')).toEqual({
		displayName: 'Request Timeout (Seconds)',
		name: 'requestTimeout',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 600 },
		default: 30,
		description:
			'How long to wait for the service to start answering a request (and between parts of a download) before giving up. A read that timed out is tried again (3 attempts in all); a create that timed out is never repeated.',
	});
}

/** The Test: GET the account, redirects not followed, each redirect status with its words. */
function expectTestRequest(type: ICredentialType): void {
	expect(type.test?.request).toMatchObject({
		// Spaces, trailing slashes and an /api/v1 pasted with the address are dropped (the
		// describe below runs it).
		baseURL: '={{$credentials.baseUrl.trim().replace(/\\/+$/, "").replace(/\\/api\\/v1$/i, "")}}',
		url: '/api/v1/current_user',
		method: 'GET',
		disableFollowRedirect: true,
	});
	const statuses = [301, 302, 303, 307, 308];
	expect(type.test?.rules).toEqual(
		statuses.map((status) => ({
			type: 'responseCode',
			properties: {
				value: status,
				message: `The service answered with a redirect (${status}) instead of the account, and the key was not sent on. Check the Base URL: it must be the API's own address (e.g. https://api.pdfmonkey.io, with https and without a path); if n8n reaches the service through a proxy, check that the proxy passes requests on instead of redirecting them.`,
			},
		})),
	);
}

test('the credential as the editor shows it: its name, the fields in order, which are secret and required, its Test', async () => {
	const type = await credentialType();
	expect(type.displayName).toBe('Document Generation (PDFMonkey) API');
	// The editor's "docs" link: the README's section on the credential.
	expect(type.documentationUrl).toBe(`${homepage.replace(/#readme$/, '')}#credentials`);
	expect(readme).toMatch(/^## Credentials$/m);
	expect(type.properties.map((p) => p.name)).toEqual([
		'apiKey',
		'baseUrl',
		'requestTimeout',
		'webhookSecret',
	]);
	expectSecrets(type);
	expectAddressAndTimeout(type);
	expectTestRequest(type);
	const [light, dark] = await iconFiles();
	expect(light).toMatch(/[/\\]icons[/\\]documentGeneration\.svg$/);
	expect(dark).toMatch(/[/\\]icons[/\\]documentGeneration\.dark\.svg$/);
});

describe('where the key is sent', () => {
	async function authenticated(
		credentials: Record<string, unknown>,
		request: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = await credentialType();
		if (typeof authenticate !== 'function') throw new Error('authenticate is not a function');
		return await authenticate(credentials as never, request);
	}

	test("as a Bearer Authorization header, the request's own headers and options kept", async () => {
		const request: IHttpRequestOptions = {
			url: '/api/v1/documents',
			method: 'POST',
			body: { a: 1 },
			headers: { Accept: 'application/pdf', 'Idempotency-Key': 'k-1' },
		};
		expect(await authenticated({ apiKey: 'sk_live_1' }, request)).toEqual({
			...request,
			headers: {
				Accept: 'application/pdf',
				'Idempotency-Key': 'k-1',
				Authorization: 'Bearer sk_live_1',
			},
		});
		// The request handed in is left as it was.
		expect(request.headers).toEqual({ Accept: 'application/pdf', 'Idempotency-Key': 'k-1' });
	});

	test('a request without headers gets the Authorization header alone; no key sends an empty Bearer', async () => {
		expect(await authenticated({ apiKey: 'k' }, { url: '/x' })).toEqual({
			url: '/x',
			headers: { Authorization: 'Bearer k' },
		});
		expect((await authenticated({}, { url: '/x' })).headers).toEqual({ Authorization: 'Bearer ' });
	});
});

describe("the credential's Test", () => {
	const sb = useSandbox({ pendingMs: 10, generatingMs: 30 });

	test('a Base URL pasted with spaces around it and slashes after it passes; the key goes only in the header', async () => {
		const { apiKey, baseUrl } = credentialsFor(sb);
		await expect(testCredential({ apiKey, baseUrl: `  ${baseUrl}//  ` })).resolves.toMatchObject({
			status: 'OK',
		});
		expect(sb.requests).toHaveLength(1);
		expect(sb.requests[0]).toMatchObject({
			method: 'GET',
			path: '/api/v1/current_user',
			rawQuery: '',
			authorization: `Bearer ${apiKey}`,
			status: 200,
		});
	});
});

describe('a Base URL answered with a permanent redirect (http to https, a moved host)', () => {
	let front: { url: string; requests: http.IncomingHttpHeaders[]; close(): Promise<void> };
	beforeAll(async () => {
		front = await startMovedFront();
	});
	afterAll(async () => {
		await front.close();
	});

	test.each([301, 308])(
		'%i: the Test fails (on n8n 2.x naming the redirect and the Base URL); the key is not sent on',
		async (status) => {
			front.requests.length = 0;
			const result = await testCredential({
				apiKey: 'sk_moved',
				baseUrl: `${front.url}/${status}`,
			});
			expect(result.status).toBe('Error');
			if (CORE_MAJOR >= 2) {
				expect(result.message).toContain(`redirect (${status})`);
				expect(result.message).toContain('Check the Base URL');
			}
			// One request, to the Base URL: the redirect's target never asked.
			expect(front.requests).toHaveLength(1);
		},
	);
});

/**
 * A host that answers `/<status>/…` with that redirect to `/elsewhere/…` on itself, and
 * records the headers of every request (one to `/elsewhere` would be the key sent on).
 */
async function startMovedFront(): Promise<{
	url: string;
	requests: http.IncomingHttpHeaders[];
	close(): Promise<void>;
}> {
	const requests: http.IncomingHttpHeaders[] = [];
	const server = http.createServer((req, res) => {
		requests.push(req.headers);
		const [, status, ...rest] = (req.url ?? '/').split('/');
		res.writeHead(Number(status) || 404, { Location: `/elsewhere/${rest.join('/')}` });
		res.end();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
