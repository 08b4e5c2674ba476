/**
 * Files: the download operation and the download option of create, on the real engine
 * against the sandbox. A fresh link right before the fetch, no Authorization header on the
 * file host, the document's file name and the MIME type of its extension, one new link and
 * one retry when the link has expired (403).
 */
import type { IDataObject } from 'n8n-workflow';

import { getBinaryBuffer } from '../../../../harness';
import { statusFault, withFirstLinkExpired } from '../../../../harness/fixtures';
import { useSandbox } from '../../../../harness/use-sandbox';
import {
	byId,
	cardRequests,
	CONTINUE,
	creates,
	fileRequests,
	pairs,
	run,
	templateId,
} from '../../../DocumentGeneration/helpers';

const sb = useSandbox(
	{ pendingMs: 20, generatingMs: 80 },
	{
		beforeEach: (sb) => {
			sb.setOptions({ downloadTtlMs: 900_000 });
		},
	},
);

const download = (extra: IDataObject = {}) => ({
	resource: 'document',
	operation: 'download',
	documentId: byId('={{ $json.id }}'),
	...extra,
});
/** Downloads a document the sandbox has finished: the document, and the run. */
const downloadFinished = async () => {
	const doc = sb.createDocument({ status: 'success' });
	return { doc, result: await run(sb, download(), [{ id: doc.id }]) };
};
const PDF = '%PDF-';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

describe('download operation', () => {
	test('Max File Size bounds the file: 3 MB refused at 1 MB, naming the document; taken at 5 MB', async () => {
		const doc = sb.createDocument({ status: 'success' });
		sb.setOptions({ fileSizeBytes: 3 * 1024 * 1024 });
		try {
			const refused = await run(sb, download({ maxFileSize: 1 }), [{ id: doc.id }]);
			expect(refused.error?.message).toMatch(
				new RegExp(`^The file of document ${doc.id} is larger than the Max File Size \\(1 MB\\)`),
			);
			const taken = await run(sb, download({ maxFileSize: 5 }), [{ id: doc.id }]);
			expect(taken.error).toBeUndefined();
			expect(taken.items[0].binary?.data).toBeDefined();
		} finally {
			// The sandbox serves every test of this file: its files go back to their own size.
			sb.setOptions({ fileSizeBytes: 0 });
		}
	});

	test('a fresh card, then the file without Authorization; named and typed after the document', async () => {
		const doc = sb.createDocument({
			status: 'success',
			meta: { order_id: 'F-1', _filename: 'invoice-F-1.pdf' },
		});
		const result = await run(sb, download(), [{ id: doc.id }]);
		expect(result.error).toBeUndefined();
		expect(
			sb.requests.map(
				(r) => `${r.method} ${r.path.replace(/\/files\/.*/, '/files/…')} ${r.status}`,
			),
		).toEqual([`GET /api/v1/document_cards/${doc.id} 200`, 'GET /files/… 200']);
		const [file] = fileRequests(sb);
		expect(file.authorization).toBeUndefined();
		expect(file.headers.authorization).toBeUndefined();
		// The link used is the one the card fetched just before carried.
		expect(`${sb.url}${file.path}?${file.rawQuery}`).toBe(result.items[0].json.download_url);

		const item = result.items[0];
		expect(item.json).toMatchObject({
			id: doc.id,
			status: 'success',
			filename: 'invoice-F-1.pdf',
			meta: { order_id: 'F-1', _filename: 'invoice-F-1.pdf' },
		});
		expect(item.binary?.data).toMatchObject({
			fileName: 'invoice-F-1.pdf',
			mimeType: 'application/pdf',
			fileExtension: 'pdf',
		});
		const bytes = await getBinaryBuffer(item.binary!.data);
		expect(bytes.subarray(0, 5).toString('latin1')).toBe(PDF);
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	test('into another binary field, for many items in order; an image template gives a PNG', async () => {
		const docs = [
			sb.createDocument({ status: 'success', meta: { n: 0 } }),
			sb.createDocument({
				status: 'success',
				document_template_id: templateId(sb, 'badge'),
				meta: { n: 1 },
			}),
			sb.createDocument({ status: 'success', filename: 'custom name.pdf', meta: { n: 2 } }),
		];
		const result = await run(
			sb,
			download({ binaryPropertyName: 'file' }),
			docs.map((d) => ({ id: d.id })),
		);
		expect(result.error).toBeUndefined();
		expect(pairs(result)).toEqual([0, 1, 2]);
		expect(result.items.map((i) => (i.json.meta as IDataObject).n)).toEqual([0, 1, 2]);
		expect(result.items.map((i) => Object.keys(i.binary ?? {}))).toEqual([
			['file'],
			['file'],
			['file'],
		]);
		const [pdf, png, custom] = result.items.map((i) => i.binary!.file);
		expect(pdf).toMatchObject({
			mimeType: 'application/pdf',
			fileName: expect.stringMatching(/^invoice-.*\.pdf$/),
		});
		expect(png).toMatchObject({
			mimeType: 'image/png',
			fileName: expect.stringMatching(/^badge-.*\.png$/),
			fileExtension: 'png',
		});
		expect(custom).toMatchObject({ mimeType: 'application/pdf', fileName: 'custom name.pdf' });
		expect((await getBinaryBuffer(png)).subarray(0, 4)).toEqual(PNG);
		expect(fileRequests(sb)).toHaveLength(3);
		expect(fileRequests(sb).every((r) => r.authorization === undefined)).toBe(true);
	});

	test('an expired link (403): the card is fetched again and the download tried once more', async () => {
		const { result } = await withFirstLinkExpired(sb, downloadFinished);
		expect(result.error).toBeUndefined();
		expect(
			sb.requests.map((r) => `${r.path.startsWith('/files/') ? 'file' : 'card'} ${r.status}`),
		).toEqual(['card 200', 'file 403', 'card 200', 'file 200']);
		const [expired, fresh] = fileRequests(sb);
		expect(expired.fault).toBe('delay');
		expect(fresh.rawQuery).not.toBe(expired.rawQuery);
		expect(fileRequests(sb).every((r) => r.authorization === undefined)).toBe(true);
		expect(
			(await getBinaryBuffer(result.items[0].binary!.data)).subarray(0, 5).toString('latin1'),
		).toBe(PDF);
		// The item hands on the renewed link, not the expired one.
		expect(new URL(String(result.items[0].json.download_url)).search.slice(1)).toBe(fresh.rawQuery);
	});

	test('a link refused twice: a clear error, nothing more is tried', async () => {
		sb.faults.add(
			statusFault(403, 'GET', '/files/', {
				times: 2,
				body: '<Error><Code>AccessDenied</Code></Error>',
			}),
		);
		const { doc, result } = await downloadFinished();
		expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: '403', itemIndex: 0 });
		expect(result.error!.message).toMatch(/download link kept being refused \(403\)/);
		expect(result.error!.message).toContain(doc.id);
		expect(sb.requests.map((r) => (r.path.startsWith('/files/') ? 'file' : 'card'))).toEqual([
			'card',
			'file',
			'card',
			'file',
		]);
	});

	test('a large file streams into the binary store whole', async () => {
		sb.setOptions({ fileSizeBytes: 6_000_000 });
		try {
			const { result } = await downloadFinished();
			expect(result.error).toBeUndefined();
			const bytes = await getBinaryBuffer(result.items[0].binary!.data);
			expect(bytes.length).toBe(6_000_000);
			expect(bytes.subarray(0, 5).toString('latin1')).toBe(PDF);
		} finally {
			sb.setOptions({ fileSizeBytes: 0 });
		}
	});

	test('a file that breaks off on its way is fetched once more with a fresh link', async () => {
		sb.faults.add({ type: 'cut', method: 'GET', path: '/files/', afterBytes: 200 });
		const { result } = await downloadFinished();
		expect(result.error).toBeUndefined();
		expect(
			sb.requests.map((r) => `${r.path.startsWith('/files/') ? 'file' : 'card'} ${r.status}`),
		).toEqual(['card 200', 'file 0', 'card 200', 'file 200']);
		const bytes = await getBinaryBuffer(result.items[0].binary!.data);
		expect(bytes.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
	});

	test('a file that breaks off twice: a clear error, the document kept', async () => {
		sb.faults.add({ type: 'cut', method: 'GET', path: '/files/', afterBytes: 200, times: 2 });
		const { doc, result } = await downloadFinished();
		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			message: `The file broke off while trying to download the file of document ${doc.id}`,
		});
		expect(result.error!.description).toMatch(/again with a fresh link\. The document is kept/);
		expect(fileRequests(sb)).toHaveLength(2);
	});

	test('a document without a file says why, and no file is requested', async () => {
		const draft = sb.createDocument({ status: 'draft' });
		sb.setOptions({ pendingMs: 600_000 });
		const pending = sb.createDocument({ status: 'pending' }); // stays pending during the test
		sb.setOptions({ pendingMs: 20 });
		const failed = sb.createDocument({ status: 'failure', failure_cause: 'Quota exceeded' });
		const ok = sb.createDocument({ status: 'success' });
		const result = await run(
			sb,
			download(),
			[draft, pending, failed, ok].map((d) => ({ id: d.id })),
			CONTINUE,
		);
		expect(result.items).toHaveLength(4);
		expect(pairs(result)).toEqual([0, 1, 2, 3]);
		expect(result.items[0].json.error).toBe(
			`Document ${draft.id} has no file to download: its status is "draft"`,
		);
		expect(result.items[0].json.message).toMatch(
			/Only documents with status "success" have a file/,
		);
		expect(result.items[1].json.error).toMatch(/its status is "pending"/);
		expect(result.items[2].json.error).toMatch(/its status is "failure"/);
		expect(result.items[2].json.message).toMatch(/Generation failed \(Quota exceeded\)/);
		expect(result.items[3].binary?.data?.mimeType).toBe('application/pdf');
		expect(fileRequests(sb)).toHaveLength(1);

		sb.resetRequests();
		const stopped = await run(sb, download(), [{ id: failed.id }]);
		expect(stopped.error).toMatchObject({ name: 'NodeOperationError', itemIndex: 0 });
		expect(stopped.error!.message).toMatch(/has no file to download: its status is "failure"/);
	});
});

describe('create with download', () => {
	const create = (extra: IDataObject = {}) => ({
		resource: 'document',
		operation: 'create',
		templateId: byId(templateId(sb)),
		payload: '={{ { "n": $json.n } }}',
		download: true,
		additionalFields: { filename: '=doc-{{ $json.n }}.pdf', meta: '={{ { "n": $json.n } }}' },
		...extra,
	});

	test('one item: the file is fetched with the link of the sync answer: two requests in all', async () => {
		const result = await run(sb, create({ binaryPropertyName: 'pdf' }), [{ n: 1 }]);
		expect(result.error).toBeUndefined();
		expect(
			sb.requests.map((r) => (r.path.startsWith('/files/') ? 'file' : `${r.method} ${r.path}`)),
		).toEqual(['POST /api/v1/documents/sync', 'file']);
		expect(fileRequests(sb)[0].authorization).toBeUndefined();
		expect(result.items[0].binary?.pdf).toMatchObject({
			fileName: 'doc-1.pdf',
			mimeType: 'application/pdf',
		});
		expect(
			(await getBinaryBuffer(result.items[0].binary!.pdf)).subarray(0, 5).toString('latin1'),
		).toBe(PDF);
	});

	test('a batch: files in input order, at most 3 requests per document', async () => {
		const n = 26;
		const items = Array.from({ length: n }, (_, i) => ({ n: i }));
		const result = await run(sb, create(), items);
		expect(result.error).toBeUndefined();
		expect(pairs(result)).toEqual(items.map((x) => x.n));
		expect(result.items.map((i) => i.binary?.data?.fileName)).toEqual(
			items.map((x) => `doc-${x.n}.pdf`),
		);
		expect(result.items.map((i) => (i.json.meta as IDataObject).n)).toEqual(items.map((x) => x.n));
		expect(creates(sb)).toHaveLength(n);
		expect(fileRequests(sb)).toHaveLength(n);
		expect(fileRequests(sb).every((r) => r.authorization === undefined && r.status === 200)).toBe(
			true,
		);
		expect(cardRequests(sb)).toHaveLength(0);
		expect(sb.requests.length / n).toBeLessThanOrEqual(3);
	});

	test('an expired link: renewed once, the file arrives', async () => {
		const result = await withFirstLinkExpired(sb, () => run(sb, create(), [{ n: 1 }]));
		expect(result.error).toBeUndefined();
		expect(
			sb.requests.map((r) => (r.path.startsWith('/files/') ? `file ${r.status}` : r.method)),
		).toEqual(['POST', 'file 403', 'GET', 'file 200']);
		expect(result.items[0].binary?.data?.fileName).toBe('doc-1.pdf');
	});

	test('a failed generation gives no file and no file request (continueOnFail: error item)', async () => {
		const result = await run(
			sb,
			create({ templateId: byId(templateId(sb, 'always-fails')) }),
			[{ n: 1 }, { n: 2 }],
			CONTINUE,
		);
		expect(result.items.map((i) => i.json.error)).toEqual([
			expect.stringMatching(/failed to generate/),
			expect.stringMatching(/failed to generate/),
		]);
		expect(result.items.every((i) => i.binary === undefined)).toBe(true);
		expect(fileRequests(sb)).toHaveLength(0);
	});
});
