/**
 * Download's fields as the editor gets them: which document (its help text), the file field
 * and the size bound, shown for Download only. The package is loaded inside the test, not in
 * a `beforeAll`: mutation testing counts a property as reached only by a test that loads it
 * itself.
 */
import { displayedNames, loadPackage, propertyNamed } from '../../../harness';

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
