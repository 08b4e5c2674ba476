/**
 * What Update sends, on the real n8n engine against the sandbox: only the fields given, meta and
 * File Name, Image Options, Files Into Payload, a regeneration waited for and its file, each
 * item's own values from expressions.
 */
import type { IDataObject } from 'n8n-workflow';
import { useSandbox } from '../../../../../harness/use-sandbox';
import {
	apiRequests,
	byId,
	cardRequests,
	run,
	templateId,
	onDocument,
	fileRequests,
	writes,
} from '../../../helpers';

const sb = useSandbox({ pendingMs: 10, generatingMs: 40 });

describe('update', () => {
	test('sends only the fields given', async () => {
		const doc = sb.createDocument({
			payload: { v: 1 },
			meta: { order_id: 'U-1' },
			status: 'success',
		});
		const result = await run(
			sb,
			onDocument('update', doc.id, {
				updateFields: { payload: '{"v": 2}' },
			}),
		);
		expect(result.error).toBeUndefined();
		expect(apiRequests(sb).map((r) => [r.method, r.path, r.body])).toEqual([
			['PUT', `/api/v1/documents/${doc.id}`, { document: { payload: { v: 2 } } }],
		]);
		expect(result.items[0].json).toMatchObject({
			id: doc.id,
			payload: { v: 2 },
			meta: { order_id: 'U-1' },
			status: 'success',
		});
	});

	test('meta and file name together replace the meta; a template picked by ID; status draft', async () => {
		const doc = sb.createDocument({ meta: { order_id: 'U-2', old: true }, status: 'success' });
		const receipt = templateId(sb, 'receipt');
		await run(sb, {
			resource: 'document',
			operation: 'update',
			documentId: doc.id,
			updateFields: {
				meta: '{"order_id": "U-2b"}',
				filename: 'receipt-U-2.pdf',
				templateId: byId(receipt),
				status: 'draft',
			},
		});
		expect(apiRequests(sb).map((r) => r.body)).toEqual([
			{
				document: {
					document_template_id: receipt,
					meta: { order_id: 'U-2b', _filename: 'receipt-U-2.pdf' },
					status: 'draft',
				},
			},
		]);
		expect(JSON.parse(sb.documents.get(doc.id)!.meta!)).toEqual({
			order_id: 'U-2b',
			_filename: 'receipt-U-2.pdf',
		});
	});

	test('an explicit {} clears the meta; a blank meta (an empty expression) is not sent', async () => {
		const doc = sb.createDocument({ meta: { order_id: 'U-5' }, status: 'success' });
		await run(
			sb,
			onDocument('update', doc.id, {
				updateFields: { meta: '={{ "" }}', payload: '{"v": 5}' },
			}),
		);
		expect(apiRequests(sb).map((r) => r.body)).toEqual([{ document: { payload: { v: 5 } } }]);
		expect(JSON.parse(sb.documents.get(doc.id)!.meta!)).toEqual({ order_id: 'U-5' });

		sb.resetRequests();
		await run(
			sb,
			onDocument('update', doc.id, {
				updateFields: { meta: '{}' },
			}),
		);
		expect(apiRequests(sb).map((r) => r.body)).toEqual([{ document: { meta: {} } }]);
		expect(JSON.parse(sb.documents.get(doc.id)!.meta ?? '{}')).toEqual({});
	});

	test('a file name alone is added to the current meta (the other keys are kept)', async () => {
		const doc = sb.createDocument({ meta: { order_id: 'U-3' }, status: 'success' });
		await run(
			sb,
			onDocument('update', doc.id, {
				updateFields: { filename: 'u3.pdf' },
			}),
		);
		expect(apiRequests(sb).map((r) => `${r.method} ${r.path}`)).toEqual([
			`GET /api/v1/document_cards/${doc.id}`,
			`PUT /api/v1/documents/${doc.id}`,
		]);
		expect(apiRequests(sb)[1].body).toEqual({
			document: { meta: { order_id: 'U-3', _filename: 'u3.pdf' } },
		});
	});

	test('a file name alone keeps the PDF password in the meta sent back, and outputs none', async () => {
		const meta = { order_id: 'U-5', _password: 'pdf-secret' };
		const doc = sb.createDocument({ meta, status: 'success' });
		const result = await run(
			sb,
			onDocument('update', doc.id, { updateFields: { filename: 'u5.pdf' } }),
		);
		expect(apiRequests(sb)[1].body).toEqual({
			document: { meta: { ...meta, _filename: 'u5.pdf' } },
		});
		expect(JSON.stringify(result.items)).not.toContain('pdf-secret');
	});

	test('status pending regenerates and waits for the new generation', async () => {
		const doc = sb.createDocument({ meta: { order_id: 'U-4' }, status: 'success' });
		const before = sb.documents.get(doc.id)!.updated_at;
		const result = await run(
			sb,
			onDocument('update', doc.id, {
				updateFields: { status: 'pending', filename: 'again.pdf', meta: '{"order_id": "U-4"}' },
			}),
		);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({
			id: doc.id,
			status: 'success',
			filename: 'again.pdf',
			meta: { order_id: 'U-4', _filename: 'again.pdf' },
		});
		expect(Date.parse(String(result.items[0].json.updated_at))).toBeGreaterThan(before);
		expect(cardRequests(sb, doc.id).length).toBeGreaterThanOrEqual(1);
	});
});

const LOGO = Buffer.from('\x89PNG\r\n\x1a\n-update-logo-', 'binary');

const LOGO_URI = `data:image/png;base64,${LOGO.toString('base64')}`;

const withLogo = (json: IDataObject = {}) => ({
	...json,
	$files: { logo: { base64: LOGO.toString('base64'), mimeType: 'image/png', fileName: 'l.png' } },
});

const LOGO_INTO_PAYLOAD = { files: [{ binaryPropertyName: 'logo', path: 'brand.logo' }] };

/** The API requests as "METHOD path" with the document's id written as ":id". */
const calls = (id: string) =>
	apiRequests(sb).map((r) => `${r.method} ${r.path.replace(id, ':id')}`);
/** A draft whose stored payload is this text (written into the sandbox's record as is). */

function storedAs(payload: string | null) {
	const doc = sb.createDocument({ status: 'draft' });
	sb.documents.get(doc.id)!.payload = payload as string;
	return doc;
}

const putBody = () =>
	(apiRequests(sb).find((r) => r.method === 'PUT')?.body as { document: IDataObject }).document;

test('status Draft with Wait for Completion on: the update only, nothing waited for or downloaded', async () => {
	const doc = sb.createDocument({ payload: { v: 1 }, status: 'success' });
	const result = await run(
		sb,
		onDocument('update', doc.id, {
			updateFields: { status: 'draft' },
			waitForCompletion: true,
			download: true,
			options: { waitTimeout: 5 },
		}),
	);
	expect(result.error).toBeUndefined();
	expect(calls(doc.id)).toEqual(['PUT /api/v1/documents/:id']);
	expect(result.items[0].json).toMatchObject({ id: doc.id, status: 'draft' });
	expect(result.items[0].binary).toBeUndefined();
});

test('no Status given (a File Name alone) with Wait for Completion and Download File on: the update only, nothing waited for or downloaded', async () => {
	const doc = sb.createDocument({ payload: { v: 1 }, status: 'success' });
	const result = await run(
		sb,
		onDocument('update', doc.id, {
			updateFields: { filename: 'renamed.pdf' },
			waitForCompletion: true,
			download: true,
			options: { waitTimeout: 5 },
		}),
	);
	expect(result.error).toBeUndefined();
	expect(calls(doc.id)).toEqual(['GET /api/v1/document_cards/:id', 'PUT /api/v1/documents/:id']);
	expect(result.items[0].json).toMatchObject({ id: doc.id, status: 'success' });
	expect(result.items[0].binary).toBeUndefined();
	expect(fileRequests(sb)).toHaveLength(0);
});

test('status Pending with Download File: waits for the new file and puts it in the field named', async () => {
	const doc = sb.createDocument({ payload: { v: 1 }, status: 'success' });
	const result = await run(
		sb,
		onDocument('update', doc.id, {
			updateFields: { status: 'pending' },
			download: true,
			binaryPropertyName: 'pdf',
		}),
	);
	expect(result.error).toBeUndefined();
	expect(result.items[0].json).toMatchObject({ id: doc.id, status: 'success' });
	expect(Object.keys(result.items[0].binary ?? {})).toEqual(['pdf']);
	expect(result.items[0].binary!.pdf.mimeType).toBe('application/pdf');
	expect(fileRequests(sb)).toHaveLength(1);
});

test('an item with nothing to update stops the node naming that item; the item before it is not written', async () => {
	const docs = [1, 2].map((v) => sb.createDocument({ payload: { v }, status: 'success' }));
	const result = await run(
		sb,
		onDocument('update', '={{ $json.id }}', {
			updateFields: { payload: '={{ $json.payload }}' },
			waitForCompletion: false,
		}),
		[
			{ id: docs[0].id, payload: '{"v": 10}' },
			{ id: docs[1].id, payload: '' },
		],
	);
	expect(result.error).toMatchObject({ itemIndex: 1 });
	expect(result.error!.message).toBe('There is nothing to update (item 2)');
	expect(result.error!.description).toMatch(/^Add at least one field under Update Fields/);
	expect(writes(sb)).toHaveLength(0);
	expect(sb.requests).toHaveLength(0);
});

test.each([
	['meta', { meta: '{"order_id": ', payload: '{"v": 2}' }],
	['payload', { meta: '{"order_id": "U-1"}', payload: '{"v": 2,' }],
])(
	'Meta and Payload given, the %s not valid JSON: refused naming that field; nothing is written',
	async (field, updateFields) => {
		const doc = sb.createDocument({ payload: { v: 1 }, status: 'success' });
		const result = await run(
			sb,
			onDocument('update', doc.id, { updateFields, waitForCompletion: false }),
		);
		expect(result.error).toMatchObject({ itemIndex: 0 });
		expect(result.error!.message).toMatch(
			new RegExp(`^The ${field} is not valid JSON \\(.+\\) \\(item 1\\)$`),
		);
		expect(result.error!.description).toBe(
			`Give the ${field} as one JSON object, e.g. {"customer": "Ada", "total": 42}`,
		);
		expect(sb.requests).toHaveLength(0);
	},
);

test('Image Options alone are added to the current meta, read when sent', async () => {
	const doc = sb.createDocument({ meta: { order_id: 'I-1' }, status: 'success' });
	const result = await run(
		sb,
		onDocument('update', doc.id, {
			imageOptions: { format: 'webp', quality: 70 },
			waitForCompletion: false,
		}),
	);
	expect(result.error).toBeUndefined();
	expect(calls(doc.id)).toEqual(['GET /api/v1/document_cards/:id', 'PUT /api/v1/documents/:id']);
	expect(putBody()).toEqual({ meta: { order_id: 'I-1', _type: 'webp', _quality: 70 } });
	expect(result.items[0].json.meta).toEqual({ order_id: 'I-1', _type: 'webp', _quality: 70 });
});

test('a Quality alone on a document whose meta says PNG is refused naming the item; nothing is written', async () => {
	const doc = sb.createDocument({ meta: { _type: 'png' }, status: 'success' });
	const result = await run(
		sb,
		onDocument('update', doc.id, { imageOptions: { quality: 70 }, waitForCompletion: false }),
	);
	expect(result.error).toMatchObject({ itemIndex: 0 });
	expect(result.error!.message).toBe(
		'Image Options → Quality applies to WebP only, but the format is PNG (item 1)',
	);
	expect(writes(sb)).toHaveLength(0);
});

test('Meta given with a format other than WebP and a Quality is refused before anything is sent', async () => {
	const doc = sb.createDocument({ status: 'success' });
	const result = await run(
		sb,
		onDocument('update', doc.id, {
			updateFields: { meta: '{"_type": "jpeg"}' },
			imageOptions: { quality: 70 },
		}),
	);
	expect(result.error!.message).toBe(
		'Image Options → Quality applies to WebP only, but the format is JPEG (item 1)',
	);
	expect(sb.requests).toHaveLength(0);
});

test('Meta given takes the Image Options and File Name in: one meta, the current one not read', async () => {
	const doc = sb.createDocument({ meta: { old: true }, status: 'success' });
	await run(
		sb,
		onDocument('update', doc.id, {
			updateFields: { meta: '{"order_id": "M-1"}', filename: ' m-1.png ' },
			imageOptions: { format: 'png', width: 300 },
			waitForCompletion: false,
		}),
	);
	expect(calls(doc.id)).toEqual(['PUT /api/v1/documents/:id']);
	expect(putBody()).toEqual({
		meta: { order_id: 'M-1', _type: 'png', _width: 300, _filename: 'm-1.png' },
	});
});

test('Meta with a _filename and image keys of its own: the File Name and Image Options set on the node win, as on Create', async () => {
	const doc = sb.createDocument({ meta: { old: true }, status: 'success' });
	await run(
		sb,
		onDocument('update', doc.id, {
			updateFields: {
				meta: '{"order_id": "M-2", "_filename": "from-meta.pdf", "_width": 100}',
				filename: 'm-2.png',
			},
			imageOptions: { format: 'png', width: 300 },
			waitForCompletion: false,
		}),
	);
	expect(putBody()).toEqual({
		meta: { order_id: 'M-2', _type: 'png', _width: 300, _filename: 'm-2.png' },
	});
});

test('a file and a File Name alone: one read of the document gives the payload and the meta they go into', async () => {
	const doc = sb.createDocument({
		payload: { customer: 'Ada' },
		meta: { order_id: 'F-1', _password: 'kept' },
		status: 'success',
	});
	const result = await run(
		sb,
		onDocument('update', doc.id, {
			updateFields: { filename: 'f-1.pdf' },
			payloadFiles: LOGO_INTO_PAYLOAD,
			waitForCompletion: false,
		}),
		[withLogo()],
	);
	expect(result.error).toBeUndefined();
	expect(calls(doc.id)).toEqual(['GET /api/v1/documents/:id', 'PUT /api/v1/documents/:id']);
	expect(putBody()).toEqual({
		payload: { customer: 'Ada', brand: { logo: LOGO_URI } },
		meta: { order_id: 'F-1', _password: 'kept', _filename: 'f-1.pdf' },
	});
	expect(JSON.stringify(result.items)).not.toContain('kept');
});

test.each([
	['empty', ''],
	['null', null],
])(
	'a file alone into a document whose stored payload is %s: the payload is the file',
	async (_label, stored) => {
		const doc = storedAs(stored);
		await run(
			sb,
			onDocument('update', doc.id, { payloadFiles: LOGO_INTO_PAYLOAD, waitForCompletion: false }),
			[withLogo()],
		);
		expect(putBody()).toEqual({ payload: { brand: { logo: LOGO_URI } } });
	},
);

test.each([
	['a list', '[1, 2]'],
	['a number', '42'],
	['text that is not JSON', 'not json'],
])(
	'a file alone into a document whose stored payload is %s is refused naming the document; nothing is written',
	async (_label, stored) => {
		const doc = storedAs(stored);
		const result = await run(
			sb,
			onDocument('update', doc.id, { payloadFiles: LOGO_INTO_PAYLOAD, waitForCompletion: false }),
			[withLogo()],
		);
		expect(result.error).toMatchObject({ itemIndex: 0 });
		expect(result.error!.message).toBe(
			`The stored payload of document ${doc.id} is not one JSON object, so the files cannot be added to it (item 1)`,
		);
		expect(result.error!.description).toMatch(/Update Fields → Payload \(JSON\) together with/);
		expect(writes(sb)).toHaveLength(0);
	},
);

test('a file with a Payload given goes into that payload; the stored one is not read', async () => {
	const doc = sb.createDocument({ payload: { old: 1 }, status: 'draft' });
	await run(
		sb,
		onDocument('update', doc.id, {
			updateFields: { payload: '{"customer": "Grace"}' },
			payloadFiles: LOGO_INTO_PAYLOAD,
			waitForCompletion: false,
		}),
		[withLogo()],
	);
	expect(calls(doc.id)).toEqual(['PUT /api/v1/documents/:id']);
	expect(putBody()).toEqual({ payload: { customer: 'Grace', brand: { logo: LOGO_URI } } });
});

test('each item’s own Files Into Payload rows: a path from an expression puts each item’s file where its own data says', async () => {
	const doc = sb.createDocument({ payload: { old: 1 }, status: 'draft' });
	await run(
		sb,
		onDocument('update', doc.id, {
			updateFields: { payload: '{"customer": "Grace"}' },
			payloadFiles: { files: [{ binaryPropertyName: 'logo', path: '={{ $json.slot }}' }] },
			waitForCompletion: false,
		}),
		[withLogo({ slot: 'front' }), withLogo({ slot: 'back' })],
	);
	const payloads = writes(sb).map((r) => (r.body as { document: IDataObject }).document.payload);
	expect(payloads).toEqual([
		{ customer: 'Grace', front: LOGO_URI },
		{ customer: 'Grace', back: LOGO_URI },
	]);
});

test('the input files of one run share its 256 MB: the update whose file passes it is refused naming its item; nothing is written', async () => {
	// Each 5 MB file is a data URI of `data:image/png;base64,` and 4/3 of its bytes.
	const fileBytes = 5 * 1024 * 1024;
	const uriLength = 'data:image/png;base64,'.length + Math.ceil(fileBytes / 3) * 4;
	const fitting = Math.floor((256 * 1024 * 1024) / uriLength);
	expect(fitting).toBe(38);
	const doc = sb.createDocument({ payload: { old: 1 }, status: 'draft' });
	// The same bytes for every item: n8n stores each item's file on its own.
	const base64 = Buffer.alloc(fileBytes, 3).toString('base64');
	const items: IDataObject[] = Array.from({ length: fitting + 1 }, () => ({
		$files: { logo: { base64, mimeType: 'image/png' } },
	}));
	const result = await run(
		sb,
		onDocument('update', doc.id, {
			updateFields: { payload: '{"customer": "Grace"}' },
			payloadFiles: LOGO_INTO_PAYLOAD,
			waitForCompletion: false,
		}),
		items,
	);
	expect(result.error?.message).toMatch(
		/^The input files of this run are more than the 256\.0 MB one run reads into payloads \(item 39\)/,
	);
	expect(writes(sb)).toHaveLength(0);
}, 120_000);

/** Each PUT's document by the id it was sent to, in the order of `docs`. */
const putsTo = (docs: Array<{ id: string }>) =>
	docs.map(
		(doc) =>
			(
				writes(sb).find((r) => r.path === `/api/v1/documents/${doc.id}`)?.body as {
					document: IDataObject;
				}
			)?.document,
	);

test('Update Fields from expressions are read for each item: each document gets its own payload and File Name', async () => {
	const docs = [1, 2].map((v) => sb.createDocument({ payload: { v }, status: 'draft' }));
	const result = await run(
		sb,
		onDocument('update', '={{ $json.id }}', {
			updateFields: { payload: '={{ $json.payload }}', filename: '={{ $json.name }}' },
			waitForCompletion: false,
		}),
		[
			{ id: docs[0].id, payload: '{"v": 10}', name: 'first.pdf' },
			{ id: docs[1].id, payload: '{"v": 20}', name: 'second.pdf' },
		],
	);
	expect(result.error).toBeUndefined();
	expect(putsTo(docs)).toEqual([
		expect.objectContaining({
			payload: { v: 10 },
			meta: expect.objectContaining({ _filename: 'first.pdf' }),
		}),
		expect.objectContaining({
			payload: { v: 20 },
			meta: expect.objectContaining({ _filename: 'second.pdf' }),
		}),
	]);
});

test('Image Options from an expression are read for each item: each document gets its own width', async () => {
	const docs = [1, 2].map(() => sb.createDocument({ meta: {}, status: 'success' }));
	const result = await run(
		sb,
		onDocument('update', '={{ $json.id }}', {
			imageOptions: { format: 'png', width: '={{ $json.width }}' },
			waitForCompletion: false,
		}),
		[
			{ id: docs[0].id, width: 300 },
			{ id: docs[1].id, width: 600 },
		],
	);
	expect(result.error).toBeUndefined();
	expect(putsTo(docs)).toEqual([
		{ meta: { _type: 'png', _width: 300 } },
		{ meta: { _type: 'png', _width: 600 } },
	]);
});

test('Download File from an expression is read for each item: only the item that asks for the regenerated file gets it', async () => {
	const docs = [1, 2].map((v) => sb.createDocument({ payload: { v }, status: 'success' }));
	const result = await run(
		sb,
		onDocument('update', '={{ $json.id }}', {
			updateFields: { status: 'pending' },
			download: '={{ $json.download }}',
		}),
		[
			{ id: docs[0].id, download: false },
			{ id: docs[1].id, download: true },
		],
	);
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => Object.keys(item.binary ?? {}))).toEqual([[], ['data']]);
	expect(fileRequests(sb)).toHaveLength(1);
});

test('Template: a locator left empty sends none; an ID typed as text is sent', async () => {
	const doc = sb.createDocument({ status: 'draft' });
	const receipt = templateId(sb, 'receipt');
	const empty = await run(
		sb,
		onDocument('update', doc.id, {
			updateFields: { templateId: { __rl: true, mode: 'list', value: '' }, payload: '{"a": 1}' },
			waitForCompletion: false,
		}),
	);
	expect(empty.error).toBeUndefined();
	expect(putBody()).toEqual({ payload: { a: 1 } });

	sb.resetRequests();
	await run(
		sb,
		onDocument('update', doc.id, {
			updateFields: { templateId: ` ${receipt} ` },
			waitForCompletion: false,
		}),
	);
	expect(putBody()).toEqual({ document_template_id: receipt });

	sb.resetRequests();
	const bad = await run(
		sb,
		onDocument('update', doc.id, { updateFields: { templateId: byId('not-an-id') } }),
	);
	expect(bad.error!.message).toMatch(/template.*\(item 1\)$/);
	expect(sb.requests).toHaveLength(0);
});
