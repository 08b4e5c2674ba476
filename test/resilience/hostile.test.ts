/* eslint-disable no-console -- test code: runs in Node under jest, never inside n8n */
/**
 * What a hostile service or hostile input can do, through the real engine: a file name with
 * path parts or control characters gives a base name only (never a `directory`), and data
 * nested 20,000 levels deep fails its item with a clear message before anything is sent, in
 * every place that takes JSON (payload in each mode, meta, update, template sample data); an
 * error that echoes the key or the signing secret in an encoded form shows none of it; a file
 * over Max File Size (announced, or one that never ends) fails its item naming the document.
 */
import type { INodeParameters } from 'n8n-workflow';

import {
	createPoller,
	createWebhookTrigger,
	describeError,
	getBinaryBuffer,
	runNode,
} from '../harness';
import { DEFAULT_WEBHOOK_SECRET } from '../sandbox';
import { canonical } from '../../nodes/shared/helpers/document';
import { digestOf } from '../../nodes/DocumentGeneration/engine/writes';
import { MAX_JSON_DEPTH, jsonDepth } from '../../nodes/shared/helpers/json';
import type { Sandbox } from '../sandbox';
import { startEndlessFileFront, type EndlessFileFront } from './hostile';
import {
	KEY,
	allText,
	creds,
	expectCleanError,
	locator,
	op,
	sandbox,
	useResilienceFixture,
	visibleParts,
} from './helpers';

const fx = useResilienceFixture();
const sb = fx.sb;
beforeEach(() => {
	sb.faults.clear();
	sb.resetRequests();
});

describe('a file name from the service becomes a base name, never a directory', () => {
	test.each([
		['../../x/evil.pdf', 'evil.pdf'],
		['a\\b\\c.pdf', 'c.pdf'],
		['/etc/cron.d/job', 'job.pdf'],
		['in\u0000voi\u202ece\r\n.pdf', 'invoice.pdf'],
		['...', '<id>.pdf'],
		['x/../', '<id>.pdf'],
	])('%j gives %s', async (given, expected) => {
		const doc = sb.createDocument({ status: 'success', filename: given });
		expect(sb.cardJson(doc.id).filename).toBe(given);
		const r = await runNode({ parameters: op.download(doc.id), credentials: creds(sb) });
		expect(r.error).toBeUndefined();
		const binary = r.items[0].binary!.data;
		expect(binary.fileName).toBe(expected.replace('<id>', doc.id));
		expect(binary.directory).toBeUndefined();
		expect(binary.mimeType).toBe('application/pdf');
	});
});

/** JSON text of `{"a": {"a": … 1 …}}`, `depth` levels deep. */
function deepJson(depth: number): string {
	return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

const DEEP = 20_000;

describe('data nested 20,000 levels deep fails its item clearly, nothing sent', () => {
	const cases: Array<[string, () => INodeParameters, RegExp]> = [
		[
			'create, JSON payload',
			() => op.create(fx.templateId, { payload: deepJson(DEEP) }),
			/payload/,
		],
		[
			'create, JSON payload with a Unique Key',
			() =>
				op.create(fx.templateId, {
					status: 'pending',
					waitForCompletion: false,
					payload: deepJson(DEEP),
					options: { uniqueKey: 'k-1' },
				}),
			/payload/,
		],
		[
			'create, Payload Fields with a name of 20,000 levels',
			() =>
				op.create(fx.templateId, {
					payloadMode: 'fields',
					payloadFields: { values: [{ key: Array(DEEP).fill('a').join('.'), value: '1' }] },
				}),
			/payload field 1/,
		],
		[
			'create, meta',
			() => op.create(fx.templateId, { additionalFields: { meta: deepJson(DEEP) } }),
			/meta/,
		],
		['update, payload', () => op.update(fx.docId, { payload: deepJson(DEEP) }), /payload/],
		[
			'template create, sample data',
			() => ({
				resource: 'template',
				operation: 'create',
				workspaceId: locator(sb.workspaces[0].id),
				templateFields: { identifier: 'deep', sampleData: deepJson(DEEP) },
			}),
			/sample data/,
		],
	];

	test.each(cases)('%s', async (_name, parameters, label) => {
		// Two items with the same deep data: under Continue each fails on its own.
		const r = await runNode({
			parameters: parameters(),
			items: [{}, {}],
			credentials: creds(sb),
			nodeSettings: { onError: 'continueRegularOutput' },
		});
		expect(r.error).toBeUndefined();
		expect(r.items).toHaveLength(2);
		for (const item of r.items) {
			expect(String(item.json.error)).toMatch(label);
			expect(String(item.json.error)).toMatch(/nested more than 1000 levels|more than 1000 levels/);
			expect(String(item.json.error)).not.toMatch(/call stack/i);
		}
		expect(sb.requests.filter((q) => q.method !== 'GET')).toHaveLength(0);
		const stopped = await runNode({ parameters: parameters(), credentials: creds(sb) });
		const error = expectCleanError(stopped.error, 0);
		expect(error.message).toMatch(/\(item 1\)/);
		expect(String(error.description)).toMatch(/Flatten|at most 1000 levels/);
		expect(sb.requests.filter((q) => q.method !== 'GET')).toHaveLength(0);
	});

	test('a payload 1,000 levels deep is still sent, and its Unique Key digest is made', async () => {
		const r = await runNode({
			parameters: op.create(fx.templateId, {
				payload: deepJson(MAX_JSON_DEPTH),
				options: { uniqueKey: 'deep-but-fine' },
			}),
			credentials: creds(sb),
		});
		expect(r.error).toBeUndefined();
		expect(r.items[0].json.status).toBe('draft');
		expect(sb.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
	});
});

describe('the canonical digest walks without recursion', () => {
	/** The digest's text as it was first defined (recursive), which stored digests hold. */
	function reference(value: unknown): string {
		if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
		if (value && typeof value === 'object') {
			const entries = Object.keys(value)
				.sort()
				.map((k) => `${JSON.stringify(k)}:${reference((value as Record<string, unknown>)[k])}`);
			return `{${entries.join(',')}}`;
		}
		return JSON.stringify(value) ?? 'null';
	}

	test('the same text as before for every kind of value, so stored digests still match', () => {
		const samples: unknown[] = [
			{ b: [1, { z: null, a: [] }, 'x\u2028'], a: {}, '': undefined, u: [undefined], n: NaN },
			[],
			{},
			'text',
			0,
			null,
			undefined,
			[[[[{ '"': "'" }]]]],
			{ __proto__: null, k: true },
		];
		for (const value of samples) expect(canonical(value)).toBe(reference(value));
		expect(
			digestOf({ document_template_id: 't', payload: { b: 1, a: [1, 2] }, meta: { x: 'y' } }),
		).toBe('858d452baef4087f8ace16c8');
	});

	test('any depth: 100,000 levels give their text, no stack overflow', () => {
		const value = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
		expect(canonical(value)).toHaveLength(200_000);
		expect(jsonDepth(value)).toBe(MAX_JSON_DEPTH + 1);
		expect(jsonDepth(value, Infinity)).toBe(100_000);
	});
});

describe('redaction catches the key and the signing secret in their encoded forms', () => {
	/** A key with characters that URL-encoding and base64 change. */
	const ODD_KEY = 'sk/live+KEY=ä b&c_0123456789?x';
	const SIGNING = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
	let odd: Sandbox;
	beforeAll(async () => {
		odd = await sandbox({ apiKey: ODD_KEY });
	});
	afterAll(async () => await odd.close());

	const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
	const forms: Array<[string, string]> = [
		['as it is', ODD_KEY],
		['URL-encoded', encodeURIComponent(ODD_KEY)],
		[
			'URL-encoded, lower-case hex',
			encodeURIComponent(ODD_KEY).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
		],
		['form-encoded', encodeURIComponent(ODD_KEY).replace(/%20/g, '+')],
		['JSON-escaped', JSON.stringify(ODD_KEY).slice(1, -1)],
		['base64', b64(ODD_KEY)],
		['base64url', Buffer.from(ODD_KEY, 'utf8').toString('base64url')],
		['base64 of "Bearer <key>"', b64(`Bearer ${ODD_KEY}`)],
		['base64 of Basic "api:<key>"', b64(`api:${ODD_KEY}`)],
		['base64 of "x<key>"', b64(`x${ODD_KEY}`)],
		['the signing secret', SIGNING],
		['the signing secret without its prefix', SIGNING.slice('whsec_'.length)],
		['base64 of the signing secret', b64(SIGNING)],
	];

	test.each(forms)('an error body that echoes the key %s', async (_name, form) => {
		odd.faults.add({
			type: 'status',
			status: 400,
			method: 'GET',
			body: { error: `bad token ${form}` },
		});
		const r = await runNode({
			parameters: op.get(fx.docId),
			credentials: {
				documentGenerationApi: { apiKey: ODD_KEY, baseUrl: odd.url, webhookSecret: SIGNING },
			},
		});
		const error = expectCleanError(r.error, 0);
		expect(error.message).toMatch(/could not read the request \(400\): bad token \S*\*\*\*/);
		const seen = allText(visibleParts(r));
		expect(seen.includes(form)).toBe(false);
		expect(seen.includes(ODD_KEY)).toBe(false);
		expect(seen.includes(SIGNING.slice('whsec_'.length))).toBe(false);
	});
});

describe('Max File Size refuses a larger file before it fills the disk, naming the document', () => {
	const MB = 1024 * 1024;
	let big: Sandbox;
	let front: EndlessFileFront;
	let bigDoc = '';
	beforeAll(async () => {
		big = await sandbox({ fileSizeBytes: 3 * MB });
		bigDoc = big.createDocument({ status: 'success' }).id;
		front = await startEndlessFileFront(sb.url);
	});
	afterAll(async () => {
		await front.close();
		await big.close();
	});
	const download = (id: string, extra: INodeParameters = {}) => ({ ...op.download(id), ...extra });

	test('an announced size (Content-Length) over the limit: refused before reading', async () => {
		const r = await runNode({
			parameters: download(bigDoc, { maxFileSize: 1 }),
			credentials: creds(big),
		});
		const error = expectCleanError(r.error, 0);
		expect(error.message).toBe(
			`The file of document ${bigDoc} is larger than the Max File Size (1 MB)`,
		);
		expect(String(error.description)).toMatch(/announced 3 MB/);
		expect(String(error.description)).toMatch(
			/raise Max File Size on this node \(0 means no limit\)/,
		);
	});

	test('within the limit, the default (100 MB), and 0 (no limit): the file is kept', async () => {
		for (const extra of [{ maxFileSize: 4 }, {}, { maxFileSize: 0 }] as INodeParameters[]) {
			const r = await runNode({ parameters: download(bigDoc, extra), credentials: creds(big) });
			expect(r.error).toBeUndefined();
			// n8n 1.x keeps no byte count on binary data: the stored bytes are counted.
			expect((await getBinaryBuffer(r.items[0].binary!.data)).length).toBe(3 * MB);
		}
	});

	test('a refused value names the parameter, nothing sent', async () => {
		big.resetRequests();
		const r = await runNode({
			parameters: download(bigDoc, { maxFileSize: -1 }),
			credentials: creds(big),
		});
		expect(expectCleanError(r.error, 0).message).toMatch(/max file size must be a number of MB/);
		expect(big.requests.filter((q) => q.path.includes(bigDoc))).toHaveLength(0);
	});

	test('a file that never ends (no Content-Length): stopped once past the limit, under 16 MB read', async () => {
		const started = Date.now();
		const before = front.fileBytesSent();
		const r = await runNode({
			parameters: download(fx.docId, { maxFileSize: 1 }),
			credentials: { apiKey: KEY, baseUrl: front.url },
		});
		const error = expectCleanError(r.error, 0);
		expect(error.message).toMatch(/larger than the Max File Size \(1 MB\)/);
		expect(String(error.description)).toMatch(/stopped as soon as it passed the limit/);
		const sent = front.fileBytesSent() - before;
		console.log(`endless file stopped after ${Date.now() - started} ms, ${sent} bytes sent`);
		// Stopped soon after the limit: the bytes the service sent are the proof, not the clock.
		expect(sent).toBeLessThan(16 * MB);
	});

	test('create (wait and download) and the polling trigger apply it too', async () => {
		const made = await runNode({
			parameters: op.create(fx.templateId, {
				status: 'pending',
				waitForCompletion: true,
				download: true,
				maxFileSize: 1,
			}),
			credentials: { apiKey: KEY, baseUrl: front.url },
		});
		expect(expectCleanError(made.error, 0).message).toMatch(
			/^The file of document [0-9a-f-]{36} is larger than the Max File Size \(1 MB\)/,
		);
		const poller = await createPoller({
			parameters: { events: ['success'], download: true, maxFileSize: 1 },
			credentials: { apiKey: KEY, baseUrl: front.url },
		});
		const polled = await poller.poll('manual').then(
			() => undefined,
			(e: unknown) => e,
		);
		expect(describeError(polled).message).toMatch(/larger than the Max File Size \(1 MB\)/);
	});
});

describe('Max File Size on the webhook trigger', () => {
	test('a signed delivery whose file is over the limit starts no run and is answered with an error', async () => {
		const big = await sandbox({ fileSizeBytes: 3 * 1024 * 1024, webhooks: false });
		const trigger = await createWebhookTrigger({
			parameters: { registration: 'manual', download: true, maxFileSize: 1 },
			credentials: {
				documentGenerationApi: { ...creds(big), webhookSecret: DEFAULT_WEBHOOK_SECRET },
			},
		});
		try {
			const doc = big.createDocument({ status: 'success' });
			const delivery = await big.webhooks.send(trigger.url, big.webhooks.documentOf(doc.id));
			expect(trigger.executions()).toHaveLength(0);
			expect(delivery.status).toBeGreaterThanOrEqual(500);
			expect(trigger.received[0].body).toMatch(/larger than the Max File Size \(1 MB\)/);
		} finally {
			await trigger.close();
			await big.close();
		}
	});
});

describe('a payload nested too deep in an answer of the service stays text', () => {
	test('get with the payload: 20,000 levels stay the JSON text, 3 levels become an object', async () => {
		const deep = sb.createDocument({ status: 'success' });
		deep.payload = deepJson(DEEP);
		const r = await runNode({ parameters: op.get(deep.id, true), credentials: creds(sb) });
		expect(r.error).toBeUndefined();
		expect(r.items[0].json.payload).toBe(deepJson(DEEP));
		const plain = sb.createDocument({ status: 'success' });
		plain.payload = deepJson(3);
		const p = await runNode({ parameters: op.get(plain.id, true), credentials: creds(sb) });
		expect(p.items[0].json.payload).toEqual({ a: { a: { a: 1 } } });
	});
});
