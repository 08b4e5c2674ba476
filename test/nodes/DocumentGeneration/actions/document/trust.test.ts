/**
 * What the action node takes from a document as the service really answers it, on the engine
 * against the sandbox: a `filename` shown before `success` (while generating, on a quota
 * failure) names no file and starts no download; a `null` payload reads as `{}`.
 */
import type { IDataObject } from 'n8n-workflow';

import { credentialsFor, listSearch } from '../../../../harness';
import { useSandbox } from '../../../../harness/use-sandbox';
import { CONTINUE, byId, fileRequests, run, templateId } from '../../helpers';

const sb = useSandbox({ pendingMs: 20, generatingMs: 80, earlyFilename: true });

const download = (extra: IDataObject = {}) => ({
	resource: 'document',
	operation: 'download',
	documentId: byId('={{ $json.id }}'),
	...extra,
});

describe('a file name before success', () => {
	test('the sandbox shows it, as the service does (while generating, on a quota failure)', () => {
		sb.setOptions({ generatingMs: 600_000 });
		const generating = sb.createDocument({ status: 'generating' });
		sb.setOptions({ generatingMs: 80 });
		const quota = sb.createDocument({ status: 'failure', failure_cause: 'Quota exceeded' });
		expect(sb.cardJson(generating.id).filename).toMatch(/\.pdf$/);
		expect(sb.cardJson(quota.id).filename).toMatch(/\.pdf$/);
	});

	test('Download: no file requested for a generating or quota-failed document that has a name', async () => {
		sb.setOptions({ generatingMs: 600_000 });
		const generating = sb.createDocument({ status: 'generating' });
		sb.setOptions({ generatingMs: 80 });
		const quota = sb.createDocument({ status: 'failure', failure_cause: 'Quota exceeded' });
		const result = await run(
			sb,
			download(),
			[generating, quota].map((d) => ({ id: d.id })),
			CONTINUE,
		);
		expect(result.items.map((i) => i.json.error)).toEqual([
			`Document ${generating.id} has no file to download: its status is "generating"`,
			`Document ${quota.id} has no file to download: its status is "failure"`,
		]);
		expect(result.items.every((i) => i.binary === undefined)).toBe(true);
		expect(fileRequests(sb)).toHaveLength(0);
	});

	test('Create with wait: the file is fetched once the document succeeds, under its final name', async () => {
		// The sync answer comes while the document generates, already with a file name.
		sb.setOptions({ syncLimitMs: 40 });
		try {
			const result = await run(sb, {
				resource: 'document',
				operation: 'create',
				templateId: byId(templateId(sb)),
				payload: '{"number": "INV-9"}',
				additionalFields: { filename: 'final-name.pdf' },
			});
			expect(result.error).toBeUndefined();
			expect(result.items[0].json.status).toBe('success');
			expect(result.items[0].binary?.data?.fileName).toBe('final-name.pdf');
			expect(fileRequests(sb)).toHaveLength(1);
		} finally {
			sb.setOptions({ syncLimitMs: 30_000 });
		}
	});

	test('the document picker does not name a generating document by its early filename', async () => {
		sb.setOptions({ generatingMs: 600_000 });
		const generating = sb.createDocument({ status: 'generating' });
		sb.setOptions({ generatingMs: 80 });
		expect(sb.cardJson(generating.id).filename).toMatch(/^invoice-.*\.pdf$/);
		const { results } = await listSearch('searchDocuments', {
			credentials: credentialsFor(sb),
			filter: generating.id,
		});
		expect(results.map((r) => r.name)).toEqual([
			expect.stringMatching(new RegExp(`^${generating.id} \\(generating · invoice`)),
		]);
	});
});

describe('a null payload', () => {
	test('Get with the full record: payload reads as {}', async () => {
		const doc = sb.createDocument({ status: 'success' });
		(sb.documents.get(doc.id) as unknown as { payload: string | null }).payload = null;
		expect(sb.documentJson(doc.id).payload).toBeNull();
		const result = await run(sb, {
			resource: 'document',
			operation: 'get',
			documentId: doc.id,
			options: { includePayload: true },
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.payload).toEqual({});
	});
});
