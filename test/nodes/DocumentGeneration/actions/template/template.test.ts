/**
 * Templates through the action node against the sandbox: Get Many, Get, Create, Update and Delete;
 * the PDF engines and folders Template Fields offer and send; each item's own parameters.
 */
import type { INodeParameters, INodeProperties } from 'n8n-workflow';

import { useSandbox } from '../../../../harness/use-sandbox';
import { credentialsFor, loadOptions } from '../../../../harness';
import { byId, editorOf, libraryOf, run, templateId } from '../../helpers';

const sb = useSandbox({ pendingMs: 20, generatingMs: 150 });

const workspace = () => sb.workspaces.find((w) => w.identifier === 'Acme Billing')!.id;
const onTemplate = (operation: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'template',
	operation,
	...extra,
});

describe('template resource', () => {
	test('Get Many: the cards of one workspace in one request; a limit, or all', async () => {
		const all = await run(
			sb,
			onTemplate('getAll', { workspaceId: byId(workspace()), returnAll: true }),
		);
		expect(all.error).toBeUndefined();
		expect(all.items.map((i) => i.json.identifier)).toEqual(['always-fails', 'invoice', 'receipt']);
		expect(sb.requests).toHaveLength(1);
		expect(sb.requests[0].query).toMatchObject({ page: 'all', 'q[workspace_id]': workspace() });
		const limited = await run(
			sb,
			onTemplate('getAll', { workspaceId: byId(workspace()), limit: 2 }),
		);
		expect(limited.items).toHaveLength(2);
	});

	test('Get: the full template, without its auth_token', async () => {
		const id = templateId(sb);
		expect(sb.templates.find((t) => t.id === id)).toHaveProperty('auth_token');
		const result = await run(sb, onTemplate('get', { templateId: byId(id) }));
		expect(result.items[0].json).toMatchObject({
			id,
			identifier: 'invoice',
			body_draft: expect.any(String),
		});
		expect(JSON.stringify(result.items)).not.toMatch(/auth_token/);
	});

	test('Create: only the given fields, under the service names, in the chosen workspace', async () => {
		const result = await run(
			sb,
			onTemplate('create', {
				workspaceId: byId(workspace()),
				templateFields: {
					identifier: 'letter',
					body: '<p>Dear {{ name }}</p>',
					sampleData: '{"name": "Ada"}',
					outputType: 'webp',
				},
			}),
		);
		expect(result.error).toBeUndefined();
		expect(sb.requests[0].body).toEqual({
			document_template: {
				app_id: workspace(),
				identifier: 'letter',
				body_draft: '<p>Dear {{ name }}</p>',
				sample_data_draft: '{"name":"Ada"}',
				output_type: 'webp',
			},
		});
		expect(result.items[0].json).toMatchObject({ identifier: 'letter', output_type: 'webp' });
		expect(JSON.stringify(result.items)).not.toMatch(/auth_token/);
	});

	test('Create without a name, Update with nothing, bad sample data: refused, nothing sent', async () => {
		const noName = await run(
			sb,
			onTemplate('create', { workspaceId: byId(workspace()), templateFields: { body: 'x' } }),
		);
		expect(noName.error!.message).toBe('The new template has no name (item 1)');
		const nothing = await run(sb, onTemplate('update', { templateId: byId(templateId(sb)) }));
		expect(nothing.error!.message).toMatch(/^Nothing to update/);
		const badJson = await run(
			sb,
			onTemplate('update', {
				templateId: byId(templateId(sb)),
				templateFields: { sampleData: '{a: 1}' },
			}),
		);
		expect(badJson.error!.message).toMatch(
			/sample data is not valid JSON \(the name a needs double quotes/,
		);
		expect(sb.requests).toHaveLength(0);
	});

	test('Update sends only the given fields; Delete outputs {deleted, id}', async () => {
		const id = templateId(sb, 'receipt');
		const updated = await run(
			sb,
			onTemplate('update', { templateId: byId(id), templateFields: { styles: 'h1 {}' } }),
		);
		expect(sb.requests[0]).toMatchObject({
			method: 'PUT',
			path: `/api/v1/document_templates/${id}`,
		});
		expect(sb.requests[0].body).toEqual({ document_template: { scss_style_draft: 'h1 {}' } });
		expect(updated.items[0].json.scss_style_draft).toBe('h1 {}');
		const deleted = await run(sb, onTemplate('delete', { templateId: byId(id) }));
		expect(deleted.items[0].json).toEqual({ deleted: true, id });
		expect(sb.templates.some((t) => t.id === id)).toBe(false);
	});
});

describe('the library of a workspace', () => {
	const sb = useSandbox({ seed: 7 });
	const { workspace, on, calls, runInWorkspace, ofItem, namesByItem, sentBodies } = libraryOf(sb);
	const shown = editorOf();

	test.each(['create', 'update'])(
		'template %s: Template Fields offer the PDF engine and the folder, from lists',
		(operation) => {
			const [fields] = shown({ resource: 'template', operation }, 'templateFields');
			const options = fields.options as INodeProperties[];
			expect(options.find((o) => o.name === 'pdfEngineId')).toMatchObject({
				type: 'options',
				default: '',
				typeOptions: { loadOptionsMethod: 'getPdfEngines' },
			});
			expect(options.find((o) => o.name === 'folderId')).toMatchObject({
				type: 'options',
				default: '',
				typeOptions: { loadOptionsMethod: 'getTemplateFolders' },
			});
			// The contract's fields are still there.
			for (const name of ['identifier', 'body', 'styles', 'sampleData', 'outputType'])
				expect(options.some((o) => o.name === name)).toBe(true);
		},
	);

	describe('PDF engines and folders of a template', () => {
		test('the engines are offered, the supported first, the deprecated one marked with its date', async () => {
			const options = await loadOptions('getPdfEngines', { credentials: credentialsFor(sb) });
			const [v3, v4] = ['v3', 'v4'].map((n) => sb.library.engines.find((e) => e.name === n)!);
			expect(options.map(({ name, value }) => ({ name, value }))).toEqual([
				{ name: "The Service's Default", value: '' },
				{ name: 'v4', value: v4.id },
				{ name: 'v3 (deprecated on 2025-06-30)', value: v3.id },
			]);
			expect(calls()).toEqual(['GET /api/v1/pdf_engines']);
		});

		test('Create with an engine and a folder sends pdf_engine_draft_id and template_folder_id', async () => {
			const v3 = sb.library.engines.find((e) => e.deprecated_on)!;
			const folder = sb.library.folders.find((f) => f.identifier === 'Billing')!;
			const result = await runInWorkspace('template', 'create', {
				templateFields: { identifier: 'legacy', pdfEngineId: v3.id, folderId: folder.id },
			});
			expect(result.error).toBeUndefined();
			expect(sb.requests[0].body).toEqual({
				document_template: {
					app_id: workspace(),
					identifier: 'legacy',
					pdf_engine_draft_id: v3.id,
					template_folder_id: folder.id,
				},
			});
			expect(result.items[0].json).toMatchObject({
				pdf_engine_draft_id: v3.id,
				template_folder_id: folder.id,
			});
			expect(JSON.stringify(result.items)).not.toMatch(/auth_token/);
		});

		test('Update: the default engine sends nothing; No Folder takes the template out of its folder', async () => {
			const id = templateId(sb, 'receipt');
			const result = await run(
				sb,
				on('template', 'update', {
					templateId: byId(id),
					templateFields: { pdfEngineId: '', folderId: '' },
				}),
			);
			expect(result.error).toBeUndefined();
			expect(sb.requests[0].body).toEqual({ document_template: { template_folder_id: null } });
			expect(sb.templates.find((t) => t.id === id)!.template_folder_identifier).toBeNull();
		});

		test('the folder option lists No Folder first, then the chosen workspace’s folders', async () => {
			const options = await loadOptions('getTemplateFolders', {
				credentials: credentialsFor(sb),
				parameters: {
					resource: 'template',
					operation: 'create',
					workspaceId: byId(workspace('Acme HR')),
					templateFields: { folderId: '' },
				},
				path: 'parameters.templateFields.folderId',
			});
			expect(options.map((o) => o.name)).toEqual(['No Folder', 'Payroll']);
			expect(sb.requests.map((r) => r.query['q[workspace_id]'])).toEqual([workspace('Acme HR')]);
		});

		test('an engine ID that is not one is refused, nothing sent', async () => {
			const result = await run(
				sb,
				on('template', 'update', {
					templateId: byId(templateId(sb)),
					templateFields: { pdfEngineId: '../v4?x' },
				}),
			);
			expect(result.error!.message).toBe('The PDF engine "../v4?x" is not an engine ID (item 1)');
			expect(sb.requests).toHaveLength(0);
		});
	});

	describe('each item its own parameters (values from expressions, so a read of the first item would give every item the first one\u2019s)', () => {
		test('templates: create, list and update each read their item’s own workspace, Template Fields and ID', async () => {
			const [billing, hr] = [workspace(), workspace('Acme HR')];
			const created = await run(
				sb,
				on('template', 'create', {
					workspaceId: byId('={{ $json.ws }}'),
					templateFields: { identifier: '={{ $json.name }}' },
				}),
				[
					{ ws: billing, name: 'quote' },
					{ ws: hr, name: 'contract' },
				],
			);
			expect(created.error).toBeUndefined();
			expect(ofItem(created, 'identifier')).toEqual(['quote', 'contract']);
			expect(
				sentBodies('POST').map(
					(body) => (body.document_template as Record<string, unknown>).app_id,
				),
			).toEqual(expect.arrayContaining([billing, hr]));
			const ids = ofItem(created, 'id').map(String);

			const listed = await run(
				sb,
				on('template', 'getAll', { workspaceId: byId('={{ $json.ws }}'), returnAll: true }),
				[{ ws: billing }, { ws: hr }],
			);
			const [inBilling, inHr] = namesByItem(listed);
			expect(inBilling).toContain('quote');
			expect(inBilling).not.toContain('contract');
			expect(inHr).toContain('contract');
			expect(inHr).not.toContain('quote');

			const updated = await run(
				sb,
				on('template', 'update', {
					templateId: byId('={{ $json.id }}'),
					templateFields: { identifier: '={{ $json.name }}' },
				}),
				[
					{ id: ids[0], name: 'quote-2' },
					{ id: ids[1], name: 'contract-2' },
				],
			);
			expect(ofItem(updated, 'id')).toEqual(ids);
			expect(ofItem(updated, 'identifier')).toEqual(['quote-2', 'contract-2']);
		});
	});
});
