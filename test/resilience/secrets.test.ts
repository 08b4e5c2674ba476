/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The API key appears in no output, error or log line, on every error path, through the real
 * engine; `auth_token` never leaves the account operation.
 *
 * Everything the run leaves is searched: the error as n8n stored it (its `raw` copy, `context`,
 * `cause`, `description`, `stack`, `errorResponse`, also non-enumerable properties), the error
 * INSTANCE the node threw (n8n hands it to its ErrorReporter, i.e. Sentry, with its whole
 * `cause` chain; the stored copy drops `cause`), the run data, the output items (also error
 * items under "continue on fail"), and every call to n8n's Logger and LoggerProxy (captured;
 * the engine's own logging included).
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { ErrorReporter } from 'n8n-core';
import { LoggerProxy } from 'n8n-workflow';

import { runNode, testCredential, type RunNodeResult } from '../harness';
import { useSandbox } from '../harness/use-sandbox';
import { CORE_MAJOR } from '../harness/versions';
import {
	JS_ERROR_TEXT,
	KEY,
	allText,
	creds,
	expectCleanError,
	expectNoSecret,
	op,
	useResilienceFixture,
	visibleParts,
} from './helpers';
import { statusFault } from '../harness/fixtures';

class CaptureLogger {
	lines: Array<{ level: string; message: unknown; meta: unknown }> = [];
	error = (message: unknown, meta?: unknown) => this.lines.push({ level: 'error', message, meta });
	warn = (message: unknown, meta?: unknown) => this.lines.push({ level: 'warn', message, meta });
	info = (message: unknown, meta?: unknown) => this.lines.push({ level: 'info', message, meta });
	debug = (message: unknown, meta?: unknown) => this.lines.push({ level: 'debug', message, meta });
	verbose = (message: unknown, meta?: unknown) =>
		this.lines.push({ level: 'verbose', message, meta });
	scoped = () => this;
}

const logs = new CaptureLogger();
Container.set(Logger, logs as unknown as Logger);
LoggerProxy.init(logs as unknown as Parameters<typeof LoggerProxy.init>[0]);
/** The error instances the engine reported (what the node threw, not a copy). */
const reported = jest.spyOn(Container.get(ErrorReporter), 'error');

const WRONG_KEY = 'sk_live_WRONGKEY_0a1b2c3d4e5f6789';
const fx = useResilienceFixture();
const sb = fx.sb;
afterAll(() => {
	// Every log line of the whole file, at the end: none may carry a key.
	const text = allText(logs.lines);
	expect(text.includes(KEY)).toBe(false);
	expect(text.includes(WRONG_KEY)).toBe(false);
});
beforeEach(() => {
	sb.faults.clear();
	sb.resetRequests();
	reported.mockClear();
});

function checkEverywhere(r: RunNodeResult) {
	expectNoSecret(r, [KEY, WRONG_KEY]);
	const text = allText([logs.lines, reported.mock.calls]);
	expect(text.includes(KEY)).toBe(false);
	expect(text.includes(WRONG_KEY)).toBe(false);
}

const CONTINUE = { onError: 'continueRegularOutput' as const };
const CARD = '/api/v1/document_cards/';

describe.each([
	['stop on error', undefined],
	['continue on fail', CONTINUE],
])('error paths (%s)', (_mode, nodeSettings) => {
	const scenarios: Array<[string, () => Promise<RunNodeResult>, RegExp]> = [
		[
			'401 with a wrong key',
			async () =>
				await runNode({
					parameters: op.get(fx.docId),
					credentials: { ...creds(sb), apiKey: WRONG_KEY },
					nodeSettings,
				}),
			/API key was refused/,
		],
		[
			'404',
			async () =>
				await runNode({
					parameters: op.get('00000000-0000-4000-8000-00000000abcd'),
					credentials: creds(sb),
					nodeSettings,
				}),
			/Not found \(404\)/,
		],
		[
			'422 unknown template',
			async () =>
				await runNode({
					parameters: op.create('00000000-0000-4000-8000-00000000abcd'),
					credentials: creds(sb),
					nodeSettings,
				}),
			/refused the data \(422\)/,
		],
		[
			'400 whose body echoes the key and header',
			async () => {
				sb.faults.add({
					type: 'status',
					status: 400,
					method: 'GET',
					body: { error: `Bad header "Authorization: Bearer ${KEY}"` },
				});
				return await runNode({
					parameters: op.get(fx.docId),
					credentials: creds(sb),
					nodeSettings,
				});
			},
			/could not read the request \(400\): Bad header "Authorization: Bearer \*\*\*"/,
		],
		[
			'503 on create whose HTML body echoes the key',
			async () => {
				sb.faults.add({
					type: 'status',
					status: 503,
					method: 'POST',
					body: `<html>token ${KEY}</html>`,
				});
				return await runNode({
					parameters: op.create(fx.templateId),
					credentials: creds(sb),
					nodeSettings,
				});
			},
			/failed with 503/,
		],
		[
			'connection reset on create (n8n wraps the axios error, request headers inside)',
			async () => {
				sb.faults.add({ type: 'reset-after-handling', method: 'POST' });
				return await runNode({
					parameters: op.create(fx.templateId),
					credentials: creds(sb),
					nodeSettings,
				});
			},
			/connection to the service broke/,
		],
		[
			'timeout',
			async () => {
				// Every attempt hangs (a read that timed out is tried 3 times in all).
				sb.faults.add({ type: 'delay', delayMs: 60_000, method: 'GET', times: 3 });
				return await runNode({
					parameters: op.get(fx.docId),
					credentials: creds(sb, { requestTimeout: 1 }),
					nodeSettings,
				});
			},
			/did not answer within 1 s/,
		],
		[
			'invalid Base URL',
			async () =>
				await runNode({
					parameters: op.get(fx.docId),
					credentials: { apiKey: KEY, baseUrl: 'http://exa mple.invalid' },
					nodeSettings,
				}),
			/could not be made/,
		],
		[
			'answer of an unexpected shape',
			async () => {
				sb.faults.add({
					type: 'status',
					status: 200,
					method: 'GET',
					body: { document_card: { id: 5, token: KEY } },
				});
				return await runNode({
					parameters: op.get(fx.docId),
					credentials: creds(sb),
					nodeSettings,
				});
			},
			/unexpected shape/,
		],
		[
			'account answer of an unexpected shape carrying auth_token',
			async () => {
				sb.faults.add(
					statusFault(200, 'GET', '/api/v1/current_user', {
						body: { current_user: { auth_token: KEY, email: 'a@b.c' } },
					}),
				);
				return await runNode({ parameters: op.account(), credentials: creds(sb), nodeSettings });
			},
			/unexpected shape while trying to read the account \(current_user\.id: Required\)/,
		],
	];

	test.each(scenarios)('%s', async (_label, run, message) => {
		const r = await run();
		if (nodeSettings) {
			expect(r.error).toBeUndefined();
			expect(r.items).toHaveLength(1);
			expect(String(r.items[0].json.error)).toMatch(message);
			expect(String(r.items[0].json.error)).not.toMatch(JS_ERROR_TEXT);
		} else {
			const e = expectCleanError(r.error);
			expect(e.message).toMatch(message);
			// the search must reach the error's parts: the message is found there
			expect(allText(r.error)).toContain(e.message);
			// the thrown instance itself, as the engine reported it. n8n 1.x reports an error of
			// the node's only through its cause, and ours carry none: nothing is reported there.
			if (CORE_MAJOR >= 2) {
				expect(reported).toHaveBeenCalledTimes(1);
				expect((reported.mock.calls[0][0] as Error).message).toBe(e.message);
			} else {
				expect(reported).not.toHaveBeenCalled();
			}
		}
		checkEverywhere(r);
	});
});

test('the search reaches non-enumerable causes (control)', () => {
	const inner = new Error(`header Bearer ${KEY}`);
	const outer = new Error('outer', { cause: inner });
	expect(allText({ wrapped: outer }).includes(KEY)).toBe(true);
});

test('a retried request is logged (debug), without the key', async () => {
	logs.lines.length = 0;
	sb.faults.add({ type: 'drop', method: 'GET', path: CARD });
	const r = await runNode({ parameters: op.get(fx.docId), credentials: creds(sb) });
	expect(r.error).toBeUndefined();
	const retryLines = logs.lines.filter((l) => /retrying in \d+ ms/.test(String(l.message)));
	expect(retryLines).toHaveLength(1);
	expect(String(retryLines[0].message)).toMatch(
		new RegExp(`get document ${fx.docId}: attempt 1 failed \\(ECONNRESET\\)`),
	);
	checkEverywhere(r);
});

test('a service echoing the key into a document (meta, failure cause) gets it into no output or error', async () => {
	const echoed = sb.createDocument({
		status: 'failure',
		meta: { note: `key ${KEY}`, encoded: encodeURIComponent(KEY) },
		failure_cause: `Bearer ${KEY} refused`,
	});
	const r = await runNode({ parameters: op.get(echoed.id), credentials: creds(sb) });
	expect(r.error).toBeUndefined();
	expect(r.items[0].json.meta).toEqual({ note: 'key ***', encoded: '***' });
	expect(String(r.items[0].json.failure_cause)).toBe('Bearer *** refused');
	checkEverywhere(r);
});

/**
 * A successful answer that echoes the key in an encoded form. The key holds characters that
 * URL-encoding changes (`/ + = & space`) and that JSON escaping splits (`" \\`), so that each
 * form differs from the raw key: a scrub of the raw key alone misses every one. In the answer's
 * text the key stands JSON-escaped in the failure cause, and escaped twice in the meta (a
 * string of JSON inside the JSON).
 */
describe('a successful answer echoing the key encoded', () => {
	const ODD_KEY = 'sk_live_ODD/KEY+7f3c=9a1e "5b2d" \\ 8046&x';
	const oddSb = useSandbox({ apiKey: ODD_KEY });
	const forms = {
		raw: ODD_KEY,
		base64: Buffer.from(ODD_KEY, 'utf8').toString('base64'),
		urlEncoded: encodeURIComponent(ODD_KEY),
	};
	const leaks = (value: unknown) => {
		const text = allText(value);
		return Object.keys(forms).filter((name) => text.includes(forms[name as keyof typeof forms]));
	};
	/** What is left of the base64 form: the stars, and at most the few characters of its tail. */
	const BASE64_REDACTED = /^\*\*\*[A-Za-z0-9+/=]{0,3}$/;
	const echoingDocument = () =>
		oddSb.createDocument({
			status: 'failure',
			meta: { key: ODD_KEY, base64: forms.base64, urlEncoded: forms.urlEncoded },
			failure_cause: `refused ${ODD_KEY} | ${forms.base64} | ${forms.urlEncoded}`,
		}).id;
	const answerText = async (id: string) =>
		await (
			await fetch(`${oddSb.url}/api/v1/document_cards/${id}`, {
				headers: { Authorization: `Bearer ${ODD_KEY}` },
			})
		).text();

	test('each form differs from the raw key, which the answer carries only split (control)', async () => {
		expect(new Set(Object.values(forms)).size).toBe(3);
		const text = await answerText(echoingDocument());
		expect(text.includes(ODD_KEY)).toBe(false);
		expect(text.includes(JSON.stringify(ODD_KEY).slice(1, -1))).toBe(true);
		expect(text.includes(forms.base64)).toBe(true);
		expect(text.includes(forms.urlEncoded)).toBe(true);
	});

	test('reaches no output item', async () => {
		const r = await runNode({ parameters: op.get(echoingDocument()), credentials: creds(oddSb) });
		expect(r.error).toBeUndefined();
		const meta = r.items[0].json.meta as Record<string, string>;
		expect(meta).toMatchObject({ key: '***', urlEncoded: '***' });
		expect(meta.base64).toMatch(BASE64_REDACTED);
		const [, key, base64, urlEncoded] = String(r.items[0].json.failure_cause).split(
			/ \| |^refused /,
		);
		expect([key, urlEncoded]).toEqual(['***', '***']);
		expect(base64).toMatch(BASE64_REDACTED);
		expect(leaks(visibleParts(r))).toEqual([]);
	});

	test('reaches no error built from it', async () => {
		const id = echoingDocument();
		const r = await runNode({ parameters: op.download(id), credentials: creds(oddSb) });
		expect(expectCleanError(r.error).message).toMatch(/no file to download/);
		expect(r.error!.description).toMatch(/Generation failed \(refused \*\*\* \| \*\*\*/);
		expect(leaks([visibleParts(r), logs.lines, reported.mock.calls])).toEqual([]);
	});
});

test('auth_token never leaves the account operation (the sandbox sets it to the API key)', async () => {
	const r = await runNode({ parameters: op.account(), credentials: creds(sb), items: [{}, {}] });
	expect(r.error).toBeUndefined();
	expect(r.items).toHaveLength(2);
	for (const item of r.items) {
		expect(item.json.id).toBe(sb.account.id);
		expect('auth_token' in item.json).toBe(false);
	}
	checkEverywhere(r);
});

test('the requests themselves carry the key only in the Authorization header', async () => {
	await runNode({
		parameters: op.create(fx.templateId, { payload: '{"a": 1}' }),
		credentials: creds(sb),
	});
	expect(sb.requests.length).toBeGreaterThan(0);
	for (const req of sb.requests) {
		expect(req.authorization).toBe(`Bearer ${KEY}`);
		expect(allText([req.path, req.rawQuery, req.body]).includes(KEY)).toBe(false);
	}
});

test('downloads send no Authorization header to the file host', async () => {
	const r = await runNode({ parameters: op.download(fx.docId), credentials: creds(sb) });
	expect(r.error).toBeUndefined();
	const files = sb.requests.filter((q) => !q.path.startsWith('/api/'));
	expect(files.length).toBe(1);
	expect(files[0].authorization).toBeUndefined();
	expect(allText(files[0].headers).includes(KEY)).toBe(false);
	checkEverywhere(r);
});

test('the credential test with a wrong key shows no key', async () => {
	const result = await testCredential({ ...creds(sb), apiKey: WRONG_KEY });
	expect(result.status).toBe('Error');
	expect(allText(result).includes(WRONG_KEY)).toBe(false);
});
