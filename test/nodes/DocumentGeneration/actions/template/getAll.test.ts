/** Template → Get Many with a folder and a sort, on the engine against the sandbox. */
import { useSandbox } from '../../../../harness/use-sandbox';
import { byId, run } from '../../helpers';

const sb = useSandbox({ seed: 7 });

const workspace = () => sb.workspaces.find((w) => w.identifier === 'Acme Billing')!.id;
const folderId = (identifier: string) =>
	sb.library.folders.find((f) => f.identifier === identifier)!.id;

describe('template get many', () => {
	test('narrowed to a folder sends q[folders]; each item its own folder', async () => {
		const result = await run(
			sb,
			{
				resource: 'template',
				operation: 'getAll',
				workspaceId: byId(workspace()),
				returnAll: true,
				filters: { folder: '={{ $json.folder }}' },
				options: { sort: 'name' },
			},
			[{ folder: folderId('Billing') }, { folder: 'none' }],
		);
		expect(result.error).toBeUndefined();
		const queries = sb.requests.map((r) => r.query);
		expect(queries).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ 'q[folders]': folderId('Billing'), sort: 'identifier' }),
				expect.objectContaining({ 'q[folders]': 'none', sort: 'identifier' }),
			]),
		);
		expect(sb.requests).toHaveLength(2);
	});

	test('without filters or options: neither q[folders] nor sort is sent', async () => {
		await run(sb, {
			resource: 'template',
			operation: 'getAll',
			workspaceId: byId(workspace()),
			returnAll: true,
		});
		expect(sb.requests[0].query).not.toHaveProperty('q[folders]');
		expect(sb.requests[0].query).not.toHaveProperty('sort');
	});
});
