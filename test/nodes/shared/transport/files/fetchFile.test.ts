/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The file host's side of a download (nodes/shared/transport/files.ts), with a stand-in for
 * n8n's request helper: the credential's Request Timeout on the request, an error answer's
 * body read into a Buffer (at most 64 KB, what arrived when it breaks off, nothing when it has
 * none) and its stream released, and the errors naming their item. The engine tests show the
 * refusals a user meets through Download against the sandbox.
 */
import { Readable } from 'stream';
import type { IDataObject, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { brokenDownload, fetchFile } from '../../../../../nodes/shared/transport/files';
import { nodeFixture } from '../../../../harness/fixtures';

const KB = 1024;
const LINK = 'https://files.example.test/invoice.pdf';

interface Answer {
	statusCode: number;
	body?: unknown;
}

/** A context whose file host gives `answer`; `asked` holds each request's options. */
function standIn(answer: Answer, credential: IDataObject = {}) {
	const asked: IHttpRequestOptions[] = [];
	const ctx = {
		getNode: () => nodeFixture(),
		getCredentials: async () => ({ apiKey: 'sk_test_files', ...credential }),
		helpers: {
			httpRequest: async (options: IHttpRequestOptions) => {
				asked.push(options);
				return { headers: {}, ...answer };
			},
		},
	} as unknown as IExecuteFunctions;
	return { ctx, asked };
}

/** A body of `size` bytes in chunks of 16 KB that breaks off after `breakAfter` bytes. */
function arriving(size: number, breakAfter = Infinity) {
	let sent = 0;
	async function* chunks() {
		for (let at = 0; at < size; at += 16 * KB) {
			if (at >= breakAfter)
				throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
			sent += 16 * KB;
			yield Buffer.alloc(16 * KB, 0x41);
		}
	}
	const body = Readable.from(chunks(), { objectMode: false });
	return { body, sent: () => sent };
}

const fetch = async (answer: Answer, credential?: IDataObject, timeoutMs?: number) => {
	const { ctx, asked } = standIn(answer, credential);
	const response = await fetchFile(ctx, LINK, { what: 'download the file', timeoutMs });
	return { response, asked };
};

describe('the request', () => {
	test('waits as long as the credential’s Request Timeout, or the time the caller gives', async () => {
		const answer = { statusCode: 200, body: Buffer.from('%PDF') };
		expect((await fetch(answer, { requestTimeout: 45 })).asked[0].timeout).toBe(45_000);
		expect((await fetch(answer, { requestTimeout: 45 }, 5_000)).asked[0].timeout).toBe(5_000);
		expect(String((await fetch(answer)).asked[0].url)).toBe(LINK);
	});
});

describe('an error answer’s body', () => {
	test('is read into a Buffer up to 64 KB, and the rest is not pulled from the file host', async () => {
		const file = arriving(1024 * KB);
		const { response } = await fetch({ statusCode: 404, body: file.body });
		expect(Buffer.isBuffer(response.body)).toBe(true);
		expect((response.body as Buffer).length).toBe(64 * KB);
		expect(file.sent()).toBeLessThan(256 * KB);
		expect(file.body.destroyed).toBe(true);
	});

	/** An error body of `text`, in chunks of 4,096 characters, handed on as bytes or decoded. */
	const textBody = (text: string, asText = false) => {
		const parts = Array.from({ length: Math.ceil(text.length / 4096) }, (_, n) =>
			text.slice(n * 4096, (n + 1) * 4096),
		);
		const body = Readable.from(parts, { objectMode: false });
		if (asText) body.setEncoding('utf8');
		return body;
	};

	test.each([false, true])(
		'64 KB counted in bytes: 32,768 two-byte characters whole; 40,000 cut at 65,536 bytes (decoded: %s)',
		async (asText) => {
			const whole = await fetch({ statusCode: 404, body: textBody('é'.repeat(32 * KB), asText) });
			expect((whole.response.body as Buffer).equals(Buffer.from('é'.repeat(32 * KB)))).toBe(true);
			// 40,000 characters, fewer than 64 K of them, but 80,000 bytes.
			const cut = await fetch({ statusCode: 404, body: textBody('é'.repeat(40_000), asText) });
			expect((cut.response.body as Buffer).length).toBe(64 * KB);
		},
	);

	test('of an answer of exactly 300 is read too; a 2xx answer’s stays a stream', async () => {
		const redirect = await fetch({ statusCode: 300, body: arriving(32 * KB).body });
		expect((redirect.response.body as Buffer).length).toBe(32 * KB);
		const ok = arriving(32 * KB);
		const file = await fetch({ statusCode: 299, body: ok.body });
		expect(file.response.body).toBe(ok.body);
	});

	test('that breaks off gives what arrived', async () => {
		const { response } = await fetch({
			statusCode: 404,
			body: arriving(128 * KB, 32 * KB).body,
		});
		expect((response.body as Buffer).length).toBe(32 * KB);
	});

	test('missing, or text, gives what there is', async () => {
		expect((await fetch({ statusCode: 404 })).response.body).toEqual(Buffer.alloc(0));
		expect((await fetch({ statusCode: 404, body: null })).response.body).toEqual(Buffer.alloc(0));
		expect(String((await fetch({ statusCode: 403, body: 'expired' })).response.body)).toBe(
			'expired',
		);
	});
});

test('a file that broke off twice is an error naming its item', () => {
	const { ctx } = standIn({ statusCode: 200 });
	const error = brokenDownload(
		ctx,
		Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
		'download the file of item 4',
		3,
	);
	expect(error.message).toBe('The file broke off while trying to download the file of item 4');
	expect(error.context.itemIndex).toBe(3);
});
