/**
 * Bounds of size and count, each pinned at its edge with inputs whose units disagree there:
 * multibyte text ('é' is 2 bytes, '😀' is 4 bytes and 2 UTF-16 units), a file whose bytes
 * differ from what n8n's metadata says, several documents each at a per-document bound. On
 * the real engine against the sandbox where a user meets the bound; pure where a pure
 * function holds it (imports: checkPayloadSize, templateFields, baseName, readPages).
 */
import fc from 'fast-check';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness';
import { nodeFixture } from '../harness/fixtures';
import type { Sandbox } from '../sandbox';
import { KEY, creds, op, useResilienceSandbox } from './helpers';
import { startEndlessList } from './hostile';
import { checkPayloadSize } from '../../nodes/DocumentGeneration/descriptions/payloadParts';
import { templateFields } from '../../nodes/DocumentGeneration/templateFields/templateFields';
import { baseName } from '../../nodes/shared/helpers/document';
import { MAX_LIST_PAGES, readPages } from '../../nodes/shared/transport/documents';
import type { TransportContext } from '../../nodes/shared/types';

const MB = 1024 * 1024;
const PAYLOAD_BYTES = 20 * MB;
const FILE_BYTES = 5 * MB;
const TEMPLATE_CHARS = 512 * 1024;

const sb = useResilienceSandbox();
let templateId: string;
beforeAll(() => {
	templateId = sb.templates[0].id;
});
beforeEach(() => sb.resetRequests());

const creates = (box: Sandbox) => box.requests.filter((q) => q.method === 'POST');

/** Text of `unit` repeated, padded with ASCII, whose UTF-8 size is exactly `bytes`. */
function textOfBytes(unit: string, bytes: number): string {
	const n = Math.floor((bytes - 16) / Buffer.byteLength(unit));
	return unit.repeat(n) + 'a'.repeat(bytes - n * Buffer.byteLength(unit));
}

/** Whether `run` throws. */
function refuses(run: () => unknown): boolean {
	try {
		run();
		return false;
	} catch {
		return true;
	}
}

describe('payload: 20 MB per document, counted in UTF-8 bytes of its JSON', () => {
	test('a payload of fewer characters than the bound but more bytes is refused; nothing is sent', async () => {
		// {"t":"…"} is 8 bytes around the text.
		const payload = { t: 'é'.repeat((PAYLOAD_BYTES - 6) / 2) };
		expect(JSON.stringify(payload).length).toBeLessThan(PAYLOAD_BYTES);
		expect(Buffer.byteLength(JSON.stringify(payload))).toBe(PAYLOAD_BYTES + 2);
		const r = await runNode({
			parameters: op.create(templateId, { payload: '={{ $json.data }}' }),
			items: [{ data: payload }],
			credentials: creds(sb),
		});
		expect(r.error?.message).toMatch(
			/^The payload is 20\.0 MB, more than the 20\.0 MB one document accepts/,
		);
		expect(creates(sb)).toHaveLength(0);
	});

	test('at the bound in bytes it passes, one byte past it is refused, whatever the characters', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('a', 'é', '€', '😀'),
				fc.integer({ min: -4, max: 4 }),
				(unit, offset) => {
					const payload = { t: textOfBytes(unit, PAYLOAD_BYTES + offset - 8) };
					expect(refuses(() => checkPayloadSize(payload))).toBe(offset > 0);
				},
			),
			{ numRuns: 16 },
		);
	});
});

/** Create with one input file `logo` put into the payload. */
function createWithLogo(): INodeParameters {
	return op.create(templateId, {
		payload: '{"customer": "Ada"}',
		payloadFiles: { files: [{ binaryPropertyName: 'logo', path: 'logo' }] },
	});
}

/** An item whose file `logo` holds `bytes` bytes, with metadata that may say otherwise. */
function itemWithLogo(bytes: number, claims?: { fileSize?: string; bytes?: number }): IDataObject {
	const base64 = Buffer.alloc(bytes, 7).toString('base64');
	return { $files: { logo: { base64, mimeType: 'image/png', claims } } };
}

describe('Files Into Payload: 5 MB per file, counted on its bytes, not on its metadata', () => {
	test('a file whose metadata says 1 kB but whose bytes pass 5 MB is refused; nothing is sent', async () => {
		const r = await runNode({
			parameters: createWithLogo(),
			items: [itemWithLogo(FILE_BYTES + 1, { fileSize: '1 kB', bytes: 1024 })],
			credentials: creds(sb),
		});
		expect(r.error?.message).toMatch(/"logo" is 5\.0 MB, more than the 5\.0 MB a file/);
		expect(creates(sb)).toHaveLength(0);
	});

	test('a file of exactly 5 MB whose metadata says 90 MB goes in whole', async () => {
		const r = await runNode({
			parameters: createWithLogo(),
			items: [itemWithLogo(FILE_BYTES, { fileSize: '90 MB' })],
			credentials: creds(sb),
		});
		expect(r.error).toBeUndefined();
		const stored = JSON.parse(sb.documents.get(String(r.items[0].json.id))!.payload) as {
			logo: string;
		};
		const base64 = stored.logo.replace(/^data:image\/png;base64,/, '');
		expect(Buffer.from(base64, 'base64')).toHaveLength(FILE_BYTES);
	});
});

describe('line items: 10,000 per document, counted per document, not per run', () => {
	test('two documents of 10,000 lines each are both made, every line sent', async () => {
		const items = Array.from({ length: 20_000 }, (_, n) => ({ order: n % 2 ? 'B' : 'A' }));
		const r = await runNode({
			parameters: op.create(templateId, {
				payload: '={{ { "order": $json.order } }}',
				grouping: 'byKey',
				groupKey: '={{ $json.order }}',
				linesPath: 'lines',
				line: '{"qty": 1}',
			}),
			items,
			credentials: creds(sb),
		});
		expect(r.error).toBeUndefined();
		const lines = creates(sb).map((q) => {
			const { payload } = (q.body as { document: { payload: unknown } }).document;
			const parsed = (typeof payload === 'string' ? JSON.parse(payload) : payload) as IDataObject;
			return (parsed.lines as unknown[]).length;
		});
		expect(lines).toEqual([10_000, 10_000]);
	});
});

describe('Search filter of Get Many: 255 characters, not bytes', () => {
	const search = (text: string) =>
		runNode({
			parameters: op.getAll({ returnAll: false, limit: 1, filters: { search: text } }),
			credentials: creds(sb),
		});

	test('255 of "é" (510 bytes) are sent as they are; 256 are refused, naming the length', async () => {
		const sent = await search('é'.repeat(255));
		expect(sent.error).toBeUndefined();
		expect(sb.requests.map((q) => q.query['q[search]'])).toContain('é'.repeat(255));

		sb.resetRequests();
		const refused = await search('é'.repeat(256));
		expect(refused.error?.message).toMatch(/^The Search filter is 256 characters long/);
		expect(sb.requests).toHaveLength(0);
	});
});

describe('Template Fields: body and sample data of 512 K UTF-16 units each', () => {
	/** Text of `count` UTF-16 units made of `unit` (1 or 2 units), ASCII filling an odd one. */
	const textOfUnits = (unit: string, count: number) =>
		unit.repeat(Math.floor(count / unit.length)) + 'a'.repeat(count % unit.length);
	const listed = (body: string, sample: string) => !refuses(() => templateFields(body, sample));

	test('a body or sample data at the bound is read whatever its bytes; one unit past it is not', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('a', 'é', '€', '😀'),
				fc.integer({ min: -3, max: 3 }),
				fc.boolean(),
				(unit, offset, inSample) => {
					const head = inSample ? '{"x": "' : '{{ x }}';
					const tail = inSample ? '"}' : '';
					const filler = textOfUnits(unit, TEMPLATE_CHARS + offset - head.length - tail.length);
					const text = head + filler + tail;
					expect(text.length).toBe(TEMPLATE_CHARS + offset);
					const ok = inSample ? listed('', text) : listed(text, '{}');
					expect(ok).toBe(offset <= 0);
				},
			),
			{ numRuns: 40 },
		);
	});
});

/** Half of a character written as two UTF-16 units, without its other half. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('file names: 200 UTF-16 units and 255 UTF-8 bytes, cut between characters, the extension kept', () => {
	test('a long name is cut to 200, its extension kept', () => {
		fc.assert(
			fc.property(fc.integer({ min: 201, max: 400 }), (length) => {
				const name = baseName(`${'n'.repeat(length - 4)}.pdf`);
				expect(name).toHaveLength(200);
				expect(name.endsWith('n.pdf')).toBe(true);
			}),
		);
		// 124 characters, 244 bytes: under both counts, kept whole.
		expect(baseName(`${'é'.repeat(120)}.pdf`)).toBe(`${'é'.repeat(120)}.pdf`);
	});

	test('at 255 bytes a name of fewer characters is kept whole; at 256 bytes it is cut', () => {
		// 130 characters, 255 bytes; then 130 characters, 256 bytes.
		expect(baseName(`${'é'.repeat(125)}a.pdf`)).toBe(`${'é'.repeat(125)}a.pdf`);
		expect(baseName(`${'é'.repeat(126)}.pdf`)).toBe(`${'é'.repeat(125)}.pdf`);
		// 69 characters (131 UTF-16 units), 255 bytes; then 67 characters, 256 bytes.
		expect(baseName(`${'😀'.repeat(62)}aaa.pdf`)).toBe(`${'😀'.repeat(62)}aaa.pdf`);
		expect(baseName(`${'😀'.repeat(63)}.pdf`)).toBe(`${'😀'.repeat(62)}.pdf`);
	});

	test('a cut name never splits a character in two (no lone surrogate)', () => {
		fc.assert(
			fc.property(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 100, max: 200 }), (k, n) => {
				const name = baseName(`${'a'.repeat(k)}${'😀'.repeat(n)}.pdf`);
				expect(name).not.toMatch(LONE_SURROGATE);
				expect(name.endsWith('.pdf')).toBe(true);
			}),
		);
	});

	test('a kept name fits the 255 bytes a file system allows', () => {
		fc.assert(
			fc.property(fc.constantFrom('é', '名', '😀'), fc.integer({ min: 60, max: 300 }), (u, n) => {
				expect(Buffer.byteLength(baseName(`${u.repeat(n)}.pdf`))).toBeLessThanOrEqual(255);
			}),
		);
	});

	/** One character of any kind: astral, combining, emoji sequences, controls, lone halves. */
	const anyChar = fc.oneof(
		fc.constantFrom('a', ' ', '.', '/', 'é', 'e\u0301', '名', '😀', '👩\u200d💻', '🇫🇷', '\u202e'),
		fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
		fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
	);
	const EXTENSIONS = ['', '.pdf', '.jpeg', '.webp', '.txt'];
	const named = (char: fc.Arbitrary<string>, maxLength: number) =>
		fc.tuple(fc.string({ unit: char, maxLength, size: 'max' }), fc.constantFrom(...EXTENSIONS));

	test('any name comes out well formed, within 200 units and 255 bytes, its extension kept', () => {
		fc.assert(
			fc.property(named(anyChar, 300), ([stem, ext]) => {
				const kept = baseName(stem + ext);
				expect(kept).not.toMatch(LONE_SURROGATE);
				expect(kept.length).toBeLessThanOrEqual(200);
				expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(255);
				if (ext) expect(kept.endsWith(ext)).toBe(true);
				expect(baseName(kept)).toBe(kept);
			}),
			{ numRuns: 500 },
		);
	});

	/** A character a name may keep: none of controls, slashes, reversing marks, lone halves. */
	// eslint-disable-next-line no-control-regex -- control characters are what it leaves out
	const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\\/]/;
	const nameChar = fc.oneof(
		fc.constantFrom('a', ' ', '.', 'é', 'e\u0301', '名', '😀', '👩\u200d💻', '🇫🇷'),
		fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => !UNSAFE.test(c)),
	);
	const fits = (name: string) => name.length <= 200 && Buffer.byteLength(name) <= 255;

	test('a clean name that fits is unchanged; a longer one loses only what passes a bound', () => {
		fc.assert(
			fc.property(named(nameChar, 300), ([stem, ext]) => {
				const name = stem + ext;
				fc.pre(name.trim() === name && !/^\.*$/.test(name));
				const kept = baseName(name);
				if (fits(name)) return expect(kept).toBe(name);
				const suffix = /\.[a-z0-9]{1,8}$/i.exec(name)?.[0] ?? '';
				const whole = name.slice(0, name.length - suffix.length);
				const head = kept.slice(0, kept.length - suffix.length);
				expect(fits(kept)).toBe(true);
				expect(kept.endsWith(suffix)).toBe(true);
				expect(whole.startsWith(head)).toBe(true);
				// One more character of the name, with the spaces before it, passes a bound.
				const rest = whole.slice(head.length);
				const gap = rest.length - rest.trimStart().length;
				const next = [...rest.slice(gap)][0] ?? '';
				expect(fits(whole.slice(0, head.length + gap) + next + suffix)).toBe(false);
			}),
			{ numRuns: 500 },
		);
	});
});

describe('paging: 2,000 pages one read of a list, counted in pages, not documents, per read', () => {
	const ctx = { getNode: () => nodeFixture() } as unknown as TransportContext;

	/** Reads a list of `pages` pages of `perPage` cards each: what was fetched, or the error. */
	async function read(pages: number, perPage: number) {
		let [fetched, cards] = [0, 0];
		const outcome = await readPages(ctx, {
			reader: 'getAll',
			fetchPage: async (page) => {
				fetched++;
				const records = Array.from({ length: perPage }, () => ({}));
				return { records, nextPage: page < pages ? page + 1 : null };
			},
			take: (page) => void (cards += page.records.length),
		}).catch((error: Error) => error);
		return { outcome, fetched, cards };
	}

	test('a list of exactly 2,000 pages of 24 (48,000 cards) is read whole; one of 2,001 pages of 1 is not', async () => {
		expect(MAX_LIST_PAGES).toBe(2000);
		const whole = await read(2000, 24);
		expect(whole).toEqual({
			outcome: { pages: 2000, complete: true },
			fetched: 2000,
			cards: 48_000,
		});
		const endless = await read(2001, 1);
		expect(endless.fetched).toBe(2000);
		expect((endless.outcome as Error).message).toBe(
			'The document list did not end after 2000 pages',
		);
	});

	test('two reads in one run each have their 2,000 pages', async () => {
		const [first, second] = [await read(2000, 1), await read(2000, 1)];
		expect([first.outcome, second.outcome]).toEqual([
			{ pages: 2000, complete: true },
			{ pages: 2000, complete: true },
		]);
	});

	test('Get Many with Return All over a list that ends on its 2,000th page: every card, no error', async () => {
		const service = await startEndlessList(
			(page) => (page < 2000 ? page + 1 : (null as unknown as number)),
			{
				'/api/v1/document_cards': {
					key: 'document_cards',
					record: (page) => ({ id: `doc-${page}`, status: 'success', meta: '{}' }),
				},
			},
		);
		try {
			const r = await runNode({
				parameters: op.getAll({ returnAll: true }),
				credentials: { apiKey: KEY, baseUrl: service.url },
			});
			expect(r.error).toBeUndefined();
			expect(r.items).toHaveLength(2000);
			expect(service.requests()).toBe(2000);
		} finally {
			await service.close();
		}
	}, 120_000);
});
