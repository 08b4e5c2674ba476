/**
 * Create's parameters as the editor shows them: Status, Wait for Completion, Download File and
 * Additional Fields, their words, defaults and when each shows.
 */
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { displayedNames, loadPackage, propertyNamed } from '../../../../../harness';
import { metaField, statusField } from '../../../helpers';

const ON_CREATE = { resource: ['document'], operation: ['create'] };

/** Create's top-level property named `name`, as the node describes it (one only). */
const createProperty = (action: INodeTypeDescription, name: string) =>
	propertyNamed(action, name, { resource: 'document', operation: 'create' });

/** The names of create's own fields the editor shows for these values (else the defaults), in order. */

function ownShown(action: INodeTypeDescription, values: Record<string, unknown>): string[] {
	const own = ['status', 'waitForCompletion', 'download', 'binaryPropertyName', 'maxFileSize'];
	const defaults = { status: 'pending', waitForCompletion: true, download: true };
	const parameters = { resource: 'document', operation: 'create', ...defaults, ...values };
	return displayedNames(action, parameters).filter((name) => own.includes(name));
}

/** Additional Fields: File Name, PDF Password (hidden as typed) and Meta (JSON). */
function expectAdditionalFields(action: INodeTypeDescription): void {
	const additional = createProperty(action, 'additionalFields');
	expect({ ...additional, options: undefined }).toEqual({
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: undefined,
		displayOptions: { show: ON_CREATE },
	});
	const [channel, filename, password, meta] = additional.options as INodeProperties[];
	expect(additional.options).toHaveLength(4);
	expect(channel).toEqual({
		displayName: 'Channel',
		name: 'channel',
		type: 'string',
		default: '',
		placeholder: 'e.g. invoices',
		description:
			'The webhook channel of the document (stored as meta._webhook_channel): an instant trigger with this Channel receives it',
	});
	expect(filename.name).toBe('filename');
	expect(password).toEqual({
		displayName: 'PDF Password',
		name: 'password',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description:
			'Encrypts the PDF with this password (stored as meta._password; left out of every output of this package)',
	});
	expect(meta).toEqual(
		metaField(
			'Data kept with the document for later steps, as one JSON object, e.g. {"order_id": "A-1001"}. Returned as a parsed object in the meta field by this node and the trigger.',
		),
	);
}

// One test: mutation testing credits the fields only to the test during which the package loaded.
test('Status, Wait for Completion, Download File and Additional Fields: words, defaults, and when each shows', async () => {
	const action = (await loadPackage()).nodeDescription('documentGeneration');
	expect(createProperty(action, 'status')).toEqual({
		...statusField({
			field: 'Whether to generate the file now or keep the document as a draft',
			pending: 'Store the document and generate the file at once',
			draft: 'Store the document without generating it',
		}),
		displayOptions: { show: ON_CREATE },
	});
	expect(createProperty(action, 'waitForCompletion')).toEqual({
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: true,
		description:
			'Whether to wait until the file is generated (success or failure) before going on. Many items are waited for together.',
		displayOptions: { show: { status: ['pending'], ...ON_CREATE } },
	});
	expect(createProperty(action, 'download')).toEqual({
		displayName: 'Download File',
		name: 'download',
		type: 'boolean',
		default: true,
		description: 'Whether to put the generated file (PDF or image) into the output as binary data',
		displayOptions: { show: { status: ['pending'], waitForCompletion: [true], ...ON_CREATE } },
	});
	const downloading = { status: ['pending'], waitForCompletion: [true], download: [true] };
	for (const name of ['binaryPropertyName', 'maxFileSize']) {
		expect(createProperty(action, name).displayOptions).toEqual({
			show: { ...downloading, ...ON_CREATE },
		});
	}

	const all = ['status', 'waitForCompletion', 'download', 'binaryPropertyName', 'maxFileSize'];
	expect(ownShown(action, {})).toEqual(all);
	expect(ownShown(action, { status: 'draft' })).toEqual(['status']);
	expect(ownShown(action, { waitForCompletion: false })).toEqual(['status', 'waitForCompletion']);
	expect(ownShown(action, { download: false })).toEqual([
		'status',
		'waitForCompletion',
		'download',
	]);
	expectAdditionalFields(action);
});
