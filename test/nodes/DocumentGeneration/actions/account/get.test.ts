/** Account → Get, on the real n8n engine against the sandbox: the account record without auth_token. */
import { useSandbox } from '../../../../harness/use-sandbox';
import { apiRequests, pairs, run } from '../../helpers';

const sb = useSandbox({ pendingMs: 10, generatingMs: 40 });

describe('account', () => {
	test('get: the account record without auth_token', async () => {
		const result = await run(sb, { resource: 'account', operation: 'get' });
		expect(result.error).toBeUndefined();
		expect(apiRequests(sb).map((r) => `${r.method} ${r.path}`)).toEqual([
			'GET /api/v1/current_user',
		]);
		const json = result.items[0].json;
		expect(json).toMatchObject({
			id: sb.account.id,
			email: expect.any(String),
			available_documents: expect.any(Number),
			share_links: false,
		});
		expect(json).not.toHaveProperty('auth_token');
		expect(JSON.stringify(result.items)).not.toContain(sb.apiKey);
		expect(pairs(result)).toEqual([0]);
	});
});
