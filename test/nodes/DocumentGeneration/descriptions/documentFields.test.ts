/**
 * A document's fields beyond its payload (descriptions/documentFields.ts): File Name, PDF
 * Password, Image Options and Update Fields as the editor shows them, their pure readers, and
 * what create and update send with them on the real n8n engine against the sandbox.
 */
import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';
import { displayedProperty, loadPackage } from '../../../harness';
import {
	createEditor,
	expectWorded,
	optionValues as values,
} from '../../../harness/propertyWording';
import {
	byId,
	creates,
	metaField,
	onDocument,
	run,
	statusField,
	templateId,
	writes,
} from '../helpers';
import {
	checkImageMeta,
	readFilename,
	readImageMeta,
} from '../../../../nodes/DocumentGeneration/descriptions/documentFields';
import { useSandbox } from '../../../harness/use-sandbox';

describe('Update Fields in the editor', () => {
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
		expect(meta).toEqual(
			metaField(
				'Replaces the meta data of the document as a whole: one JSON object, e.g. {"order_id": "A-1001"} ({} clears it)',
			),
		);
		expect(payload).toEqual({
			displayName: 'Payload (JSON)',
			name: 'payload',
			type: 'json',
			default: '{}',
			description: 'Replaces the data of the document: one JSON object (never a list)',
		});
		expect(status).toEqual(
			statusField({
				field: 'Set to Pending to (re)generate the file',
				pending: 'Generate the file (again) now',
				draft: 'Keep it as a draft',
			}),
		);
		expect(template).toMatchObject({
			displayName: 'Template',
			name: 'templateId',
			type: 'resourceLocator',
			required: false,
			description: 'Use another template for this document',
		});
		expect(template.modes!.map((m) => m.name)).toEqual(['list', 'id']);
	});
});

describe('Image Options in the editor', () => {
	const { load, one } = createEditor();

	/** Image Options: format (webp by default), width and height up to 10000, quality 1 to 100. */
	function expectImageOptions(): void {
		const options = one('imageOptions');
		expect([options.type, options.default]).toEqual(['collection', {}]);
		const fields = Object.fromEntries(
			((options.options ?? []) as INodeProperties[]).map((o) => [o.name, o]),
		);
		expect(Object.keys(fields)).toEqual(['format', 'width', 'height', 'quality']);
		expect([fields.format.type, fields.format.default, values(fields.format)]).toEqual([
			'options',
			'webp',
			['webp', 'png', 'jpg'],
		]);
		expect(
			['width', 'height', 'quality'].map((n) => [
				fields[n].type,
				fields[n].default,
				fields[n].typeOptions,
			]),
		).toEqual([
			['number', 1200, { minValue: 1, maxValue: 10_000 }],
			['number', 630, { minValue: 1, maxValue: 10_000 }],
			['number', 100, { minValue: 1, maxValue: 100 }],
		]);
		expectWorded(options);
	}

	test('Image Options as the editor shows them: names, values, defaults, bounds, a label and help text on each', async () => {
		await load();
		expectImageOptions();
	});
});

describe('File Name and PDF Password', () => {
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

	const sentMeta = () =>
		creates(sb).map((r) => (r.body as { document: IDataObject }).document.meta);

	test('a File Name from an expression giving null is left out; the other meta keys stay', async () => {
		const result = await createWith(
			{ filename: '={{ $json.name }}', meta: '{"order_id": "F-1"}' },
			[{ name: null }],
		);
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
	])(
		'a File Name from an expression giving %s is refused; nothing is sent',
		async (_label, name) => {
			const result = await createWith({ filename: '={{ $json.name }}' }, [{ name }]);
			expect(result.error).toMatchObject({ name: 'NodeOperationError', itemIndex: 0 });
			expect(result.error!.message).toBe('The file name must be text (item 1)');
			expect(result.error!.description).toBe('Enter a file name such as invoice-2026-001.pdf');
			expect(sb.requests).toHaveLength(0);
		},
	);

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
});

describe('Image Options', () => {
	const sb = useSandbox({ pendingMs: 10, generatingMs: 30 });

	function badge(imageOptions: INodeParameters, extra: INodeParameters = {}): INodeParameters {
		return {
			resource: 'document',
			operation: 'create',
			templateId: byId(templateId(sb, 'badge')),
			payload: '{"name": "Ada"}',
			waitForCompletion: false,
			imageOptions,
			...extra,
		};
	}

	const storedMeta = (id: unknown) =>
		JSON.parse(sb.documents.get(String(id))!.meta ?? 'null') as IDataObject | null;

	test('format, width, height and quality go out as _type, _width, _height and _quality (numbers)', async () => {
		const result = await run(
			sb,
			badge({ format: 'webp', width: 1200, height: '630', quality: 80 }),
		);
		expect(result.error).toBeUndefined();
		const sent = creates(sb)[0].body as { document: IDataObject };
		expect(sent.document.meta).toEqual({ _type: 'webp', _width: 1200, _height: 630, _quality: 80 });
	});

	test('an option wins over the same key in Meta (JSON); other meta keys stay', async () => {
		const result = await run(
			sb,
			badge(
				{ format: 'png', width: 400 },
				{ additionalFields: { meta: '{"_type": "jpg", "_width": 10, "ref": "B-1"}' } },
			),
		);
		expect(result.error).toBeUndefined();
		expect(storedMeta(result.items[0].json.id)).toEqual({ _type: 'png', _width: 400, ref: 'B-1' });
	});

	test.each([
		[{ width: 0 }, /Width \(Pixels\) must be a whole number from 1 to 10000, not 0/],
		[{ height: 12.5 }, /Height \(Pixels\) must be a whole number from 1 to 10000, not 12\.5/],
		[{ width: 10_001 }, /Width \(Pixels\) must be a whole number/],
		[{ quality: 101 }, /Quality must be a whole number from 1 to 100, not 101/],
		[{ quality: 0 }, /Quality must be a whole number from 1 to 100/],
		[{ format: 'gif' }, /Format must be webp, png or jpg, not "?gif"?/],
		[{ format: 'png', quality: 80 }, /Quality applies to WebP only, but the format is PNG/],
		[{ width: '0x4B0' }, /Width \(Pixels\) must be a whole number from 1 to 10000, not "?0x4B0"?/],
		[{ height: '1e3' }, /Height \(Pixels\) must be a whole number/],
	])('%j is refused, naming the option and the item; nothing is sent', async (options, message) => {
		// Item 1 is valid, item 2 gives the bad value: the refusal names item 2 and nothing is sent.
		const valid: IDataObject = { format: 'webp', width: 100, height: 100, quality: 50 };
		const perItem = Object.fromEntries(
			Object.keys(options).map((key) => [key, `={{ $json.o.${key} }}`]),
		);
		const bad = await run(sb, badge(perItem), [{ o: valid }, { o: options }]);
		expect(bad.error?.message).toMatch(message);
		expect(bad.error?.message).toMatch(/\(item 2\)/);
		expect(bad.error?.description).toMatch(/Image Options/);
		expect(creates(sb)).toHaveLength(0);
	});

	test('Quality with a _type in Meta (JSON) other than webp is refused too; nothing is sent', async () => {
		const result = await run(
			sb,
			badge({ quality: 70 }, { additionalFields: { meta: '{"_type": "jpg"}' } }),
		);
		expect(result.error?.message).toMatch(
			/Quality applies to WebP only, but the format is JPG \(item 1\)/,
		);
		expect(result.error?.description).toMatch(/_type in Meta/);
		expect(creates(sb)).toHaveLength(0);
	});

	test('Update: Image Options alone are merged into the current meta; with Meta they are merged into it', async () => {
		const made = await run(
			sb,
			badge({}, { additionalFields: { meta: '{"ref": "B-2"}' }, status: 'draft' }),
		);
		const id = String(made.items[0].json.id);
		const alone = await run(
			sb,
			onDocument('update', id, { imageOptions: { width: 800 }, waitForCompletion: false }),
		);
		expect(alone.error).toBeUndefined();
		expect(storedMeta(id)).toEqual({ ref: 'B-2', _width: 800 });
		const withMeta = await run(
			sb,
			onDocument('update', id, {
				updateFields: { meta: '{"ref": "B-3", "_type": "png"}' },
				imageOptions: { format: 'jpg' },
				waitForCompletion: false,
			}),
		);
		expect(withMeta.error).toBeUndefined();
		expect(storedMeta(id)).toEqual({ ref: 'B-3', _type: 'jpg' });
		expect(writes(sb).filter((r) => r.method === 'PUT')).toHaveLength(2);
	});
});

describe('Image Options at their bounds', () => {
	const sb = useSandbox({ pendingMs: 10, generatingMs: 30 });

	test.each([['PNG'], [' Png '], ['JPG']])(
		'a Format of %j from an expression is the service’s lower-case type',
		async (format) => {
			const result = await run(sb, {
				resource: 'document',
				operation: 'create',
				templateId: byId(templateId(sb, 'badge')),
				payload: '{"name": "Ada"}',
				waitForCompletion: false,
				imageOptions: { format: `={{ ${JSON.stringify(format)} }}` },
			});
			expect(result.error).toBeUndefined();
			const sent = creates(sb)[0].body as { document: IDataObject };
			expect(sent.document.meta).toEqual({ _type: format.trim().toLowerCase() });
		},
	);

	describe('readImageMeta', () => {
		test('no options (or not an object) give no meta keys', () => {
			expect(readImageMeta(undefined)).toEqual({});
			expect(readImageMeta('webp')).toEqual({});
			expect(readImageMeta({})).toEqual({});
		});

		test('each option alone gives only its own key', () => {
			expect(readImageMeta({ format: 'jpg' })).toEqual({ _type: 'jpg' });
			expect(readImageMeta({ width: 5 })).toEqual({ _width: 5 });
			expect(readImageMeta({ height: 6 })).toEqual({ _height: 6 });
			expect(readImageMeta({ quality: 7 })).toEqual({ _quality: 7 });
		});

		test('the bounds are inclusive: 1 and 10000 pixels, quality 1 and 100', () => {
			expect(readImageMeta({ width: 1, height: 10_000, quality: 1 })).toEqual({
				_width: 1,
				_height: 10_000,
				_quality: 1,
			});
			expect(readImageMeta({ width: 10_000, height: 1, quality: 100 })).toEqual({
				_width: 10_000,
				_height: 1,
				_quality: 100,
			});
		});

		test('digits as text, spaces around them, are numbers; six digits at most', () => {
			expect(readImageMeta({ width: ' 640 ', quality: '80' })).toEqual({
				_width: 640,
				_quality: 80,
			});
			expect(readImageMeta({ height: '001200' })).toEqual({ _height: 1200 });
			expect(() => readImageMeta({ height: '0001200' })).toThrow(
				/Height \(Pixels\) must be a whole number from 1 to 10000, not "?0001200"?/,
			);
		});

		test.each([
			[{ width: 10_001 }, /Width \(Pixels\) must be a whole number from 1 to 10000, not 10001/],
			[{ height: 0 }, /Height \(Pixels\) must be a whole number from 1 to 10000, not 0/],
			[{ height: 10_001 }, /Height \(Pixels\) must be a whole number from 1 to 10000/],
			[{ quality: 100.5 }, /Quality must be a whole number from 1 to 100, not 100\.5/],
			[{ width: '12 px' }, /Width \(Pixels\) must be a whole number/],
			[{ width: 'x640' }, /Width \(Pixels\) must be a whole number/],
			[{ width: '640x' }, /Width \(Pixels\) must be a whole number/],
			[{ width: null }, /Width \(Pixels\) must be a whole number/],
			[{ width: true }, /Width \(Pixels\) must be a whole number/],
			[{ format: 7 }, /Format must be webp, png or jpg, not 7/],
			[{ format: '' }, /Format must be webp, png or jpg/],
		])('%j is refused', (options, message) => {
			expect(() => readImageMeta(options)).toThrow(message);
		});

		test('the hint suggests a number fit for the option', () => {
			const hint = (options: IDataObject) => {
				try {
					readImageMeta(options);
				} catch (error) {
					return (error as { hint?: string }).hint;
				}
				throw new Error('not refused');
			};
			expect(hint({ quality: 0 })).toMatch(/Quality to a number such as 80/);
			expect(hint({ width: 0 })).toMatch(/Width \(Pixels\) to a number such as 1200/);
			expect(hint({ format: 'gif' })).toMatch(/Pick WebP, PNG or JPG/);
		});
	});

	describe('checkImageMeta', () => {
		test.each([
			[undefined],
			[{}],
			[{ _quality: 80 }],
			[{ _type: 'png' }],
			[{ _type: 'webp', _quality: 80 }],
		])('%j passes', (meta) => {
			expect(() => checkImageMeta(meta)).not.toThrow();
		});

		test.each([
			[{ _type: 'png', _quality: 80 }, /but the format is PNG/],
			[{ _type: 'jpg', _quality: 1 }, /but the format is JPG/],
		])('%j is refused: Quality is for WebP only', (meta, message) => {
			expect(() => checkImageMeta(meta)).toThrow(message);
		});
	});
});
