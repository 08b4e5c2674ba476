/**
 * Snippets through the action node against the sandbox: the editor's view, a round trip (create,
 * get, list, update, delete), paging, refusals, secrets kept out, the picker, and each item's own
 * parameters.
 */
import type { INodeProperties } from 'n8n-workflow';

import { credentialsFor, listSearch, runNode } from '../../../../harness';
import { useSandbox } from '../../../../harness/use-sandbox';
import {
	byId,
	containsSecret,
	describeLibraryEditor,
	editorOf,
	libraryOf,
	run,
} from '../../helpers';

const sb = useSandbox({ seed: 7 });
const { workspace, on, runInWorkspace, ofItem, namesByItem, sentBodies, expectDeletedEach } =
	libraryOf(sb);
const shown = editorOf();

describeLibraryEditor('snippet', 'snippetId', 'searchSnippets');

test('a snippet is created from a name and code, updated from Update Fields', () => {
	const create = { resource: 'snippet', operation: 'create' };
	expect(shown(create, 'identifier')[0]).toMatchObject({ type: 'string', required: true });
	expect(shown(create, 'code')[0]).toMatchObject({ type: 'string', required: true });
	const [fields] = shown({ resource: 'snippet', operation: 'update' }, 'snippetFields');
	expect((fields.options as INodeProperties[]).map((o) => o.name).sort()).toEqual([
		'code',
		'identifier',
	]);
});

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

describe('each item its own parameters (values from expressions, so a read of the first item would give every item the first one\u2019s)', () => {
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
});
