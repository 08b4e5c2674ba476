/**
 * Template Create and Update with Page Settings, Retention and Body From File, on the real n8n
 * engine against the sandbox (which replaces settings_draft whole): what is sent, and what is
 * refused before anything is sent.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../../../../harness/use-sandbox';
import { byId, run, templateId } from '../../helpers';

const sb = useSandbox({ pendingMs: 20, generatingMs: 150 });

const workspace = () => sb.workspaces.find((w) => w.identifier === 'Acme Billing')!.id;
const sentTemplate = (index = 0) =>
	(sb.requests[index].body as { document_template: IDataObject }).document_template;
const create = (extra: INodeParameters): INodeParameters => ({
	resource: 'template',
	operation: 'create',
	workspaceId: byId(workspace()),
	...extra,
});
const fileItem = (bytes: Buffer, name = 'body') => ({
	$files: { [name]: { base64: bytes.toString('base64'), mimeType: 'text/html' } },
});

describe('template settings', () => {
	test('Create with page settings sends paper_format, orientation, margin and a footer with [page] and [topage]', async () => {
		const result = await run(
			sb,
			create({
				templateFields: { identifier: 'letter' },
				pageSettings: {
					paperFormat: 'letter',
					orientation: 'landscape',
					marginTop: 20,
					marginRight: 15,
					marginBottom: 25,
					marginLeft: 10,
					footerCenter: 'Page [page] of [topage]',
				},
			}),
		);
		expect(result.error).toBeUndefined();
		expect(sentTemplate().settings_draft).toEqual({
			paper_format: 'letter',
			orientation: 'landscape',
			margin: { top: 20, right: 15, bottom: 25, left: 10 },
			footer: { center: 'Page [page] of [topage]' },
		});
	});

	test('Update of one margin keeps every other setting and sends no body', async () => {
		const id = templateId(sb, 'receipt');
		const stored = sb.templates.find((t) => t.id === id)!;
		stored.settings_draft = {
			paper_format: 'a5',
			orientation: 'landscape',
			margin: { top: 1, right: 2, bottom: 3, left: 4 },
			header: { right: 'ACME' },
		} as typeof stored.settings_draft;
		const result = await run(sb, {
			resource: 'template',
			operation: 'update',
			templateId: byId(id),
			pageSettings: { marginTop: 9 },
		});
		expect(result.error).toBeUndefined();
		expect(sb.requests.map((r) => r.method)).toEqual(['GET', 'PUT']);
		expect(sentTemplate(1)).toEqual({
			settings_draft: {
				paper_format: 'a5',
				orientation: 'landscape',
				margin: { top: 9, right: 2, bottom: 3, left: 4 },
				header: { right: 'ACME' },
			},
		});
		expect(sentTemplate(1)).not.toHaveProperty('body_draft');
		expect(sb.templates.find((t) => t.id === id)!.settings_draft).toMatchObject({
			paper_format: 'a5',
			margin: { top: 9, right: 2, bottom: 3, left: 4 },
		});
	});

	test('each item its own margins', async () => {
		const result = await run(
			sb,
			create({
				templateFields: { identifier: '={{ $json.name }}' },
				pageSettings: { marginLeft: '={{ $json.left }}' },
			}),
			[
				{ name: 'narrow', left: 5 },
				{ name: 'wide', left: 30 },
			],
		);
		expect(result.error).toBeUndefined();
		const byName = Object.fromEntries(
			sb.requests.map((_, i) => [sentTemplate(i).identifier, sentTemplate(i).settings_draft]),
		);
		expect(byName).toEqual({ narrow: { margin: { left: 5 } }, wide: { margin: { left: 30 } } });
	});

	test('retention arrives as ttl in whole seconds', async () => {
		const result = await run(
			sb,
			create({
				templateFields: {
					identifier: '={{ $json.name }}',
					retention: '={{ $json.n }}',
					retentionUnit: '={{ $json.unit }}',
				},
			}),
			[
				{ name: 'days', n: 2, unit: 'days' },
				{ name: 'hours', n: 1.5, unit: 'hours' },
			],
		);
		expect(result.error).toBeUndefined();
		const ttls = Object.fromEntries(
			sb.requests.map((_, i) => [sentTemplate(i).identifier, sentTemplate(i).ttl]),
		);
		expect(ttls).toEqual({ days: 172_800, hours: 5_400 });
	});

	test('a body from a file of an earlier node arrives as its exact text', async () => {
		const text = '<p>Café — 😀 {{ name }}</p>';
		const result = await run(
			sb,
			create({ templateFields: { identifier: 'from-file', bodyFromFile: 'body' } }),
			[fileItem(Buffer.from(text, 'utf8'))],
		);
		expect(result.error).toBeUndefined();
		expect(sentTemplate().body_draft).toBe(text);
		expect(result.items[0].json.body_draft).toBe(text);
	});
});

describe('refused before anything is sent', () => {
	test('a negative margin, naming the item', async () => {
		const result = await run(
			sb,
			create({
				templateFields: { identifier: '={{ $json.name }}' },
				pageSettings: { marginTop: '={{ $json.top }}' },
			}),
			[
				{ name: 'fine', top: 5 },
				{ name: 'bad', top: -1 },
			],
		);
		expect(result.error!.message).toMatch(
			/Margin Top is "-1", not a number of 0 or more.*\(item 2\)/,
		);
		expect(sb.requests).toHaveLength(0);
	});

	test('a custom paper without both sizes', async () => {
		const result = await run(
			sb,
			create({
				templateFields: { identifier: 'odd' },
				pageSettings: { paperFormat: 'custom', paperWidth: 100 },
			}),
		);
		expect(result.error!.message).toMatch(
			/^A Custom paper format needs both Paper Width and Paper Height/,
		);
		expect(sb.requests).toHaveLength(0);
	});

	test('a file that is not UTF-8', async () => {
		const result = await run(
			sb,
			create({ templateFields: { identifier: 'latin1', bodyFromFile: 'body' } }),
			[fileItem(Buffer.from('Caf\xe9', 'latin1'))],
		);
		expect(result.error!.message).toMatch(
			/^The file of Template Fields → Body From File is not UTF-8 text/,
		);
		expect(sb.requests).toHaveLength(0);
	});
});

describe('Body From File: 5 MB a template file, counted in its bytes', () => {
	const MB = 1024 * 1024;
	const fromFile = (identifier: string) =>
		create({ templateFields: { identifier, bodyFromFile: 'body' } });

	test('a file of exactly 5 MB of 2-byte characters is sent whole; one byte more is refused; nothing is sent', async () => {
		const exact = 'é'.repeat((5 * MB) / 2);
		const kept = await run(sb, fromFile('exact'), [fileItem(Buffer.from(exact, 'utf8'))]);
		expect(kept.error).toBeUndefined();
		expect(sentTemplate().body_draft).toBe(exact);
		sb.resetRequests();
		const over = Buffer.from(`${exact}a`, 'utf8');
		expect(over).toHaveLength(5 * MB + 1);
		const refused = await run(sb, fromFile('over'), [fileItem(over)]);
		expect(refused.error!.message).toMatch(
			/^The file of Template Fields → Body From File is 5\.0 MB, more than the 5\.0 MB a template file may be/,
		);
		expect(sb.requests).toHaveLength(0);
	});
});
