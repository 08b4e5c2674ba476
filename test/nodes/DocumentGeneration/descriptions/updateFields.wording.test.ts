/**
 * Update Fields as the editor gets them: each field's label, type, default and help text, the
 * Status options, and the Template picker that is not required here. The package is loaded
 * inside the test, not in a `beforeAll`: mutation testing counts a property as reached only
 * by a test that loads it itself.
 */
import type { INodeProperties } from 'n8n-workflow';

import { displayedProperty, loadPackage } from '../../../harness';

test('Update Fields: File Name, Meta, Payload, Status and Template, with their words and defaults', async () => {
	const action = (await loadPackage()).nodeDescription('documentGeneration');
	const onUpdate = { resource: 'document', operation: 'update' };
	const updateFields = displayedProperty(action, onUpdate, 'updateFields');
	expect({ ...updateFields, options: undefined, displayOptions: undefined }).toEqual({
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: 'Only the fields added here are sent; everything else stays as it is',
		options: undefined,
		displayOptions: undefined,
	});
	const fields = updateFields.options as INodeProperties[];
	expect(fields.map((f) => f.name)).toEqual([
		'filename',
		'meta',
		'payload',
		'status',
		'templateId',
	]);
	const [filename, meta, payload, status, template] = fields;
	expect(filename.description).toBe(
		'Name of the generated file (stored as meta._filename). With Meta it is merged into the new meta; alone it is added to the current meta.',
	);
	expect(meta).toEqual({
		displayName: 'Meta (JSON)',
		name: 'meta',
		type: 'json',
		default: '{}',
		description:
			'Replaces the meta data of the document as a whole: one JSON object, e.g. {"order_id": "A-1001"} ({} clears it)',
	});
	expect(payload).toEqual({
		displayName: 'Payload (JSON)',
		name: 'payload',
		type: 'json',
		default: '{}',
		description: 'Replaces the data of the document: one JSON object (never a list)',
	});
	expect(status).toEqual({
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: [
			{
				name: 'Pending (Generate Now)',
				value: 'pending',
				description: 'Generate the file (again) now',
			},
			{ name: 'Draft', value: 'draft', description: 'Keep it as a draft' },
		],
		default: 'pending',
		description: 'Set to Pending to (re)generate the file',
	});
	expect(template).toMatchObject({
		displayName: 'Template',
		name: 'templateId',
		type: 'resourceLocator',
		required: false,
		description: 'Use another template for this document',
	});
	expect(template.modes!.map((m) => m.name)).toEqual(['list', 'id']);
});
