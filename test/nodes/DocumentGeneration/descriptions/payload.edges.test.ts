/**
 * The edges of Create's payload (payload.ts) that mutation testing found unpinned, on the real
 * n8n engine against the sandbox: how a group's lines are put into the payload, which field
 * each Payload Mode reads, and for which item.
 */
import type { INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../../../harness/use-sandbox';
import { creates, invoiceCreate, run, sentPayloads } from '../helpers';

const sb = useSandbox({ pendingMs: 10, generatingMs: 30 });

test('a Line Items Path through a value of the payload that is not an object is refused, naming the line items; nothing is sent', async () => {
	const result = await run(
		sb,
		invoiceCreate(sb, '{"order": "A"}', {
			grouping: 'all',
			linesPath: 'order.lines',
			line: '{"qty": 1}',
			waitForCompletion: false,
		}),
		[{}, {}],
	);
	expect(result.error?.message).toBe(
		'The line items goes under "order", but the payload has a value there, not an object (item 1)',
	);
	expect(creates(sb)).toHaveLength(0);
});

test('Payload Fields: each item’s rows make its own payload, a dotted name nested; Payload (JSON) is not read, and One per Item adds no lines', async () => {
	const fieldsCreate = invoiceCreate(sb, '{"from_json": true}', {
		payloadMode: 'fields',
		payloadFields: { values: [{ key: 'customer.name', value: '={{ $json.name }}' }] },
		waitForCompletion: false,
	});
	await run(sb, fieldsCreate, [{ name: 'Ada' }, { name: 'Grace' }]);
	expect(sentPayloads(sb)).toEqual([
		{ customer: { name: 'Ada' } },
		{ customer: { name: 'Grace' } },
	]);
});

test('Template Fields mapped automatically: each item gives the fields of its own data', async () => {
	const mappedCreate = invoiceCreate(sb, '{"from_json": true}', {
		payloadMode: 'templateFields',
		mappedFields: {
			mappingMode: 'autoMapInputData',
			value: null,
			schema: [{ id: 'number', type: 'string' }],
		} as unknown as INodeParameters,
		waitForCompletion: false,
	});
	await run(sb, mappedCreate, [{ number: 'N-1' }, { number: 'N-2' }]);
	expect(sentPayloads(sb)).toEqual([{ number: 'N-1' }, { number: 'N-2' }]);
});

test('a Payload Mode from an expression naming no mode reads Payload (JSON): left empty, the refusal says to fill in Payload (JSON)', async () => {
	const unknownMode = invoiceCreate(sb, '{}', {
		payloadMode: '={{ "spreadsheet" }}',
		payloadFields: { values: [{ key: 'customer.name', value: 'Ada' }] },
		waitForCompletion: false,
	});
	const result = await run(sb, unknownMode);
	expect(result.error?.message).toBe(
		'The payload is empty, so the document would be blank (item 1)',
	);
	expect(result.error?.description).toMatch(
		/^Put the data the template needs into Payload \(JSON\)/,
	);
	expect(creates(sb)).toHaveLength(0);
});

test('a Payload (JSON) that is a list is refused naming the payload; nothing is sent', async () => {
	const result = await run(
		sb,
		invoiceCreate(sb, '[{"customer": "Ada"}]', { waitForCompletion: false }),
	);
	expect(result.error?.message).toMatch(/^The payload must be one JSON object, but it is /);
	expect(creates(sb)).toHaveLength(0);
});

test('Payload Fields: a value of 0 or false from an expression is sent as it is, not as empty text', async () => {
	const fieldsCreate = invoiceCreate(sb, '{}', {
		payloadMode: 'fields',
		payloadFields: {
			values: [
				{ key: 'total', value: '={{ $json.total }}' },
				{ key: 'paid', value: '={{ $json.paid }}' },
			],
		},
		waitForCompletion: false,
	});
	await run(sb, fieldsCreate, [{ total: 0, paid: false }]);
	expect(sentPayloads(sb)).toEqual([{ total: 0, paid: false }]);
});

test('Files Into Payload: each item’s rows are its own (a path from an expression puts each item’s file where its own data says)', async () => {
	const logo = { base64: Buffer.from('-a-tiny-logo-').toString('base64'), mimeType: 'image/png' };
	const filesCreate = invoiceCreate(sb, '{"order": "A"}', {
		payloadFiles: { files: [{ binaryPropertyName: 'logo', path: '={{ $json.slot }}' }] },
		waitForCompletion: false,
	});
	await run(sb, filesCreate, [
		{ slot: 'front', $files: { logo } },
		{ slot: 'back', $files: { logo } },
	]);
	const uri = `data:image/png;base64,${logo.base64}`;
	expect(sentPayloads(sb)).toEqual([
		{ order: 'A', front: uri },
		{ order: 'A', back: uri },
	]);
});

test('Template Fields defined below from expressions: each item’s mapping gives its own payload', async () => {
	const mappedCreate = invoiceCreate(sb, '{"from_json": true}', {
		payloadMode: 'templateFields',
		mappedFields: {
			mappingMode: 'defineBelow',
			value: { number: '={{ $json.ref }}' },
			schema: [{ id: 'number', type: 'string' }],
		} as unknown as INodeParameters,
		waitForCompletion: false,
	});
	await run(sb, mappedCreate, [{ ref: 'N-1' }, { ref: 'N-2' }]);
	expect(sentPayloads(sb)).toEqual([{ number: 'N-1' }, { number: 'N-2' }]);
});

test('a Payload Mode from an expression is read for each item: each payload comes from the field its own mode names', async () => {
	const mixedCreate = invoiceCreate(sb, '={{ { "via": "json", "name": $json.name } }}', {
		payloadMode: '={{ $json.mode }}',
		payloadFields: { values: [{ key: 'customer', value: '={{ $json.name }}' }] },
		waitForCompletion: false,
	});
	await run(sb, mixedCreate, [
		{ mode: 'json', name: 'Ada' },
		{ mode: 'fields', name: 'Grace' },
	]);
	expect(sentPayloads(sb)).toEqual([{ via: 'json', name: 'Ada' }, { customer: 'Grace' }]);
});
