/**
 * The edges of File Name and PDF Password that mutation testing found unpinned: the File Name
 * field as the editor shows it on Create and Update, a File Name from an expression that is
 * null, a number or an object, and a PDF Password added but left empty (engine, against the
 * sandbox); and the pure reader of the file name.
 *
 * The editor test comes first and loads the package in its body: the node's properties are
 * built when the package loads, and mutation testing credits that code to the test it loads in.
 */
import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';

import { readFilename } from '../../../../nodes/DocumentGeneration/descriptions/fileAndMeta';
import { displayedProperty, loadPackage } from '../../../harness';
import { useSandbox } from '../../../harness/use-sandbox';
import { byId, creates, run, templateId } from '../helpers';

const sb = useSandbox({ pendingMs: 10, generatingMs: 30 });

const FILE_NAME_HELP = 'Name of the generated file (stored as meta._filename)';

/** The File Name field inside the collection `collection` of a document operation. */
async function fileNameField(operation: string, collection: string): Promise<INodeProperties> {
	const action = (await loadPackage()).nodeDescription('documentGeneration');
	const outer = displayedProperty(action, { resource: 'document', operation }, collection);
	const fields = (outer.options ?? []) as INodeProperties[];
	return fields.filter((field) => field.displayName === 'File Name')[0];
}

test('File Name on Create and Update: its name, an example, and where it is stored', async () => {
	const onCreate = await fileNameField('create', 'additionalFields');
	expect(onCreate).toEqual({
		displayName: 'File Name',
		name: 'filename',
		type: 'string',
		default: '',
		placeholder: 'e.g. invoice-2026-001.pdf',
		description: FILE_NAME_HELP,
	});
	const onUpdate = await fileNameField('update', 'updateFields');
	expect([onUpdate.name, onUpdate.placeholder]).toEqual(['filename', onCreate.placeholder]);
	expect(onUpdate.description).toBe(
		`${FILE_NAME_HELP}. With Meta it is merged into the new meta; alone it is added to the current meta.`,
	);
});

/** Create one document with these Additional Fields; nothing waited for. */
async function createWith(additionalFields: INodeParameters, items: IDataObject[] = [{}]) {
	return await run(
		sb,
		{
			resource: 'document',
			operation: 'create',
			templateId: byId(templateId(sb)),
			payload: '{"n": 1}',
			waitForCompletion: false,
			additionalFields,
		},
		items,
	);
}

const sentMeta = () => creates(sb).map((r) => (r.body as { document: IDataObject }).document.meta);

test('a File Name from an expression giving null is left out; the other meta keys stay', async () => {
	const result = await createWith({ filename: '={{ $json.name }}', meta: '{"order_id": "F-1"}' }, [
		{ name: null },
	]);
	expect(result.error).toBeUndefined();
	expect(sentMeta()).toEqual([{ order_id: 'F-1' }]);
});

test('a File Name from an expression giving a number is kept as its text', async () => {
	const result = await createWith({ filename: '={{ $json.order }}' }, [{ order: 1001 }]);
	expect(result.error).toBeUndefined();
	expect(sentMeta()).toEqual([{ _filename: '1001' }]);
});

test.each([
	['an object', { file: 'a.pdf' }],
	['a list', ['a.pdf']],
	['true', true],
])('a File Name from an expression giving %s is refused; nothing is sent', async (_label, name) => {
	const result = await createWith({ filename: '={{ $json.name }}' }, [{ name }]);
	expect(result.error).toMatchObject({ name: 'NodeOperationError', itemIndex: 0 });
	expect(result.error!.message).toBe('The file name must be text (item 1)');
	expect(result.error!.description).toBe('Enter a file name such as invoice-2026-001.pdf');
	expect(sb.requests).toHaveLength(0);
});

test('a PDF Password added but left empty is not sent', async () => {
	const result = await createWith({ password: '', meta: '{"order_id": "F-2"}' });
	expect(result.error).toBeUndefined();
	expect(sentMeta()).toEqual([{ order_id: 'F-2' }]);
});

describe('readFilename', () => {
	test('trimmed; blank or missing is no name', () => {
		expect(readFilename('  a.pdf \n')).toBe('a.pdf');
		expect(readFilename(7)).toBe('7');
		expect(readFilename('  ')).toBeUndefined();
		expect(readFilename('')).toBeUndefined();
		expect(readFilename(undefined)).toBeUndefined();
		expect(readFilename(null)).toBeUndefined();
	});
});
