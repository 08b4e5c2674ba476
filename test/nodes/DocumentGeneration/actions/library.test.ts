/**
 * A workspace's library through the action node on the engine against the sandbox: snippets
 * and template folders round-trip (create, get, list, update, delete); their pickers list them
 * by workspace; the PDF engines are offered with the deprecated one marked, and Template
 * Fields send the chosen engine and folder.
 */
import type { INodeParameters } from 'n8n-workflow';

import { credentialsFor, listSearch, loadOptions, runNode } from '../../../harness';
import { useSandbox } from '../../../harness/use-sandbox';
import { byId, containsSecret, run, templateId } from '../helpers';

const sb = useSandbox({ seed: 7 });

const workspace = (name = 'Acme Billing') => sb.workspaces.find((w) => w.identifier === name)!.id;
const on = (resource: string, operation: string, extra: INodeParameters = {}): INodeParameters => ({
	resource,
	operation,
	...extra,
});
const calls = () => sb.requests.map((r) => `${r.method} ${r.path}`);
/** Runs an operation on a resource of a workspace (Acme Billing unless another is named). */
const runInWorkspace = async (
	resource: string,
	operation: string,
	extra: INodeParameters,
	workspaceId = workspace(),
) => await run(sb, on(resource, operation, { workspaceId: byId(workspaceId), ...extra }));

describe('snippets', () => {
	test('round trip: create in a workspace, get, list, update, delete', async () => {
		const created = await runInWorkspace('snippet', 'create', {
			identifier: ' signature ',
			code: '<p>{{ signer.name }}</p>',
		});
		expect(created.error).toBeUndefined();
		expect(sb.requests[0]).toMatchObject({ method: 'POST', path: '/api/v1/snippets' });
		expect(sb.requests[0].body).toEqual({
			snippet: {
				workspace_id: workspace(),
				identifier: 'signature',
				code: '<p>{{ signer.name }}</p>',
			},
		});
		const id = String(created.items[0].json.id);
		expect(created.items[0].json).toMatchObject({ identifier: 'signature' });
		expect(created.items[0].pairedItem).toEqual({ item: 0 });

		const got = await run(sb, on('snippet', 'get', { snippetId: byId(id) }));
		expect(got.items[0].json).toMatchObject({ id, code: '<p>{{ signer.name }}</p>' });

		sb.resetRequests();
		const listed = await runInWorkspace('snippet', 'getAll', { returnAll: true });
		expect(listed.items.map((i) => i.json.identifier).sort()).toEqual([
			'company-footer',
			'signature',
		]);
		expect(sb.requests).toHaveLength(1);
		expect(sb.requests[0].query).toMatchObject({ page: 'all', 'q[workspace_id]': workspace() });
		const limited = await runInWorkspace('snippet', 'getAll', { limit: 1 });
		expect(limited.items).toHaveLength(1);
		const otherWorkspace = await runInWorkspace(
			'snippet',
			'getAll',
			{ returnAll: true },
			workspace('Acme HR'),
		);
		expect(otherWorkspace.items).toHaveLength(0);

		sb.resetRequests();
		const updated = await run(
			sb,
			on('snippet', 'update', { snippetId: byId(id), snippetFields: { code: '<p>v2</p>' } }),
		);
		expect(sb.requests[0]).toMatchObject({ method: 'PUT', path: `/api/v1/snippets/${id}` });
		expect(sb.requests[0].body).toEqual({ snippet: { code: '<p>v2</p>' } });
		expect(updated.items[0].json).toMatchObject({ id, identifier: 'signature', code: '<p>v2</p>' });

		const deleted = await run(sb, on('snippet', 'delete', { snippetId: byId(id) }));
		expect(deleted.items[0].json).toEqual({ deleted: true, id });
		expect(sb.library.snippets.some((s) => s.id === id)).toBe(false);
		const gone = await run(sb, on('snippet', 'get', { snippetId: byId(id) }));
		expect(gone.error!.message).toMatch(/^Not found \(404\) while trying to get snippet/);
	});

	test('a service that pages the list despite page=all: every page read, each snippet once', async () => {
		const ws = workspace('Acme HR');
		for (let n = 0; n < 50; n++)
			sb.library.snippets.push({
				id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
				identifier: `piece-${n}`,
				code: '',
				workspace_id: ws,
				created_at: 0,
				updated_at: 0,
			});
		sb.setOptions({ ignorePageAll: true });
		try {
			const listed = await runInWorkspace('snippet', 'getAll', { returnAll: true }, ws);
			const ids = listed.items.map((i) => i.json.id);
			expect(ids).toHaveLength(50);
			expect(new Set(ids).size).toBe(50);
			expect(sb.requests.map((r) => r.query['page[number]'] ?? r.query.page)).toEqual([
				'all',
				'2',
				'3',
			]);
		} finally {
			sb.setOptions({ ignorePageAll: false });
			sb.library.snippets.splice(1);
		}
	});

	test('no name, no code, nothing to update, a bad ID: refused, naming the item, nothing sent', async () => {
		const create = (identifier: string, code: string) =>
			run(sb, on('snippet', 'create', { workspaceId: byId(workspace()), identifier, code }), [
				{},
				{},
			]);
		expect((await create('  ', 'x')).error!.message).toBe('The snippet name is empty (item 1)');
		expect((await create('footer', ' ')).error!.message).toBe('The snippet code is empty (item 1)');
		const snippetId = byId(sb.library.snippets[0].id);
		expect((await run(sb, on('snippet', 'update', { snippetId }))).error!.message).toMatch(
			/^Nothing to update: no field is given/,
		);
		const badId = await run(sb, on('snippet', 'get', { snippetId: 'footer' }));
		expect(badId.error!.message).toBe('The snippet "footer" is not a valid ID (item 1)');
		expect(sb.requests).toHaveLength(0);
	});

	test('outputs and errors never carry a secret: token-like fields dropped, the key kept out', async () => {
		const seeded = sb.library.snippets[0] as unknown as Record<string, unknown>;
		seeded.auth_token = 'tok_snippet_secret';
		try {
			const got = await run(sb, on('snippet', 'get', { snippetId: byId(String(seeded.id)) }));
			expect(got.items[0].json).toMatchObject({ identifier: 'company-footer' });
			expect(JSON.stringify(got.items)).not.toMatch(/tok_snippet_secret|auth_token/);
			const listed = await runInWorkspace('snippet', 'getAll', { returnAll: true });
			expect(JSON.stringify(listed.items)).not.toMatch(/tok_snippet_secret/);
		} finally {
			delete seeded.auth_token;
		}
		const refused = await runNode({
			parameters: on('templateFolder', 'getAll', { workspaceId: byId(workspace()) }),
			credentials: { ...credentialsFor(sb), apiKey: 'sk_wrong_key_for_the_test' },
		});
		expect(refused.error!.message).toBe('The API key was refused by the service');
		for (const part of [refused.run, refused.error, refused.items])
			expect(containsSecret(part, 'sk_wrong_key_for_the_test')).toBe(false);
	});

	test('a validation message in the first error shape is the item’s message', async () => {
		sb.faults.add({
			type: 'status',
			status: 422,
			method: 'POST',
			path: '/api/v1/snippets',
			body: {
				errors: [
					{
						status: '422',
						detail: 'has already been taken',
						source: { pointer: '/data/attributes/identifier' },
					},
				],
			},
		});
		const result = await runInWorkspace('snippet', 'create', {
			identifier: 'company-footer',
			code: '<footer></footer>',
		});
		expect(result.error).toMatchObject({ name: 'NodeApiError', httpCode: '422' });
		expect(result.error!.message).toBe(
			'The service refused the data (422): identifier has already been taken',
		);
	});

	test('the picker lists every workspace’s snippets, each with its workspace, and narrows as the user types', async () => {
		const creds = credentialsFor(sb);
		const all = await listSearch('searchSnippets', { credentials: creds });
		expect(all.results).toEqual([
			{ name: 'company-footer (Acme Billing)', value: sb.library.snippets[0].id },
		]);
		expect(
			sb.requests
				.map((r) => r.query['q[workspace_id]'])
				.filter(Boolean)
				.sort(),
		).toEqual([workspace(), workspace('Acme HR')].sort());
		const typed = await listSearch('searchSnippets', { credentials: creds, filter: 'FOOTER' });
		expect(typed.results).toHaveLength(1);
		const missed = await listSearch('searchSnippets', { credentials: creds, filter: 'header' });
		expect(missed.results).toHaveLength(0);
	});
});

describe('template folders', () => {
	test('round trip: create in a workspace, get, list, rename, delete', async () => {
		const created = await runInWorkspace('templateFolder', 'create', { identifier: 'Letters' });
		expect(created.error).toBeUndefined();
		expect(sb.requests[0].body).toEqual({
			template_folder: { app_id: workspace(), identifier: 'Letters' },
		});
		const id = String(created.items[0].json.id);

		const got = await run(sb, on('templateFolder', 'get', { templateFolderId: byId(id) }));
		expect(got.items[0].json).toMatchObject({ id, identifier: 'Letters', app_id: workspace() });

		sb.resetRequests();
		const listed = await runInWorkspace('templateFolder', 'getAll', { returnAll: true });
		expect(listed.items.map((i) => i.json.identifier).sort()).toEqual(['Billing', 'Letters']);
		expect(sb.requests[0].query).toMatchObject({ page: 'all', 'q[workspace_id]': workspace() });

		sb.resetRequests();
		const renamed = await run(
			sb,
			on('templateFolder', 'update', { templateFolderId: byId(id), identifier: 'Mail' }),
		);
		expect(sb.requests[0]).toMatchObject({
			method: 'PUT',
			path: `/api/v1/template_folders/${id}`,
			body: { template_folder: { identifier: 'Mail' } },
		});
		expect(renamed.items[0].json).toMatchObject({ id, identifier: 'Mail' });

		const deleted = await run(sb, on('templateFolder', 'delete', { templateFolderId: byId(id) }));
		expect(deleted.items[0].json).toEqual({ deleted: true, id });
		expect(sb.library.folders.some((f) => f.id === id)).toBe(false);
	});

	test('an empty name is refused before anything is sent', async () => {
		const result = await runInWorkspace('templateFolder', 'create', { identifier: '={{ "" }}' });
		expect(result.error!.message).toBe('The folder name is empty (item 1)');
		expect(sb.requests).toHaveLength(0);
	});

	test('the picker lists folders by workspace and narrows as the user types', async () => {
		const creds = credentialsFor(sb);
		const all = await listSearch('searchTemplateFolders', { credentials: creds });
		expect(all.results.map((r) => r.name)).toEqual(['Billing (Acme Billing)', 'Payroll (Acme HR)']);
		const typed = await listSearch('searchTemplateFolders', { credentials: creds, filter: 'hr' });
		expect(typed.results.map((r) => r.name)).toEqual(['Payroll (Acme HR)']);
	});
});

describe('each item its own parameters (values from expressions, so a read of the first item would give every item the first one’s)', () => {
	const ofItem = (result: { items: Array<{ json: Record<string, unknown> }> }, key: string) =>
		result.items.map((i) => i.json[key]);
	const namesByItem = (result: Awaited<ReturnType<typeof run>>) =>
		[0, 1].map((n) =>
			result.items
				.filter((i) => (i.pairedItem as { item: number }).item === n)
				.map((i) => i.json.identifier)
				.sort(),
		);
	const sentBodies = (method: string) =>
		sb.requests.filter((r) => r.method === method).map((r) => r.body as Record<string, unknown>);
	/** Deletes each of `ids` from an item of its own; each item's answer names its id, none is left stored. */
	async function expectDeletedEach(
		resource: 'snippet' | 'templateFolder',
		byItemId: INodeParameters,
		ids: string[],
	) {
		const deleted = await run(
			sb,
			on(resource, 'delete', byItemId),
			ids.map((id) => ({ id })),
		);
		expect(ofItem(deleted, 'id')).toEqual(ids);
		const stored = resource === 'snippet' ? sb.library.snippets : sb.library.folders;
		expect(stored.some((kept) => ids.includes(kept.id))).toBe(false);
	}

	test('snippets: create, get, list, update and delete each read their item’s own workspace, name, code, ID and limit', async () => {
		const [billing, hr] = [workspace(), workspace('Acme HR')];
		const created = await run(
			sb,
			on('snippet', 'create', {
				workspaceId: byId('={{ $json.ws }}'),
				identifier: '={{ $json.name }}',
				code: '={{ $json.code }}',
			}),
			[
				{ ws: billing, name: 'alpha', code: '<p>a</p>' },
				{ ws: hr, name: 'beta', code: '<p>b</p>' },
			],
		);
		expect(created.error).toBeUndefined();
		expect(
			sentBodies('POST').sort((a, b) => JSON.stringify(b).localeCompare(JSON.stringify(a))),
		).toEqual([
			{ snippet: { workspace_id: billing, identifier: 'alpha', code: '<p>a</p>' } },
			{ snippet: { workspace_id: hr, identifier: 'beta', code: '<p>b</p>' } },
		]);
		const ids = ofItem(created, 'id').map(String);

		const byItemId = { snippetId: byId('={{ $json.id }}') };
		const got = await run(
			sb,
			on('snippet', 'get', byItemId),
			ids.map((id) => ({ id })),
		);
		expect(ofItem(got, 'identifier')).toEqual(['alpha', 'beta']);

		const listed = await run(
			sb,
			on('snippet', 'getAll', {
				workspaceId: byId('={{ $json.ws }}'),
				limit: '={{ $json.limit }}',
			}),
			[
				{ ws: billing, limit: 2 },
				{ ws: hr, limit: 1 },
			],
		);
		expect(namesByItem(listed)).toEqual([['alpha', 'company-footer'], ['beta']]);

		const updated = await run(
			sb,
			on('snippet', 'update', { ...byItemId, snippetFields: { code: '={{ $json.code }}' } }),
			[
				{ id: ids[0], code: '<p>a2</p>' },
				{ id: ids[1], code: '<p>b2</p>' },
			],
		);
		expect(ofItem(updated, 'code')).toEqual(['<p>a2</p>', '<p>b2</p>']);
		expect(ofItem(updated, 'id')).toEqual(ids);

		await expectDeletedEach('snippet', byItemId, ids);
	});

	test('template folders: create, get, list, rename and delete each read their item’s own workspace, name and ID', async () => {
		const [billing, hr] = [workspace(), workspace('Acme HR')];
		const created = await run(
			sb,
			on('templateFolder', 'create', {
				workspaceId: byId('={{ $json.ws }}'),
				identifier: '={{ $json.name }}',
			}),
			[
				{ ws: billing, name: 'Letters' },
				{ ws: hr, name: 'Contracts' },
			],
		);
		expect(created.error).toBeUndefined();
		expect(ofItem(created, 'identifier')).toEqual(['Letters', 'Contracts']);
		expect(ofItem(created, 'app_id')).toEqual([billing, hr]);
		const ids = ofItem(created, 'id').map(String);

		const byItemId = { templateFolderId: byId('={{ $json.id }}') };
		const got = await run(
			sb,
			on('templateFolder', 'get', byItemId),
			ids.map((id) => ({ id })),
		);
		expect(ofItem(got, 'identifier')).toEqual(['Letters', 'Contracts']);

		const listed = await run(
			sb,
			on('templateFolder', 'getAll', { workspaceId: byId('={{ $json.ws }}'), returnAll: true }),
			[{ ws: billing }, { ws: hr }],
		);
		expect(namesByItem(listed)).toEqual([
			['Billing', 'Letters'],
			['Contracts', 'Payroll'],
		]);

		const renamed = await run(
			sb,
			on('templateFolder', 'update', { ...byItemId, identifier: '={{ $json.name }}' }),
			[
				{ id: ids[0], name: 'Mail' },
				{ id: ids[1], name: 'Deals' },
			],
		);
		expect(ofItem(renamed, 'id')).toEqual(ids);
		expect(ofItem(renamed, 'identifier')).toEqual(['Mail', 'Deals']);

		await expectDeletedEach('templateFolder', byItemId, ids);
	});

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
			sentBodies('POST').map((body) => (body.document_template as Record<string, unknown>).app_id),
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
