/**
 * Update's parameters as the editor shows them: Wait for Completion, Download File (off by
 * default) and when each shows.
 */
import type { INodeTypeDescription } from 'n8n-workflow';
import { displayedNames, loadPackage, propertyNamed } from '../../../../../harness';

const ON_UPDATE = { resource: ['document'], operation: ['update'] };

/** Update's top-level property named `name`, as the node describes it (one only). */
const updateProperty = (action: INodeTypeDescription, name: string) =>
	propertyNamed(action, name, { resource: 'document', operation: 'update' });

/** The names of update's fields the editor shows for these values (else the defaults), in order. */

function shownOnUpdate(action: INodeTypeDescription, values: Record<string, unknown>): string[] {
	const parameters = {
		resource: 'document',
		operation: 'update',
		waitForCompletion: true,
		...values,
	};
	return displayedNames(action, parameters).filter(
		(name) => !['resource', 'operation'].includes(name),
	);
}

test('Update: Wait for Completion, Download File (off by default) and when each shows', async () => {
	const action = (await loadPackage()).nodeDescription('documentGeneration');
	expect(updateProperty(action, 'waitForCompletion')).toEqual({
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: true,
		description:
			'Whether to wait until the file is generated when the update sets the status to Pending. Many items are waited for together.',
		displayOptions: { show: ON_UPDATE },
	});
	expect(updateProperty(action, 'download')).toEqual({
		displayName: 'Download File',
		name: 'download',
		type: 'boolean',
		default: false,
		description:
			'Whether to put the regenerated file into the output as binary data (when the update sets status Pending)',
		displayOptions: { show: { waitForCompletion: [true], ...ON_UPDATE } },
	});
	for (const name of ['binaryPropertyName', 'maxFileSize']) {
		expect(updateProperty(action, name).displayOptions).toEqual({
			show: { waitForCompletion: [true], download: [true], ...ON_UPDATE },
		});
	}
	for (const name of ['documentId', 'updateFields', 'payloadFiles', 'imageOptions', 'options']) {
		expect(updateProperty(action, name).displayOptions).toEqual({ show: ON_UPDATE });
	}

	const others = ['payloadFiles', 'imageOptions', 'options'];
	const downloading = ['download', 'binaryPropertyName', 'maxFileSize'];
	expect(shownOnUpdate(action, { download: true })).toEqual([
		'documentId',
		'updateFields',
		'waitForCompletion',
		...downloading,
		...others,
	]);
	expect(shownOnUpdate(action, { download: false })).toEqual([
		'documentId',
		'updateFields',
		'waitForCompletion',
		'download',
		...others,
	]);
	expect(shownOnUpdate(action, { waitForCompletion: false })).toEqual([
		'documentId',
		'updateFields',
		'waitForCompletion',
		...others,
	]);
});
