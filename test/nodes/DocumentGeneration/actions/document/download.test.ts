/**
 * Download: its parameters as the editor shows them; on the sandbox, no file is asked for a
 * document that is not finished, even one that already has a file name.
 */
import type { IDataObject } from 'n8n-workflow';
import {
	displayedNames,
	loadPackage,
	propertyNamed,
	credentialsFor,
	listSearch,
} from '../../../../harness';
import { useSandbox } from '../../../../harness/use-sandbox';
import { CONTINUE, byId, fileRequests, run } from '../../helpers';

const ON_DOWNLOAD = { resource: ['document'], operation: ['download'] };

test('Download: the document to download, the file field and its size bound', async () => {
	const action = (await loadPackage()).nodeDescription('documentGeneration');
	const downloadProperty = (name: string) =>
		propertyNamed(action, name, { resource: 'document', operation: 'download' });
	expect(downloadProperty('documentId')).toMatchObject({
		displayName: 'Document',
		type: 'resourceLocator',
		required: true,
		description:
			'The generated document whose file to download: pick it from the list, or enter its ID (a UUID)',
		displayOptions: { show: ON_DOWNLOAD },
	});
	for (const name of ['binaryPropertyName', 'maxFileSize'])
		expect(downloadProperty(name).displayOptions).toEqual({ show: ON_DOWNLOAD });
	expect(
		displayedNames(action, { resource: 'document', operation: 'download' }).filter(
			(name) => !['resource', 'operation'].includes(name),
		),
	).toEqual(['documentId', 'binaryPropertyName', 'maxFileSize']);
});

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
