/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals, no-console -- test code: runs in Node under jest, never inside n8n */
/**
 * Fault injection through the real n8n engine against the sandbox: what is retried, what is
 * never repeated, Retry-After, timeouts, and answers of an unexpected shape.
 * Timings are measured from the sandbox's request log and printed; assertions on time are
 * lower bounds where a wait is promised (a slow machine only makes them truer). 'At once' is
 * checked by the requests sent, never by the clock; a wait that never ends meets jest's timeout.
 */

import { runNode } from '../harness';
import { startSandbox, type Sandbox } from '../sandbox';
import {
	JS_ERROR_TEXT,
	KEY,
	arrivals,
	creds,
	expectCleanError,
	expectNoSecret,
	op,
	freePort,
	useResilienceSandbox,
} from './helpers';
import { statusFault } from '../harness/fixtures';

const sb = useResilienceSandbox();
let templateId: string;

beforeAll(() => {
	templateId = sb.templates[0].id;
});
beforeEach(() => {
	sb.faults.clear();
	sb.resetRequests();
});

const DOC_CARD = '/api/v1/document_cards/';
const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]);

describe('Retry-After', () => {
	test('delta-seconds on a 503 GET: the next attempt waits that long', async () => {
		const id = sb.createDocument({ status: 'success' }).id;
		sb.faults.add({ type: 'status', status: 503, retryAfter: '2', method: 'GET', path: DOC_CARD });
		const r = await runNode({ parameters: op.get(id), credentials: creds(sb) });
		expect(r.error).toBeUndefined();
		expect(r.items[0].json.id).toBe(id);
		const times = arrivals(sb, 'GET', DOC_CARD);
		expect(times).toHaveLength(2);
		const [gap] = gaps(times);
		console.log(`Retry-After: 2 → gap between attempts ${gap} ms`);
		expect(gap).toBeGreaterThanOrEqual(1990);
	});

	test('HTTP date on a 429 GET: the next attempt waits until then', async () => {
		const id = sb.createDocument({ status: 'success' }).id;
		// The date is 3 s after the fault answers (whole seconds, floored): however late the run
		// reaches the service, it asks for a wait of 2 to 3 s.
		sb.faults.add({
			type: 'status',
			status: 429,
			retryAfterDateInMs: 3000,
			method: 'GET',
			path: DOC_CARD,
		});
		const r = await runNode({ parameters: op.get(id), credentials: creds(sb) });
		expect(r.error).toBeUndefined();
		const times = arrivals(sb, 'GET', DOC_CARD);
		expect(times).toHaveLength(2);
		// The earliest date the fault can have named (it answers at the first arrival or later).
		const asked = Math.floor((times[0] + 3000) / 1000) * 1000 - times[0];
		const [gap] = gaps(times);
		console.log(`Retry-After: <date at least ${asked} ms after the first attempt> → gap ${gap} ms`);
		expect(gap).toBeGreaterThanOrEqual(asked - 50);
	});

	test('a Retry-After longer than Max Wait for Rate Limit (2 min by default) ends at once with a clear error', async () => {
		const id = sb.createDocument({ status: 'success' }).id;
		sb.faults.add(statusFault(429, 'GET', DOC_CARD, { retryAfter: '3600' }));
		const r = await runNode({ parameters: op.get(id), credentials: creds(sb) });
		const e = expectCleanError(r.error);
		expect(e.name).toBe('NodeApiError');
		expect(e.httpCode).toBe('429');
		expect(e.message).toBe(
			`The service asked to wait 3600 s before the next request (429 Too Many Requests) while trying to get document ${id}`,
		);
		expect(e.description).toMatch(
			/longer than the longest wait this run accepts, Max Wait for Rate Limit \(an option of Create and Update\) \(120 s\)/,
		);
		expect(e.description).toMatch(/lower the batch's pace/);
		// At once: one request, no second try (a run that waited the hour would meet jest's timeout).
		expect(sb.count({ method: 'GET', path: DOC_CARD })).toBe(1);
	});
});

describe('create (POST) is never repeated once the service may have acted', () => {
	const createParams = () => op.create(templateId, { payload: '{"n": 1}' });

	test('429 (refused before processing) is retried: exactly one document', async () => {
		const before = sb.documents.size;
		sb.faults.add(statusFault(429, 'POST', '/api/v1/documents', { retryAfter: '1' }));
		const r = await runNode({ parameters: createParams(), credentials: creds(sb) });
		expect(r.error).toBeUndefined();
		expect(r.items).toHaveLength(1);
		expect(sb.count({ method: 'POST' })).toBe(2);
		expect(sb.documents.size).toBe(before + 1);
		expect(sb.documents.has(String(r.items[0].json.id))).toBe(true);
		const [gap] = gaps(arrivals(sb, 'POST', '/api/v1/documents'));
		console.log(`429 on create with Retry-After: 1 → gap ${gap} ms`);
		expect(gap).toBeGreaterThanOrEqual(990);
	});

	test('502 after the service stored it: not retried, an error that says so, exactly one document', async () => {
		const before = sb.documents.size;
		sb.faults.add(statusFault(502, 'POST', '/api/v1/documents', { afterHandling: true }));
		const r = await runNode({ parameters: createParams(), credentials: creds(sb) });
		const e = expectCleanError(r.error);
		expect(e.name).toBe('NodeApiError');
		expect(e.httpCode).toBe('502');
		expect(e.message).toBe('The service failed with 502 while trying to create a document');
		expect(e.description).toMatch(/not repeated.*may already have stored the document/);
		expect(sb.count({ method: 'POST' })).toBe(1);
		expect(sb.documents.size).toBe(before + 1);
	});

	test('503 before handling is not retried either (the node cannot tell)', async () => {
		const before = sb.documents.size;
		sb.faults.add({ type: 'status', status: 503, method: 'POST', path: '/api/v1/documents' });
		const r = await runNode({ parameters: createParams(), credentials: creds(sb) });
		expect(expectCleanError(r.error).httpCode).toBe('503');
		expect(sb.count({ method: 'POST' })).toBe(1);
		expect(sb.documents.size).toBe(before);
	});

	test('connection reset after handling: not retried, exactly one document', async () => {
		const before = sb.documents.size;
		sb.faults.add({ type: 'reset-after-handling', method: 'POST', path: '/api/v1/documents' });
		const r = await runNode({ parameters: createParams(), credentials: creds(sb) });
		const e = expectCleanError(r.error);
		expect(e.name).toBe('NodeApiError');
		expect(e.message).toBe('The connection to the service broke while trying to create a document');
		expect(e.description).toMatch(/ECONNRESET/);
		expect(e.description).toMatch(/may already have stored the document/);
		expect(sb.count({ method: 'POST' })).toBe(1);
		expect(sb.documents.size).toBe(before + 1);
		expectNoSecret(r, [KEY]);
	});

	test('connection refused (nothing sent) is retried: the document is created once the service is up', async () => {
		// A port nobody listens on; the service comes up there while the node retries. The
		// same seed gives the same template ids, learnt from a first start.
		const probe = await startSandbox({ apiKey: KEY, seed: 42 });
		const lateTemplate = probe.templates[0].id;
		await probe.close();
		const port = await freePort();
		let late: Sandbox | undefined;
		let upAt = 0;
		const t0 = Date.now();
		const starting = new Promise<void>((resolve) => {
			setTimeout(() => {
				void startSandbox({ apiKey: KEY, port, seed: 42 }).then((s) => {
					late = s;
					upAt = Date.now();
					resolve();
				});
			}, 400);
		});
		try {
			const r = await runNode({
				parameters: op.create(lateTemplate, { payload: '{"n": 2}' }),
				credentials: { apiKey: KEY, baseUrl: `http://127.0.0.1:${port}` },
			});
			await starting;
			expect(upAt - t0).toBeGreaterThanOrEqual(350);
			expect(r.error).toBeUndefined();
			expect(late!.count({ method: 'POST' })).toBe(1);
			expect(late!.documents.has(String(r.items[0].json.id))).toBe(true);
		} finally {
			await starting;
			await late?.close();
		}
	});
});

/**
 * Every 5xx, 500 itself included, may come after the service stored the document: the create
 * is not sent again, its error says so and carries the mark a caller acts on (outcomeUnknown),
 * and a create waited for in one round trip finds the stored document instead.
 */
describe.each([500, 501, 503])('a create answered %i after the service stored it', (status) => {
	const storedThenFailed = (path: string) =>
		sb.faults.add({ type: 'status', status, afterHandling: true, method: 'POST', path });

	test('is not sent again, and its error says the document may already exist', async () => {
		const before = sb.documents.size;
		storedThenFailed('/api/v1/documents');
		const r = await runNode({ parameters: op.create(templateId), credentials: creds(sb) });
		const e = expectCleanError(r.error);
		expect(e.httpCode).toBe(String(status));
		expect(e.message).toBe(`The service failed with ${status} while trying to create a document`);
		expect(e.description).toMatch(/not repeated.*may already have stored the document/);
		expect(e.context?.outcomeUnknown).toBe(true);
		expect(sb.count({ method: 'POST' })).toBe(1);
		expect(sb.documents.size).toBe(before + 1);
	});

	test('waited for in one round trip: the stored document is found, never created twice', async () => {
		const before = sb.documents.size;
		storedThenFailed('/api/v1/documents/sync');
		// Its own meta per status, so that documents of the other cases cannot be taken for it.
		const meta = { order: `stored-then-${status}` };
		const parameters = op.create(templateId, {
			status: 'pending',
			waitForCompletion: true,
			download: false,
			additionalFields: { meta: JSON.stringify(meta) },
		});
		const r = await runNode({ parameters, credentials: creds(sb) });
		expect(r.error).toBeUndefined();
		expect(r.items[0].json).toMatchObject({ status: 'success', meta });
		expect(sb.count({ method: 'POST' })).toBe(1);
		expect(sb.documents.size).toBe(before + 1);
	});
});

describe('reads and idempotent writes are retried', () => {
	test('dropped connections on GET are retried until an answer comes', async () => {
		const id = sb.createDocument({ status: 'success' }).id;
		sb.faults.add({ type: 'drop', method: 'GET', path: DOC_CARD, times: 2 });
		const r = await runNode({ parameters: op.get(id), credentials: creds(sb) });
		expect(r.error).toBeUndefined();
		expect(r.items[0].json.id).toBe(id);
		expect(sb.count({ method: 'GET', path: DOC_CARD })).toBe(3);
		expect(sb.requests.map((q) => q.fault ?? null)).toEqual(['drop', 'drop', null]);
	});

	test('a reset after handling on PUT (update) is retried: the update is idempotent', async () => {
		const id = sb.createDocument({ status: 'draft' }).id;
		sb.faults.add({ type: 'reset-after-handling', method: 'PUT', path: '/api/v1/documents/' });
		const r = await runNode({
			parameters: op.update(id, { payload: '{"v": 2}', status: 'draft' }),
			credentials: creds(sb),
		});
		expect(r.error).toBeUndefined();
		expect(sb.count({ method: 'PUT' })).toBe(2);
		expect(JSON.parse(sb.documents.get(id)!.payload)).toEqual({ v: 2 });
	});

	test('a 502 after the delete was done: the retry finds it gone, which is what was asked', async () => {
		const id = sb.createDocument({ status: 'draft' }).id;
		sb.faults.add({ type: 'status', status: 502, afterHandling: true, method: 'DELETE' });
		const r = await runNode({ parameters: op.delete(id), credentials: creds(sb) });
		expect(r.error).toBeUndefined();
		expect(r.items[0].json).toEqual({ deleted: true, id });
		expect(sb.requests.filter((q) => q.method === 'DELETE').map((q) => q.status)).toEqual([
			502, 404,
		]);
		expect(sb.documents.has(id)).toBe(false);
	});

	test('a delete of an unknown document is still a 404 error (no earlier attempt)', async () => {
		const id = '00000000-0000-4000-8000-000000000000';
		const r = await runNode({ parameters: op.delete(id), credentials: creds(sb) });
		expect(expectCleanError(r.error).httpCode).toBe('404');
	});

	test('422 and 404 are not retried', async () => {
		const r = await runNode({
			parameters: op.get('00000000-0000-4000-8000-000000000001'),
			credentials: creds(sb),
		});
		expect(expectCleanError(r.error).httpCode).toBe('404');
		expect(sb.count()).toBe(1);
		sb.resetRequests();
		sb.faults.add({
			type: 'status',
			status: 422,
			method: 'GET',
			body: { errors: { status: ['is not included in the list'] } },
		});
		const r2 = await runNode({ parameters: op.getAll({ limit: 5 }), credentials: creds(sb) });
		const e = expectCleanError(r2.error);
		expect(e.message).toBe('The service refused the data (422): is not included in the list');
		expect(sb.count()).toBe(1);
	});
});

describe('timeouts', () => {
	/** Gets a finished document whose card answers `delayMs` late (`times` requests). */
	const getLate = async (delayMs: number, requestTimeout: number, times = 1) => {
		const id = sb.createDocument({ status: 'success' }).id;
		sb.faults.add({ type: 'delay', delayMs, method: 'GET', path: DOC_CARD, times });
		const r = await runNode({ parameters: op.get(id), credentials: creds(sb, { requestTimeout }) });
		return { id, r };
	};

	test('a GET that times out once is tried again, like a 5xx, and succeeds', async () => {
		const { id, r } = await getLate(120_000, 1);
		expect(r.error).toBeUndefined();
		expect(r.items[0].json.id).toBe(id);
		expect(sb.count({ method: 'GET', path: DOC_CARD })).toBe(2);
	});

	test('a GET that keeps hanging ends after 3 attempts of the Request Timeout, with a clear error', async () => {
		const started = Date.now();
		const { id, r } = await getLate(120_000, 1, 10);
		const elapsed = Date.now() - started;
		console.log(`hanging GET with Request Timeout 1 s → error after ${elapsed} ms`);
		const e = expectCleanError(r.error);
		expect(e.name).toBe('NodeApiError');
		expect(e.message).toBe(
			`The service did not answer within 1 s while trying to get document ${id}`,
		);
		expect(e.description).toMatch(/^Tried 3 times over .*Request Timeout/);
		expect(sb.count({ method: 'GET', path: DOC_CARD })).toBe(3);
		expect(elapsed).toBeGreaterThanOrEqual(2900);
		expectNoSecret(r, [KEY]);
	});

	test('a slow answer within the timeout is fine', async () => {
		const { id, r } = await getLate(500, 3);
		expect(r.error).toBeUndefined();
		expect(r.items[0].json.id).toBe(id);
	});

	test('a hanging create times out, is not repeated, and says it may have been stored', async () => {
		sb.faults.add({ type: 'delay', delayMs: 120_000, method: 'POST', path: '/api/v1/documents' });
		const r = await runNode({
			parameters: op.create(templateId),
			credentials: creds(sb, { requestTimeout: 1 }),
		});
		const e = expectCleanError(r.error);
		expect(e.message).toBe(
			'The service did not answer within 1 s while trying to create a document',
		);
		expect(e.description).toMatch(/may still have been stored/);
		expect(sb.count({ method: 'POST' })).toBe(1);
	});
});

describe('answers of an unexpected shape become clear errors', () => {
	test.each([
		[
			'an object without the envelope',
			{ unexpected: true },
			/unexpected shape while trying to get document .* \(document_card: Required\)/,
		],
		[
			'a card without an id',
			{ document_card: { status: 'success' } },
			/\(document_card\.id: Required\)/,
		],
		[
			'a card whose id is a number',
			{ document_card: { id: 7, status: 'success' } },
			/\(document_card\.id: Expected string, received number\)/,
		],
		[
			'an HTML page with 200',
			'<html><body>Captive portal</body></html>',
			/an HTML page instead of JSON/,
		],
		['plain text with 200', 'OK', /text instead of JSON/],
		['a list', [1, 2, 3], /a list where an object was expected/],
	])('get: %s', async (_label, body, message) => {
		const id = sb.createDocument({ status: 'success' }).id;
		sb.faults.add(statusFault(200, 'GET', DOC_CARD, { body: body as object }));
		const r = await runNode({ parameters: op.get(id), credentials: creds(sb) });
		const e = expectCleanError(r.error);
		expect(e.name).toBe('NodeApiError');
		expect(e.message).toMatch(message);
		expect(e.description).toMatch(/Base URL/);
	});

	test('list: document_cards is not a list', async () => {
		sb.faults.add(
			statusFault(200, 'GET', '/api/v1/document_cards', {
				body: { document_cards: 'nope', meta: {} },
			}),
		);
		const r = await runNode({ parameters: op.getAll({ limit: 5 }), credentials: creds(sb) });
		expect(expectCleanError(r.error).message).toMatch(
			/\(document_cards: Expected array, received string\)/,
		);
	});

	test('create answered 201 with an empty object: says the document may exist', async () => {
		sb.faults.add(statusFault(201, 'POST', '/api/v1/documents', { body: {}, afterHandling: true }));
		const r = await runNode({
			parameters: op.create(templateId),
			credentials: creds(sb),
		});
		const e = expectCleanError(r.error);
		expect(e.message).toMatch(
			/unexpected shape while trying to create a document \(document: Required\)/,
		);
		expect(e.description).toMatch(/may have been created/);
	});

	test('error answers of every body shape read well', async () => {
		const id = sb.createDocument({ status: 'success' }).id;
		const cases: Array<[number, object | string, RegExp]> = [
			[
				404,
				{ errors: [{ status: '404', title: 'Not Found', detail: 'No such card' }] },
				/^Not found \(404\)/,
			],
			[
				422,
				{ errors: { document_template: ['must exist'] } },
				/^The service refused the data \(422\): document template must exist$/,
			],
			[
				400,
				{ error: 'unexpected character' },
				/^The service could not read the request \(400\): unexpected character$/,
			],
			[
				418,
				'<html><body>teapot</body></html>',
				/^Unexpected answer 418 while trying to get document/,
			],
			[409, '', /^Unexpected answer 409 while trying to get document/],
		];
		for (const [status, body, message] of cases) {
			sb.faults.add({
				type: 'status',
				status,
				body: body as object,
				method: 'GET',
				path: DOC_CARD,
			});
			const r = await runNode({ parameters: op.get(id), credentials: creds(sb) });
			const e = expectCleanError(r.error);
			expect(e.httpCode).toBe(String(status));
			expect(e.message).toMatch(message);
			expect(e.message).not.toMatch(JS_ERROR_TEXT);
		}
	});
});

describe("n8n's resend after a 401", () => {
	test('does not happen: our requests ignore HTTP status errors, so a 401 is sent once', async () => {
		const id = sb.createDocument({ status: 'success' }).id;
		const r = await runNode({
			parameters: op.get(id),
			credentials: { ...creds(sb), apiKey: 'sk_wrong_RESILIENCE_00000000' },
		});
		const e = expectCleanError(r.error);
		expect(e.httpCode).toBe('401');
		expect(e.message).toBe('The API key was refused by the service');
		expect(sb.count()).toBe(1);
		expectNoSecret(r, ['sk_wrong_RESILIENCE_00000000', KEY]);
	});
});

describe('an answer whose card id is empty text', () => {
	test('get: a card whose id is empty text is refused like a card without an id', async () => {
		const id = sb.createDocument({ status: 'success' }).id;
		sb.faults.add(
			statusFault(200, 'GET', '/api/v1/document_cards/', {
				body: { document_card: { id: '', status: 'success' } },
			}),
		);
		const r = await runNode({ parameters: op.get(id), credentials: creds(sb) });
		const e = expectCleanError(r.error);
		expect(e.name).toBe('NodeApiError');
		expect(e.message).toMatch(
			/unexpected shape while trying to get document .* \(document_card\.id: String must contain at least 1 character\(s\)\)/,
		);
		expect(e.description).toMatch(/Base URL/);
		expect(r.items).toHaveLength(0);
	});
});
