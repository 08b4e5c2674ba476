/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: runs in Node under jest, never inside n8n */
/**
 * The error texts (nodes/shared/transport/messages.ts): every error shape of the service mapped
 * to the item's message (validation messages in `detail`, the field hash, `{"error": ...}`),
 * unexpected shapes, network failures and downloads.
 */
import { type INode, NodeApiError } from 'n8n-workflow';
import { z } from 'zod';

import { redact, safeDetail } from '../../../../nodes/shared/transport/errors';
import {
	clip,
	describeDownloadError,
	describeHttpError,
	describeNetworkError,
	describeShape,
	firstIssue,
	serviceDetails,
} from '../../../../nodes/shared/transport/messages';
import { nodeFixture } from '../../../harness/fixtures';

const WHAT = 'get document 1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d';

const shape1 = {
	errors: [
		{ status: '404', title: 'Not Found', detail: "We couldn't find any Document with ID 1b2c3d4e" },
	],
};
const shape2 = {
	errors: {
		status: ["You've reached your quota"],
		document_template: ['must exist'],
		base: ['Invalid'],
	},
};
const shape3 = { error: "unexpected character: 'x' at line 1 column 2" };
const html = '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>';

describe('serviceDetails: the service words from each body shape', () => {
	test('shape 1: JSON:API error list', () => {
		expect(serviceDetails(shape1)).toEqual(["We couldn't find any Document with ID 1b2c3d4e"]);
		expect(serviceDetails({ errors: [{ status: '401', title: 'Unauthorized' }] })).toEqual([
			'Unauthorized',
		]);
	});

	test('shape 2: field hash (field name in words; status and base without)', () => {
		expect(serviceDetails(shape2)).toEqual([
			"You've reached your quota",
			'document template must exist',
			'Invalid',
		]);
		expect(serviceDetails({ errors: { payload: 'is not an object' } })).toEqual([
			'payload is not an object',
		]);
	});

	test('shape 3: single error', () => {
		expect(serviceDetails(shape3)).toEqual(["unexpected character: 'x' at line 1 column 2"]);
	});

	test('the same shapes as JSON text or as a Buffer', () => {
		expect(serviceDetails(JSON.stringify(shape1))).toEqual(serviceDetails(shape1));
		expect(serviceDetails(Buffer.from(JSON.stringify(shape3)))).toEqual(serviceDetails(shape3));
	});

	test.each([
		['HTML page', html],
		['empty string', ''],
		['undefined', undefined],
		['null', null],
		['plain text', 'Bad Gateway'],
		['a list', [1, 2]],
		['a number', 42],
		['errors: []', { errors: [] }],
		['errors: null', { errors: null }],
		['odd entries', { errors: [null, 3, {}, { detail: '' }] }],
	])('%s gives no words and does not throw', (_label, body) => {
		expect(serviceDetails(body)).toEqual([]);
	});

	test('very long details are clipped', () => {
		const [detail] = serviceDetails({ error: 'x'.repeat(10_000) });
		expect(detail.length).toBeLessThanOrEqual(501);
	});
});

describe('describeHttpError', () => {
	test('401 points at the credential and quotes the service', () => {
		const t = describeHttpError(
			401,
			{ errors: [{ status: '401', title: 'Unauthorized', detail: 'Please verify your API key.' }] },
			WHAT,
		);
		expect(t.message).toBe('The API key was refused by the service');
		expect(t.message).not.toMatch(/401/);
		expect(t.description).toMatch(/credential of this node .* paste the API key again/);
		expect(t.description).toMatch(/Please verify your API key\./);
	});

	test('404 with shape 1 names the call and the service words', () => {
		const t = describeHttpError(404, shape1, WHAT);
		expect(t.message).toBe(`Not found (404) while trying to ${WHAT}`);
		expect(t.description).toContain("We couldn't find any Document");
	});

	test('422 with shape 2 puts the field messages into the message', () => {
		const t = describeHttpError(422, shape2, 'create a document');
		expect(t.message).toBe(
			"The service refused the data (422): You've reached your quota; document template must exist; Invalid",
		);
	});

	test('400 with shape 3', () => {
		expect(describeHttpError(400, shape3, 'create a document').message).toBe(
			"The service could not read the request (400): unexpected character: 'x' at line 1 column 2",
		);
	});

	test('502 HTML page from a proxy: status alone, no markup', () => {
		const t = describeHttpError(502, html, WHAT, { method: 'GET', attempts: 6, elapsedMs: 12_345 });
		expect(t.message).toBe(`The service failed with 502 while trying to ${WHAT}`);
		expect(t.description).toBe(
			"Tried 6 times over 12 s. This is on the service's side; run again later.",
		);
		expect(t.message + t.description).not.toContain('<');
	});

	test('5xx on a create says it was not repeated and may have been stored', () => {
		const t = describeHttpError(502, '', 'create a document', { method: 'POST', attempts: 1 });
		expect(t.description).toMatch(/not repeated/);
		expect(t.description).toMatch(/may already have stored the document/);
	});

	test('429: attempts, and a Retry-After longer than the node waits', () => {
		const t = describeHttpError(429, undefined, WHAT, {
			method: 'GET',
			attempts: 3,
			elapsedMs: 4200,
		});
		expect(t.message).toBe(`The service is rate limiting requests (429) while trying to ${WHAT}`);
		expect(t.description).toMatch(/^Tried 3 times over 4.2 s\./);
		const long = describeHttpError(429, undefined, WHAT, {
			attempts: 1,
			retryAfterMs: 120_000,
			retryAfterTooLong: true,
		});
		expect(long.description).toMatch(
			/asked to wait 120 s before trying again, longer than this node waits/,
		);
	});

	test('empty body and unknown status', () => {
		expect(describeHttpError(500, '', WHAT).message).toBe(
			`The service failed with 500 while trying to ${WHAT}`,
		);
		expect(describeHttpError(418, undefined, WHAT).message).toBe(
			`Unexpected answer 418 while trying to ${WHAT}`,
		);
		expect(describeHttpError(409, shape3, WHAT).message).toMatch(/: unexpected character/);
	});
});

describe('describeNetworkError', () => {
	test('timeout: the configured seconds, the attempts of a read, where to change it', () => {
		const t = describeNetworkError('ECONNABORTED', WHAT, 1500, {
			method: 'GET',
			attempts: 3,
			elapsedMs: 5000,
		});
		expect(t.message).toBe(`The service did not answer within 1.5 s while trying to ${WHAT}`);
		expect(t.description).toMatch(/^Tried 3 times over 5 s\. /);
		expect(t.description).toMatch(/Request Timeout/);
		expect(
			describeNetworkError('ETIMEDOUT', 'create a document', 30_000, { method: 'POST' })
				.description,
		).toMatch(/not repeated/);
		expect(
			describeNetworkError('ETIMEDOUT', 'create a document', 30_000, { method: 'POST' })
				.description,
		).toMatch(/may still have been stored/);
	});

	test('a failure inside n8n (no network code at all) is not blamed on the network or the Base URL', () => {
		const t = describeNetworkError('EUNKNOWN', WHAT, 30_000, {}, 'No bridge acquired');
		expect(t.message).toBe(`n8n could not make the request while trying to ${WHAT}`);
		expect(t.description).toMatch(/n8n said: No bridge acquired\./);
		expect(t.description).toMatch(/inside n8n/);
		expect(t.description).not.toMatch(/Base URL/);
	});

	test('connection never made', () => {
		const t = describeNetworkError(
			'ECONNREFUSED',
			WHAT,
			30_000,
			{ method: 'GET', attempts: 6, elapsedMs: 9000 },
			'connect ECONNREFUSED 127.0.0.1:9',
		);
		expect(t.message).toBe(`Could not connect to the service while trying to ${WHAT}`);
		expect(t.description).toMatch(
			/^Tried 6 times over 9 s\. The connection failed \(ECONNREFUSED: connect/,
		);
		expect(t.description).toMatch(/Base URL/);
	});

	test('connection dropped: reads retried, create not repeated', () => {
		expect(
			describeNetworkError('ECONNRESET', WHAT, 30_000, {
				method: 'GET',
				attempts: 6,
				elapsedMs: 10_000,
			}).description,
		).toMatch(/^Tried 6 times/);
		const create = describeNetworkError('ECONNRESET', 'create a document', 30_000, {
			method: 'POST',
			attempts: 1,
		});
		expect(create.message).toBe(
			'The connection to the service broke while trying to create a document',
		);
		expect(create.description).toMatch(/may already have stored the document/);
	});

	test('anything else shows the (safe) original text', () => {
		const t = describeNetworkError('ERR_INVALID_URL', WHAT, 30_000, {}, 'Invalid URL');
		expect(t.message).toBe(`The request could not be made while trying to ${WHAT}`);
		expect(t.description).toMatch(/^Invalid URL \(ERR_INVALID_URL\)/);
	});
});

describe('messages survive NodeApiError (n8n rewrites messages that mention error codes)', () => {
	const node: INode = nodeFixture();
	const texts = [
		...[400, 401, 403, 404, 408, 422, 429, 500, 502, 503, 504, 418].map((s) =>
			describeHttpError(s, shape1, WHAT, { method: 'GET', attempts: 2 }),
		),
		...[
			'ECONNABORTED',
			'ETIMEDOUT',
			'ECONNREFUSED',
			'ENOTFOUND',
			'EAI_AGAIN',
			'ECONNRESET',
			'EPIPE',
			'ERR_INVALID_URL',
			'EUNKNOWN',
		].map((c) =>
			describeNetworkError(c, WHAT, 30_000, { method: 'POST' }, `connect ${c} 127.0.0.1:1`),
		),
	];
	test.each(texts.map((t) => [t.message, t]))('%s', (_m, t) => {
		// Our messages carry no error code, so n8n keeps them as they are.
		const error = new NodeApiError(
			node,
			{ message: t.message },
			{ message: t.message, description: t.description },
		);
		expect(error.message).toBe(t.message);
		expect(t.message).not.toMatch(/\bE[A-Z]{4,}\b/);
	});
});

describe('redact and safeDetail', () => {
	const key = 'sk_live_abcdef123456';
	test('redact replaces every occurrence, leaves short or missing secrets alone', () => {
		expect(redact(`Bearer ${key} and ${key}`, key)).toBe('Bearer *** and ***');
		expect(redact('abc', 'ab')).toBe('abc');
		expect(redact('abc', undefined)).toBe('abc');
	});

	test('safeDetail: first line, secret removed, URL query cut, clipped', () => {
		expect(safeDetail(`boom ${key}\nsecond line`, key)).toBe('boom ***');
		expect(
			safeDetail('GET https://files.example/doc.pdf?X-Amz-Signature=abc failed', undefined),
		).toBe('GET https://files.example/doc.pdf?… failed');
		expect(safeDetail('x'.repeat(1000), undefined)!.length).toBeLessThanOrEqual(201);
		expect(safeDetail(undefined, key)).toBeUndefined();
		expect(safeDetail('  ', key)).toBeUndefined();
	});
});

describe('describeDownloadError', () => {
	test('403 says the fresh link was refused too; other statuses say to run again', () => {
		const expired = describeDownloadError(403, 'download the file of document X');
		expect(expired.message).toBe(
			'The download link kept being refused (403) while trying to download the file of document X',
		);
		expect(expired.description).toMatch(/fresh link was fetched and refused too/);
		const other = describeDownloadError(500, 'download the file of document X');
		expect(other.message).toBe(
			'The file could not be downloaded (500) while trying to download the file of document X',
		);
		expect(other.description).toMatch(/Run again later/);
	});
});

const SNIPPET = 'create a snippet';

describe('validation messages in every shape reach the message', () => {
	test('shape 1 with 422: the detail is the message', () => {
		const body = {
			errors: [
				{ status: '422', title: 'Unprocessable Entity', detail: 'Document template must exist' },
			],
		};
		expect(describeHttpError(422, body, SNIPPET).message).toBe(
			'The service refused the data (422): Document template must exist',
		);
	});

	test('shape 1: several details, each with the field its source points at', () => {
		const body = {
			errors: [
				{
					status: '422',
					detail: "can't be blank",
					source: { pointer: '/data/attributes/identifier' },
				},
				{ status: '422', detail: 'Code is too long', source: { pointer: '/data/attributes/code' } },
				{ status: '422', detail: 'must exist', source: { parameter: 'workspace_id' } },
				{ status: '422', detail: "You've reached your quota", source: { pointer: '/status' } },
			],
		};
		expect(serviceDetails(body)).toEqual([
			"identifier can't be blank",
			'Code is too long',
			'workspace id must exist',
			"You've reached your quota",
		]);
		expect(describeHttpError(422, body, SNIPPET).message).toBe(
			"The service refused the data (422): identifier can't be blank; Code is too long; workspace id must exist; You've reached your quota",
		);
	});

	test('shape 1 with 400: the detail is in the message', () => {
		const body = {
			errors: [{ status: '400', detail: 'param is missing or the value is empty: snippet' }],
		};
		expect(describeHttpError(400, body, SNIPPET).message).toBe(
			'The service could not read the request (400): param is missing or the value is empty: snippet',
		);
	});

	test('shape 2 one level deep: the inner fields and their messages', () => {
		const body = { errors: { snippet: { identifier: ['has already been taken'] }, base: ['No'] } };
		expect(describeHttpError(422, body, SNIPPET).message).toBe(
			'The service refused the data (422): identifier has already been taken; No',
		);
	});

	test('shape 3 with 400: the service words in the message, a fix that fits every resource', () => {
		const text = describeHttpError(
			400,
			{ error: 'unexpected character at line 1 column 9' },
			SNIPPET,
		);
		expect(text.message).toBe(
			'The service could not read the request (400): unexpected character at line 1 column 9',
		);
		expect(text.description).toMatch(/payload, meta, sample data/);
	});

	test('shape 3 with another status still carries the words', () => {
		expect(describeHttpError(422, { error: 'Invalid template' }, SNIPPET).message).toBe(
			'The service refused the data (422): Invalid template',
		);
		expect(describeHttpError(409, { error: 'Conflict' }, SNIPPET).message).toBe(
			`Unexpected answer 409 while trying to ${SNIPPET}: Conflict`,
		);
	});
});

describe('describeShape', () => {
	const schema = z.object({ document: z.object({ id: z.string() }) });
	const issue = (body: unknown) => describeShape(body, schema.safeParse(body).error!);
	test('in words', () => {
		expect(issue(undefined)).toBe('an empty answer');
		expect(issue('')).toBe('an empty answer');
		expect(issue('<html>')).toBe('an HTML page instead of JSON');
		expect(issue('OK')).toBe('text instead of JSON');
		expect(issue([1])).toBe('a list where an object was expected');
		expect(issue({})).toBe('document: Required');
		expect(issue({ document: { id: 1 } })).toBe('document.id: Expected string, received number');
		expect(firstIssue(new z.ZodError([]))).toBe('unexpected shape');
	});
});

describe('the service’s words: 500 UTF-16 units a detail, never half a character', () => {
	test('500 units of two-byte text (1,000 bytes) are kept whole; 501 are cut, marked …', () => {
		expect(serviceDetails({ error: 'é'.repeat(500) })).toEqual(['é'.repeat(500)]);
		expect(serviceDetails({ errors: [{ detail: 'é'.repeat(501) }] })).toEqual([
			`${'é'.repeat(500)}…`,
		]);
	});

	test('a character of two units across the cut is left out whole', () => {
		expect(serviceDetails({ error: '😀'.repeat(250) })).toEqual(['😀'.repeat(250)]);
		expect(serviceDetails({ error: `a${'😀'.repeat(250)}` })).toEqual([`a${'😀'.repeat(249)}…`]);
		expect(clip(`${'a'.repeat(9)}😀`, 10)).toBe(`${'a'.repeat(9)}…`);
		expect(clip(`${'a'.repeat(8)}😀`, 10)).toBe(`${'a'.repeat(8)}😀`);
	});
});
