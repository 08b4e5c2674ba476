/**
 * Template folders through the action node against the sandbox: the editor's view, a round trip
 * (create, get, list, rename, delete), refusals, the picker, and each item's own parameters.
 */

import { credentialsFor, listSearch } from '../../../../harness';
import { useSandbox } from '../../../../harness/use-sandbox';
import { byId, describeLibraryEditor, libraryOf, run } from '../../helpers';

const sb = useSandbox({ seed: 7 });
const { workspace, on, runInWorkspace, ofItem, namesByItem, expectDeletedEach } = libraryOf(sb);

describeLibraryEditor('templateFolder', 'templateFolderId', 'searchTemplateFolders');

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

describe('each item its own parameters (values from expressions, so a read of the first item would give every item the first one\u2019s)', () => {
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
});
