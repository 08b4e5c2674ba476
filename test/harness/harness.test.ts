/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * Checks the built package loads in n8n the way a community package does, and that the
 * harness drives it on the real engine. Needs `npm run build` first (dist/).
 */
import * as fs from 'fs';
import * as path from 'path';

import { startSandbox, type Sandbox } from '../sandbox';
import { startNode } from './fixtures';
import {
	CREDENTIAL_TYPE,
	credentialsFor,
	getBinaryBuffer,
	loadPackage,
	runNode,
	runWorkflow,
	testCredential,
	type LoadedPackage,
} from './index';

const NODE = 'documentGeneration';
const TRIGGER = 'documentGenerationTrigger';
const WEBHOOK = 'documentGenerationWebhookTrigger';

let pkg: LoadedPackage;

beforeAll(async () => {
	pkg = await loadPackage();
});

describe('package loading (n8n-core PackageDirectoryLoader)', () => {
	test('finds the three nodes and the credential, under the names workflows use', () => {
		expect(pkg.packageName).toBe('n8n-nodes-document-generation');
		expect(Object.keys(pkg.loader.known.nodes).sort()).toEqual([NODE, TRIGGER, WEBHOOK].sort());
		expect(Object.keys(pkg.loader.known.credentials)).toEqual([CREDENTIAL_TYPE]);
		for (const name of [NODE, TRIGGER, WEBHOOK]) {
			const full = `n8n-nodes-document-generation.${name}`;
			expect(pkg.nodeTypes.getByNameAndVersion(full, 1).description.name).toBe(name);
			expect(pkg.sourcePath('nodes', name)).toMatch(/[/\\]dist[/\\]nodes[/\\].+\.node\.js$/);
		}
		expect(pkg.nodeDescription(TRIGGER).polling).toBe(true);
		// n8n links the credential to the nodes that declare it (supportedNodes).
		expect(pkg.loader.known.credentials[CREDENTIAL_TYPE].supportedNodes?.sort()).toEqual(
			[NODE, TRIGGER, WEBHOOK].sort(),
		);
		expect(pkg.nodeDescription(WEBHOOK).webhooks?.[0]).toMatchObject({
			httpMethod: 'POST',
			responseMode: 'onReceived',
		});
	});

	test('icons resolve to files inside dist/', () => {
		const dist = path.join(pkg.dir, 'dist') + path.sep;
		const described = [
			pkg.nodeDescription(NODE).iconUrl,
			pkg.nodeDescription(TRIGGER).iconUrl,
			pkg.credentialType(CREDENTIAL_TYPE).iconUrl,
		];
		for (const iconUrl of described) {
			// The loader turns `icon: 'file:…'` into `iconUrl: 'icons/<package>/<path>'`.
			expect(iconUrl).toBeDefined();
			const files = pkg.iconFiles(iconUrl);
			expect(files.length).toBeGreaterThan(0);
			for (const file of files) {
				expect(file.startsWith(dist)).toBe(true);
				expect(fs.existsSync(file)).toBe(true);
				expect(fs.readFileSync(file, 'utf8')).toContain('<svg');
			}
		}
	});

	test('codex (<Node>.node.json beside the node file) is loaded', () => {
		for (const name of [NODE, TRIGGER]) {
			const codex = pkg.nodeDescription(name).codex;
			expect(codex).toBeDefined();
			expect(codex?.categories?.length).toBeGreaterThan(0);
			expect(codex?.resources?.primaryDocumentation?.[0]?.url).toMatch(/^https:\/\//);
		}
	});
});

describe('against the sandbox', () => {
	let sb: Sandbox;

	beforeAll(async () => {
		sb = await startSandbox({ pendingMs: 10, generatingMs: 30 });
	});
	afterAll(async () => {
		await sb.close();
	});

	test('credential test: OK with the right key, Error (401) with a wrong one', async () => {
		sb.resetRequests();
		await expect(testCredential(credentialsFor(sb))).resolves.toEqual({
			status: 'OK',
			message: expect.any(String),
		});
		expect(sb.requests).toHaveLength(1);
		expect(sb.requests[0]).toMatchObject({
			method: 'GET',
			path: '/api/v1/current_user',
			authorization: `Bearer ${sb.apiKey}`,
			status: 200,
		});

		const wrong = await testCredential({ baseUrl: sb.url, apiKey: 'sk_wrong' });
		expect(wrong.status).toBe('Error');
		expect(wrong.message).toEqual(expect.any(String));
		expect(sb.requests[1]).toMatchObject({ authorization: 'Bearer sk_wrong', status: 401 });

		// The credential's test tolerates a trailing slash in the base URL.
		await expect(
			testCredential({ baseUrl: `${sb.url}/`, apiKey: sb.apiKey }),
		).resolves.toMatchObject({
			status: 'OK',
		});
		// ... and a pasted /api/v1 in any case, as the nodes' own requests do.
		for (const pasted of ['/api/v1', '/API/V1/'])
			await expect(
				testCredential({ baseUrl: `${sb.url}${pasted}`, apiKey: sb.apiKey }),
			).resolves.toMatchObject({ status: 'OK' });
	});

	test("runNode: the credential type authenticates the node's API calls", async () => {
		sb.resetRequests();
		const { items, error } = await runNode({
			parameters: { resource: 'account', operation: 'get' },
			credentials: credentialsFor(sb),
		});
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json).not.toHaveProperty('auth_token');
		expect(sb.requests.every((r) => r.authorization === `Bearer ${sb.apiKey}`)).toBe(true);
	});

	test('runNode: a wrong key gives the node error; continueOnFail keeps the item', async () => {
		const failed = await runNode({
			parameters: { resource: 'account', operation: 'get' },
			credentials: { baseUrl: sb.url, apiKey: 'sk_wrong' },
		});
		expect(failed.error).toMatchObject({ name: 'NodeApiError' });
		expect(failed.items).toEqual([]);

		const continued = await runNode({
			parameters: { resource: 'account', operation: 'get' },
			credentials: { baseUrl: sb.url, apiKey: 'sk_wrong' },
			nodeSettings: { onError: 'continueRegularOutput' },
		});
		expect(continued.items).toHaveLength(1);
	});

	test('binary output can be read back', async () => {
		const doc = sb.createDocument({ status: 'success' });
		const { items, error } = await runNode({
			parameters: { resource: 'document', operation: 'download', documentId: doc.id },
			credentials: credentialsFor(sb),
		});
		expect(error).toBeUndefined();
		const binary = items[0]?.binary?.data;
		expect(binary).toBeDefined();
		const bytes = await getBinaryBuffer(binary!);
		expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
	});
});

test('runWorkflow: the harness start node emits the given items', async () => {
	const { data, error } = await runWorkflow({
		nodes: [startNode([{ a: 1 }, { a: 2 }])],
		connections: {},
	});
	expect(error).toBeUndefined();
	expect(data.Start?.[0]?.map((i) => i.json)).toEqual([{ a: 1 }, { a: 2 }]);
});
