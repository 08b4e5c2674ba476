/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * `downloadToBinary` (nodes/shared/transport/files.ts) alone. Unit tests call `downloadToBinary` with a stand-in for n8n's request helpers (the service's
 * card reads and the file host's answers, each recorded) and n8n's own binary store, on a
 * simulated clock: a file counted as it arrives when its size is not announced, the Max File
 * Size exactly, a link renewed when it is a minute old or missing, a renewed card without a
 * file or a link, a card read that fails naming the item, a file host's 300 or 404 or type,
 * n8n's store failing; and `withLinkOf`, the link an item hands on. The engine tests show
 * the bounds and refusals a user meets through the Download operation against the sandbox.
 */
import { Readable } from 'stream';
import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { prepareBinaryData } from 'n8n-core';

import { LINK_EXPIRY_FIELD } from '../../../../../nodes/shared/helpers/linkExpiry';
import {
	downloadToBinary,
	FRESH_LINK_MS,
	withLinkOf,
} from '../../../../../nodes/shared/transport/files';
import { ensureBinaryData, getBinaryBuffer } from '../../../../harness';
import { STORE_READS_TEXT } from '../../../../harness/versions';
import { useFakeClock } from '../../../../harness/clock';
import { nodeFixture, statusFault } from '../../../../harness/fixtures';
import { useSandbox } from '../../../../harness/use-sandbox';
import {
	byId,
	cardRequests,
	CONTINUE,
	fileRequests,
	run,
} from '../../../DocumentGeneration/helpers';

const MB = 1024 * 1024;
const ID = '11111111-1111-4111-8111-111111111111';
const FIRST_LINK = 'https://files.example.test/first/invoice.pdf';
const RENEWED_LINK = 'https://files.example.test/renewed/invoice.pdf';

/** A card of the document as the service gives it. */
const card = (extra: IDataObject = {}): IDataObject => ({
	id: ID,
	status: 'success',
	filename: 'invoice.pdf',
	output_type: 'pdf',
	download_url: FIRST_LINK,
	...extra,
});

interface FileHostAnswer {
	statusCode: number;
	headers?: IDataObject;
	body?: Readable | Buffer;
}

type Store = (body: unknown, fileName?: string, mimeType?: string) => Promise<IBinaryData>;

/** n8n's own binary store (filesystem mode, as the engine tests run it). */
const n8nStore: Store = async (body, fileName, mimeType) =>
	await prepareBinaryData(body as Readable, 'download-edges', 'download-edges', fileName, mimeType);

/** The service's answer to a card read of a document deleted meanwhile. */
const GONE = {
	statusCode: 404,
	headers: {},
	body: { errors: [{ status: '404', title: 'Not Found', detail: 'Document not found' }] },
};

interface StandIn {
	ctx: IExecuteFunctions;
	/** What was asked, in order: `card` for a read of the document's card, a file's link. */
	asked: string[];
}

/**
 * A context whose service answers the card reads with `cards` and whose file host answers the
 * file requests with `files`, in order; the binary store is n8n's unless `store` is given.
 */
function standIn(service: {
	cards?: Array<IDataObject | typeof GONE>;
	files?: FileHostAnswer[];
	store?: Store;
}) {
	const cards = [...(service.cards ?? [])];
	const files = [...(service.files ?? [])];
	const asked: string[] = [];
	const ctx = {
		getNode: () => nodeFixture(),
		getCredentials: async () => ({ apiKey: 'sk_test_edges', baseUrl: 'https://api.example.test' }),
		helpers: {
			httpRequestWithAuthentication: async () => {
				asked.push('card');
				const next = cards.shift();
				if (!next) throw new Error('The stand-in service has no more cards to give');
				return next === GONE
					? GONE
					: { statusCode: 200, headers: {}, body: { document_card: next } };
			},
			httpRequest: async (options: IHttpRequestOptions) => {
				asked.push(String(options.url));
				const next = files.shift();
				if (!next) throw new Error('The stand-in file host has no more answers');
				return { headers: {}, ...next };
			},
			prepareBinaryData: service.store ?? n8nStore,
		},
	} as unknown as IExecuteFunctions;
	return { ctx, asked } satisfies StandIn;
}

const CHUNK = 64 * 1024;

/** A file of `size` bytes arriving in chunks of 64 KB, and how many of its bytes were sent. */
function arriving(size: number): { body: Readable; sent: () => number } {
	let sent = 0;
	function* chunks() {
		for (let at = 0; at < size; at += CHUNK) {
			const part = Buffer.alloc(Math.min(CHUNK, size - at), 0x20);
			sent += part.length;
			yield part;
		}
	}
	return { body: Readable.from(chunks(), { objectMode: false }), sent: () => sent };
}

/** A PDF answer of the file host: `size` bytes, announced (Content-Length) or not. */
function pdf(size: number, announced: boolean) {
	const file = arriving(size);
	const headers: IDataObject = { 'content-type': 'application/pdf' };
	if (announced) headers['content-length'] = String(size);
	return { answer: { statusCode: 200, headers, body: file.body }, sent: file.sent };
}

const NOW = Date.UTC(2030, 0, 1);
/** Options of a download whose card was just read. */
const fresh = (maxFileBytes?: number) => ({ fetchedAt: NOW, maxFileBytes });

/** The bytes stored of a file of exactly `maxBytes`, at a Max File Size of `maxBytes`. */
async function storedAtMaxOf(maxBytes: number, announced: boolean): Promise<number> {
	const exact = pdf(maxBytes, announced);
	const kept = await downloadToBinary(
		standIn({ files: [exact.answer] }).ctx,
		card(),
		0,
		fresh(maxBytes),
	);
	return (await getBinaryBuffer(kept.binary)).length;
}

beforeAll(async () => {
	await ensureBinaryData();
});

describe('a file whose size is not announced is counted as it arrives', () => {
	useFakeClock(NOW);

	test('3 MB at a Max File Size of 1 MB: refused naming the document, stopped before its end', async () => {
		const file = pdf(3 * MB, false);
		const { ctx } = standIn({ files: [file.answer] });
		await expect(downloadToBinary(ctx, card(), 2, fresh(MB))).rejects.toMatchObject({
			name: 'NodeOperationError',
			message: `The file of document ${ID} is larger than the Max File Size (1 MB)`,
			description: expect.stringMatching(
				/^It was stopped as soon as it passed the limit, and what arrived was dropped\. If files this large are expected, raise Max File Size/,
			),
			context: { itemIndex: 2 },
		});
		expect(file.sent()).toBeLessThan(2 * MB);
	});

	test('exactly the Max File Size is kept whole; one byte more is refused', async () => {
		expect(await storedAtMaxOf(MB, false)).toBe(MB);
		const over = pdf(MB + 1, false);
		await expect(
			downloadToBinary(standIn({ files: [over.answer] }).ctx, card(), 0, fresh(MB)),
		).rejects.toThrow(`The file of document ${ID} is larger than the Max File Size (1 MB)`);
	});
});

describe('a file whose size is announced (Content-Length)', () => {
	useFakeClock(NOW);

	test('exactly the Max File Size is kept; one byte more is refused from the announcement, nothing read', async () => {
		expect(await storedAtMaxOf(MB, true)).toBe(MB);
		const over = pdf(MB + 1, true);
		await expect(
			downloadToBinary(standIn({ files: [over.answer] }).ctx, card(), 0, fresh(MB)),
		).rejects.toMatchObject({
			message: `The file of document ${ID} is larger than the Max File Size (1 MB)`,
			description: expect.stringMatching(
				/^The file host announced 1 MB, so nothing of it was stored\./,
			),
		});
		expect(over.sent()).toBe(0);
	});
});

describe('Max File Size counts the bytes that arrive, not what the file host says of them', () => {
	useFakeClock(NOW);

	/** A PDF answer whose Content-Length says `claims` bytes, whatever it sends. */
	const claiming = (claims: number, size: number) => {
		const file = pdf(size, false);
		file.answer.headers['content-length'] = String(claims);
		return file;
	};
	const download = (answer: FileHostAnswer, maxBytes: number) =>
		downloadToBinary(standIn({ files: [answer] }).ctx, card(), 0, fresh(maxBytes));

	test('a Content-Length of 1 KB on a file of exactly the Max File Size: kept whole', async () => {
		const kept = await download(claiming(1024, MB).answer, MB);
		expect((await getBinaryBuffer(kept.binary)).length).toBe(MB);
	});

	test('a Content-Length of 1 KB on a file one byte over: refused as it arrives', async () => {
		await expect(download(claiming(1024, MB + 1).answer, MB)).rejects.toMatchObject({
			message: `The file of document ${ID} is larger than the Max File Size (1 MB)`,
			description: expect.stringMatching(/^It was stopped as soon as it passed the limit/),
		});
	});

	/** A file host's answer handing on `text` decoded, in chunks of 4,096 characters. */
	const decoded = (text: string): FileHostAnswer => {
		const body = Readable.from(
			Array.from({ length: Math.ceil(text.length / 4096) }, (_, n) =>
				text.slice(n * 4096, (n + 1) * 4096),
			),
			{ objectMode: false },
		);
		body.setEncoding('utf8');
		return { statusCode: 200, headers: { 'content-type': 'application/pdf' }, body };
	};

	(STORE_READS_TEXT ? test : test.skip)(
		'text of 2-byte characters as 1 MB of bytes exactly: kept',
		async () => {
			const kept = await download(decoded('é'.repeat(MB / 2)), MB);
			expect((await getBinaryBuffer(kept.binary)).length).toBe(MB);
		},
	);

	test('text of 2-byte characters one character past 1 MB of bytes: refused', async () => {
		// 524,289 characters, fewer than the bound, but 1 MB and 2 bytes.
		await expect(download(decoded('é'.repeat(MB / 2 + 1)), MB)).rejects.toThrow(
			`The file of document ${ID} is larger than the Max File Size (1 MB)`,
		);
	});
});

describe('the link the file is fetched with', () => {
	useFakeClock(NOW);

	test('a link read more than a minute ago is renewed first; one read a minute ago is used', async () => {
		const stale = standIn({
			cards: [card({ download_url: RENEWED_LINK })],
			files: [pdf(100, true).answer],
		});
		const renewed = await downloadToBinary(stale.ctx, card(), 0, {
			fetchedAt: NOW - FRESH_LINK_MS - 1,
		});
		expect(stale.asked).toEqual(['card', RENEWED_LINK]);
		expect(renewed.card.download_url).toBe(RENEWED_LINK);

		const minute = standIn({ files: [pdf(100, true).answer] });
		await downloadToBinary(minute.ctx, card(), 0, { fetchedAt: NOW - FRESH_LINK_MS });
		expect(minute.asked).toEqual([FIRST_LINK]);
	});

	test.each([
		['null', { download_url: null }],
		['missing', { download_url: undefined }],
		['empty', { download_url: '' }],
	])('a card whose link is %s is read again for one', async (_, link) => {
		const { ctx, asked } = standIn({
			cards: [card({ download_url: RENEWED_LINK })],
			files: [pdf(100, true).answer],
		});
		const file = await downloadToBinary(ctx, card(link), 0, fresh());
		expect(asked).toEqual(['card', RENEWED_LINK]);
		expect(file.card.download_url).toBe(RENEWED_LINK);
	});

	test('a card read again that has no file any more: refused with its status, nothing fetched', async () => {
		const { ctx, asked } = standIn({ cards: [card({ status: 'pending', download_url: null })] });
		await expect(
			downloadToBinary(ctx, card({ download_url: null }), 1, fresh()),
		).rejects.toMatchObject({
			message: `Document ${ID} has no file to download: its status is "pending"`,
			context: { itemIndex: 1 },
		});
		expect(asked).toEqual(['card']);
	});

	test('a card read again still without a link: said so, nothing fetched', async () => {
		const { ctx, asked } = standIn({ cards: [card({ download_url: null })] });
		await expect(
			downloadToBinary(ctx, card({ download_url: null }), 3, fresh()),
		).rejects.toMatchObject({
			name: 'NodeOperationError',
			message: `Document ${ID} has no download link`,
			description:
				'The service answered without a download_url for a successful document; run again later.',
			context: { itemIndex: 3 },
		});
		expect(asked).toEqual(['card']);
	});

	test('a card without a file is refused as it is, not read again; a failure without a cause says so', async () => {
		const { ctx, asked } = standIn({});
		await expect(
			downloadToBinary(
				ctx,
				card({ status: 'failure', download_url: null, failure_cause: null }),
				0,
				fresh(),
			),
		).rejects.toMatchObject({
			message: `Document ${ID} has no file to download: its status is "failure"`,
			description: 'Generation failed. Fix it and generate again with Update and status "Pending".',
		});
		expect(asked).toEqual([]);
	});
	test.each([
		['a stale link', [], { fetchedAt: NOW - FRESH_LINK_MS - 1 }],
		['an expired link (403)', [{ statusCode: 403, body: Buffer.from('<Error/>') }], fresh()],
	])('%s renewed: a card read that fails names the item', async (_, files, options) => {
		const { ctx, asked } = standIn({ cards: [GONE], files });
		await expect(downloadToBinary(ctx, card(), 2, options)).rejects.toMatchObject({
			name: 'NodeApiError',
			httpCode: '404',
			context: { itemIndex: 2 },
		});
		expect(asked.at(-1)).toBe('card');
	});
});

describe("the file host's answers", () => {
	useFakeClock(NOW);

	test("a file name without an extension takes the file host's type: an image template's JPEG", async () => {
		const jpeg = {
			statusCode: 200,
			headers: { 'content-type': 'image/jpeg' },
			body: arriving(100).body,
		};
		const { ctx } = standIn({ files: [jpeg] });
		const file = await downloadToBinary(
			ctx,
			card({ filename: 'badge', output_type: 'image' }),
			0,
			fresh(),
		);
		expect(file.binary).toMatchObject({ fileName: 'badge.jpg', mimeType: 'image/jpeg' });
	});

	test.each([300, 404])('%i: no file, the error at once, no link renewed', async (status) => {
		const { ctx, asked } = standIn({
			files: [{ statusCode: status, body: Buffer.from('<Error/>') }],
		});
		await expect(downloadToBinary(ctx, card(), 0, fresh())).rejects.toMatchObject({
			name: 'NodeApiError',
			message: `The file could not be downloaded (${status}) while trying to download the file of document ${ID}`,
			httpCode: String(status),
		});
		expect(asked).toEqual([FIRST_LINK]);
	});

	test("n8n's binary store failing is said as it is, the file not fetched again", async () => {
		const { ctx, asked } = standIn({
			files: [pdf(100, true).answer, pdf(100, true).answer],
			cards: [card({ download_url: RENEWED_LINK })],
			store: async () => {
				throw new Error('The binary data storage refused the file');
			},
		});
		await expect(downloadToBinary(ctx, card(), 0, fresh())).rejects.toMatchObject({
			name: 'NodeOperationError',
			message: 'The binary data storage refused the file',
		});
		expect(asked).toEqual([FIRST_LINK]);
	});
});

describe("a failure of n8n's store that carries a code", () => {
	test.each([
		['ENOSPC', 'no space left on device'],
		['EACCES', 'permission denied'],
		['EROFS', 'read-only file system'],
	])("%s is the store's, not the file host's: the file not fetched again", async (code, words) => {
		const { ctx, asked } = standIn({
			files: [pdf(100, true).answer, pdf(100, true).answer],
			cards: [card({ download_url: RENEWED_LINK })],
			store: async () => {
				throw Object.assign(new Error(`${code}: ${words}, write`), { code });
			},
		});
		const error = await downloadToBinary(ctx, card(), 0, fresh()).catch((e: Error) => e);
		expect(error).toMatchObject({ name: 'NodeOperationError' });
		expect((error as Error).message).not.toMatch(/broke off/);
		expect(asked).toEqual([FIRST_LINK]);
	});

	test('a full disk is said in its own words', async () => {
		const { ctx } = standIn({
			files: [pdf(100, true).answer],
			store: async () => {
				throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
					code: 'ENOSPC',
				});
			},
		});
		await expect(downloadToBinary(ctx, card(), 0, fresh())).rejects.toMatchObject({
			name: 'NodeOperationError',
			message: 'ENOSPC: no space left on device, write',
		});
	});

	test.each(['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE', 'ECONNABORTED'])(
		'%s is the file breaking off on its way: fetched once more with a fresh link',
		async (code) => {
			let stores = 0;
			const { ctx, asked } = standIn({
				files: [pdf(100, true).answer, pdf(100, true).answer],
				cards: [card({ download_url: RENEWED_LINK })],
				store: async () => {
					stores++;
					if (stores === 1) throw Object.assign(new Error('the stream broke'), { code });
					return { data: '', mimeType: 'application/pdf' };
				},
			});
			await downloadToBinary(ctx, card(), 0, fresh());
			expect(asked).toEqual([FIRST_LINK, 'card', RENEWED_LINK]);
		},
	);
});

describe('withLinkOf: the item hands on the link its file came through', () => {
	const item = {
		id: ID,
		download_url: FIRST_LINK,
		[LINK_EXPIRY_FIELD]: '2030-01-01T00:15:00.000Z',
	};
	const binary = { data: '', mimeType: 'application/pdf' };

	test("a renewed link and its end replace the item's", () => {
		const renewed = {
			...item,
			download_url: RENEWED_LINK,
			[LINK_EXPIRY_FIELD]: '2030-01-01T01:00:00.000Z',
		};
		expect(withLinkOf(item, { binary, card: renewed })).toEqual(renewed);
	});

	test("a card without the link's end (a webhook delivery's document) leaves the item's end", () => {
		const delivered = { id: ID, status: 'success', download_url: FIRST_LINK };
		expect(withLinkOf(item, { binary, card: delivered })).toStrictEqual(item);
	});
});

describe('through the Download operation, against the sandbox', () => {
	const sb = useSandbox({ pendingMs: 20, generatingMs: 80 });
	const download = (id: string, extra: IDataObject = {}) => ({
		resource: 'document',
		operation: 'download',
		documentId: byId(id),
		...extra,
	});

	test('a file of exactly the Max File Size is kept; one byte more is refused from its announced size', async () => {
		const doc = sb.createDocument({ status: 'success' });
		try {
			sb.setOptions({ fileSizeBytes: MB });
			const kept = await run(sb, download(doc.id, { maxFileSize: 1 }));
			expect(kept.error).toBeUndefined();
			expect(kept.items[0].binary?.data).toBeDefined();
			sb.setOptions({ fileSizeBytes: MB + 1 });
			const refused = await run(sb, download(doc.id, { maxFileSize: 1 }));
			expect(refused.error).toMatchObject({
				message: `The file of document ${doc.id} is larger than the Max File Size (1 MB)`,
				description: expect.stringMatching(/^The file host announced 1 MB/),
			});
		} finally {
			sb.setOptions({ fileSizeBytes: 0 });
		}
	});

	test('a failed document without a cause: refused from the card read, which is not read again', async () => {
		const doc = sb.createDocument({ status: 'failure' });
		sb.documents.get(doc.id)!.failure_cause = null;
		const result = await run(sb, download(doc.id));
		expect(result.error).toMatchObject({
			message: `Document ${doc.id} has no file to download: its status is "failure"`,
			description: 'Generation failed. Fix it and generate again with Update and status "Pending".',
		});
		expect(cardRequests(sb)).toHaveLength(1);
		expect(fileRequests(sb)).toHaveLength(0);
	});

	test.each([300, 404])(
		'a file host answering %i: the error at once, no new link',
		async (status) => {
			const doc = sb.createDocument({ status: 'success' });
			sb.faults.add(statusFault(status, 'GET', '/files/', { body: '<Error/>' }));
			const result = await run(sb, download(doc.id));
			expect(result.error).toMatchObject({
				message: `The file could not be downloaded (${status}) while trying to download the file of document ${doc.id}`,
				httpCode: String(status),
			});
			expect(cardRequests(sb)).toHaveLength(1);
			expect(fileRequests(sb)).toHaveLength(1);
		},
	);

	test('Put Output File in Field from an expression is read for each item: each file goes in the field its own data names', async () => {
		const doc = sb.createDocument({ status: 'success' });
		const result = await run(sb, download(doc.id, { binaryPropertyName: '={{ $json.field }}' }), [
			{ field: 'first' },
			{ field: 'second' },
		]);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => Object.keys(item.binary ?? {}))).toEqual([
			['first'],
			['second'],
		]);
	});

	test('a Max File Size from an expression is read for each item: a 3 MB file taken at 5 MB, refused at 1 MB', async () => {
		const doc = sb.createDocument({ status: 'success' });
		try {
			sb.setOptions({ fileSizeBytes: 3 * MB });
			const result = await run(
				sb,
				download(doc.id, { maxFileSize: '={{ $json.max }}' }),
				[{ max: 5 }, { max: 1 }],
				CONTINUE,
			);
			expect(result.items[0].binary?.data).toBeDefined();
			expect(result.items[1].binary).toBeUndefined();
			expect(result.items[1].json.error).toMatch(
				new RegExp(`^The file of document ${doc.id} is larger than the Max File Size \\(1 MB\\)`),
			);
		} finally {
			sb.setOptions({ fileSizeBytes: 0 });
		}
	});
});
