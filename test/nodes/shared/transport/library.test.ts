/**
 * The workspace list (`GET /api/v1/workspace_cards`), and a workspace's snippets should the
 * service page them despite `page=all`, are read page after page within the shared paging
 * bound, like the document list: a list that never ends, or names a next page that is
 * not after the current one, fails with a clear error instead of stopping silently part-way.
 * Through the editor's methods (harness `listSearch` / `loadOptions`) on the BUILT package.
 */
import { listSearch, loadOptions, runNode } from '../../../harness';
import { startEndlessList } from '../../../resilience/hostile';

const KEY = 'sk_workspace_list_test_key';
const MAX_PAGES = 2000;

/** A page's one record: a workspace card, or a snippet. */
const record = (page: number) => ({
	id: `00000000-0000-4000-8000-${String(page).padStart(12, '0')}`,
	identifier: `w${page}`,
});

/** A workspace list (and snippet list) whose every page names a next one (`next` decides which). */
const endlessWorkspaces = (next: (page: number) => number) =>
	startEndlessList(next, {
		'/api/v1/workspace_cards': { key: 'workspace_cards', record },
		'/api/v1/snippets': { key: 'snippets', record },
	});

test('a workspace list that never ends fails at the shared bound, naming what to do', async () => {
	const service = await endlessWorkspaces((page) => page + 1);
	try {
		const credentials = { apiKey: KEY, baseUrl: service.url };
		const failure = await listSearch('searchWorkspaces', { credentials }).then(
			() => undefined,
			(error: Error & { description?: string }) => error,
		);
		expect(failure?.message).toBe(`The workspace list did not end after ${MAX_PAGES} pages`);
		expect(failure?.description).toMatch(/by its ID/);
		expect(JSON.stringify(failure)).not.toContain(KEY);
		expect(service.requests()).toBe(MAX_PAGES);
	} finally {
		await service.close();
	}
});

test('a workspace page naming an earlier page fails at once with the page it named', async () => {
	const service = await endlessWorkspaces((page) => (page < 3 ? page + 1 : 2));
	try {
		await expect(
			loadOptions('getWorkspaces', { credentials: { apiKey: KEY, baseUrl: service.url } }),
		).rejects.toThrow('The workspace list did not end: page 3 named page 2 as the next one');
		expect(service.requests()).toBe(3);
	} finally {
		await service.close();
	}
});

test("a workspace's snippet list that pages for ever despite page=all fails at the shared bound", async () => {
	const service = await endlessWorkspaces((page) => page + 1);
	try {
		const workspaceId = '00000000-0000-4000-8000-000000000001';
		const result = await runNode({
			parameters: {
				resource: 'snippet',
				operation: 'getAll',
				workspaceId: { __rl: true, mode: 'id', value: workspaceId },
			},
			credentials: { apiKey: KEY, baseUrl: service.url },
		});
		expect(result.error?.message).toBe(`The snippet list did not end after ${MAX_PAGES} pages`);
		expect(result.error?.description).toMatch(/by its ID/);
		expect(JSON.stringify(result.error)).not.toContain(KEY);
		expect(service.requests()).toBe(MAX_PAGES);
	} finally {
		await service.close();
	}
});
