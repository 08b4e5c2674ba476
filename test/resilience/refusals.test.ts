/**
 * A battery of malformed inputs, each through the real engine: refused with a clean
 * NodeOperationError that names the item, no JavaScript error text, and NO request sent.
 */
import { parameterIssue } from '../harness/versions';
import type { INodeParameters } from 'n8n-workflow';

import { CONTINUE, run } from '../nodes/DocumentGeneration/helpers';
import { JS_ERROR_TEXT, expectCleanError, locator, op, useResilienceFixture } from './helpers';

const fx = useResilienceFixture();
const sb = fx.sb;

const UUID = '1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d';
const BAD_IDS: Array<[string, unknown]> = [
	['empty', ''],
	['spaces', '   '],
	['not a UUID', 'invoice-42'],
	['short UUID', '1b2c3d4e-5f60-4a7b-8c9d'],
	['UUID with junk after', `${UUID}-x`],
	['path traversal', `../../current_user`],
	['UUID then path', `${UUID}/../../current_user`],
	['query injection', `${UUID}?q[status]=success`],
	['number', 12345],
	['boolean', true],
	['object', { id: UUID }],
	['array', [UUID]],
	['emoji', '🙂'],
];

/** The input item's `v`: IDs come from data (a literal bad ID is stopped by n8n before the run, see below). */
const V = '={{ $json.v }}';
type Case = [label: string, parameters: () => INodeParameters, message: RegExp, v: unknown];

/** A create with these parameters, refused with this message (no expression in them). */
const refusedCreate = (label: string, extra: INodeParameters, message: RegExp): Case => [
	`create: ${label}`,
	() => op.create(fx.templateId, extra),
	message,
	null,
];
/** An update of the fixture's document with these fields, refused with this message. */
const refusedUpdate = (label: string, fields: INodeParameters, message: RegExp): Case => [
	`update: ${label}`,
	() => op.update(fx.docId, fields),
	message,
	null,
];

const cases: Case[] = [
	...BAD_IDS.map(
		([label, id]): Case => [`get: document ID ${label}`, () => op.get(V), /document ID/, id],
	),
	...BAD_IDS.map(
		([label, id]): Case => [`delete: document ID ${label}`, () => op.delete(V), /document ID/, id],
	),
	...BAD_IDS.map(
		([label, id]): Case => [
			`download: document ID ${label}`,
			() => op.download(V),
			/document ID/,
			id,
		],
	),
	...BAD_IDS.map(
		([label, id]): Case => [
			`update: document ID ${label}`,
			() => op.update(V, { status: 'draft' }),
			/document ID/,
			id,
		],
	),
	...BAD_IDS.map(
		([label, id]): Case => [`create: template ${label}`, () => op.create(V), /template/, id],
	),
	[
		'get: mode "list" with junk',
		() => ({ ...op.get('x'), documentId: locator(V, 'list') }) as INodeParameters,
		/document ID/,
		'nope',
	],
	[
		'get: plain string parameter (not a locator)',
		() => ({ ...op.get('x'), documentId: V }) as INodeParameters,
		/document ID/,
		'nope',
	],
	refusedCreate(
		'payload is an array',
		{ payload: '[{"a":1}]' },
		/payload must be one JSON object, but it is an array/,
	),
	refusedCreate('payload is broken JSON', { payload: '{"a": ' }, /payload is not valid JSON/),
	refusedCreate(
		'payload is a string',
		{ payload: '"hello"' },
		/payload must be one JSON object, but it is a text/,
	),
	refusedCreate(
		'payload is a number',
		{ payload: 42 },
		/payload must be one JSON object, but it is a number/,
	),
	refusedCreate(
		'payload is null text',
		{ payload: 'null' },
		/payload must be one JSON object, but it is null/,
	),
	refusedCreate('payload is plain text', { payload: 'customer=Ada' }, /payload is not valid JSON/),
	refusedCreate(
		'meta is an array',
		{ additionalFields: { meta: '[1]' } },
		/meta must be one JSON object/,
	),
	refusedCreate(
		'meta is broken JSON',
		{ additionalFields: { meta: '{' } },
		/meta is not valid JSON/,
	),
	refusedCreate(
		'status is not allowed',
		{ status: 'generating' },
		/status "generating" is not allowed/,
	),
	refusedCreate(
		'wait timeout 0',
		{ status: 'pending', options: { waitTimeout: 0 } },
		/wait timeout must be a whole number/,
	),
	refusedCreate(
		'wait timeout negative',
		{ status: 'pending', options: { waitTimeout: -5 } },
		/wait timeout/,
	),
	refusedCreate(
		'wait timeout text',
		{ status: 'pending', options: { waitTimeout: 'soon' } },
		/wait timeout/,
	),
	[
		'create: empty binary field with download',
		() =>
			op.create(fx.templateId, {
				status: 'pending',
				download: true,
				binaryPropertyName: '={{ "  " }}',
			}),
		/binary field name is empty/,
		null,
	],
	['update: nothing to update', () => op.update(fx.docId, {}), /nothing to update/, null],
	refusedUpdate('payload is an array', { payload: '[]' }, /payload must be one JSON object/),
	refusedUpdate('meta is a number', { meta: '7' }, /meta must be one JSON object/),
	refusedUpdate('bad status', { status: 'success' }, /status "success" is not allowed/),
	refusedUpdate('bad template', { templateId: locator('nope') }, /template/),
	[
		'download: empty binary field',
		() => op.download(fx.docId, '={{ "  " }}'),
		/binary field name is empty/,
		null,
	],
	[
		'getAll: limit 0',
		() => op.getAll({ limit: 0 }),
		/limit must be a whole number of at least 1/,
		null,
	],
	['getAll: limit negative', () => op.getAll({ limit: -3 }), /limit/, null],
	['getAll: limit fraction', () => op.getAll({ limit: 2.5 }), /limit/, null],
	['getAll: limit text', () => op.getAll({ limit: 'many' }), /limit/, null],
	[
		'getAll: status filter pending',
		() => op.getAll({ filters: { status: 'pending' } }),
		/status filter "pending"/,
		null,
	],
	[
		'getAll: template filter junk',
		() => op.getAll({ filters: { templateIds: ['nope'] } }),
		/template filter contains "nope"/,
		null,
	],
	[
		'getAll: template filter text with junk',
		() => op.getAll({ filters: { templateIds: `${UUID}, nope` } }),
		/template filter contains "nope"/,
		null,
	],
	[
		'getAll: workspace junk',
		() => op.getAll({ filters: { workspaceId: 'acme' } }),
		/workspace ID "acme" is not a valid ID/,
		null,
	],
	[
		'getAll: updated since junk',
		() => op.getAll({ filters: { updatedSince: 'yesterday' } }),
		/Updated Since date "yesterday" is not a date/,
		null,
	],
];

test.each(cases)('%s → refused, nothing sent', async (_label, parameters, message, v) => {
	const r = await run(sb, parameters(), [v === null ? {} : { v: v as string }]);
	const e = expectCleanError(r.error, 0);
	expect(e.name).toBe('NodeOperationError');
	expect(e.message).toMatch(message);
	expect(e.message).toMatch(/\(item 1\)$/);
	expect(e.description).toBeTruthy();
	expect(sb.count()).toBe(0);
});

test('a literal ID that is not a UUID is stopped by n8n itself before the run (parameter issues), nothing sent', async () => {
	await expect(run(sb, op.get('not-a-uuid'))).rejects.toThrow(
		parameterIssue(/has issues[\s\S]*Not a valid document ID/),
	);
	expect(sb.count()).toBe(0);
});

test('create checks every item before sending anything: a bad third item stops all, naming item 3', async () => {
	const r = await run(sb, op.create(fx.templateId, { payload: '={{ $json.payload }}' }), [
		{ payload: { a: 1 } },
		{ payload: { b: 2 } },
		{ payload: [1, 2] },
	]);
	const e = expectCleanError(r.error, 2);
	expect(e.message).toMatch(/payload must be one JSON object, but it is an array \(item 3\)/);
	expect(sb.count()).toBe(0);
});

test('under "continue on fail", refused items become error items and the good ones go through', async () => {
	const items = [{ id: fx.docId }, { id: 'nope' }, { id: '' }];
	const r = await run(sb, op.get('={{ $json.id }}'), items, CONTINUE);
	expect(r.error).toBeUndefined();
	expect(r.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	expect(r.items[0].json.id).toBe(fx.docId);
	expect(String(r.items[1].json.error)).toMatch(
		/The document ID "nope" is not a valid ID \(item 2\)/,
	);
	expect(String(r.items[2].json.error)).toMatch(/The document ID is empty \(item 3\)/);
	for (const item of r.items.slice(1)) expect(String(item.json.error)).not.toMatch(JS_ERROR_TEXT);
	expect(sb.count()).toBe(1);
});
