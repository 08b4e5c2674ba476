/**
 * Stage 4, the wait and each file's download: a link renewed for the download (the waited
 * card's link had expired) is the link the output item hands on, with its own end
 * (`download_url_expires_at`), never the expired one. Real engine, sandbox.
 */
import type { IDataObject } from 'n8n-workflow';

import { withFirstLinkExpired } from '../../../harness/fixtures';
import { useSandbox } from '../../../harness/use-sandbox';
import type { LoggedRequest } from '../../../sandbox';
import { fileRequests, numberedCreate, pairs, run } from '../helpers';

const sb = useSandbox({ pendingMs: 20, generatingMs: 80 });

/** When the link of a file request ends, read from its own query (ISO 8601, UTC). */
function endOf(request: LoggedRequest): string {
	const query = new URLSearchParams(request.rawQuery);
	const date = query.get('X-Amz-Date') ?? '';
	const signedAt = Date.UTC(
		Number(date.slice(0, 4)),
		Number(date.slice(4, 6)) - 1,
		Number(date.slice(6, 8)),
		Number(date.slice(9, 11)),
		Number(date.slice(11, 13)),
		Number(date.slice(13, 15)),
	);
	return new Date(signedAt + Number(query.get('X-Amz-Expires')) * 1000).toISOString();
}

/** The link an output item hands on, as its query and its end. */
const linkOf = (json: IDataObject) => ({
	query: new URL(String(json.download_url)).search.slice(1),
	end: json.download_url_expires_at,
});

describe('a link renewed for the download', () => {
	test('one item (sync create): the output hands on the renewed link and its end', async () => {
		const result = await withFirstLinkExpired(sb, () => run(sb, numberedCreate(sb), [{ n: 1 }]));
		expect(result.error).toBeUndefined();
		const [expired, fresh] = fileRequests(sb);
		expect([expired.status, fresh.status]).toEqual([403, 200]);
		expect(fresh.rawQuery).not.toBe(expired.rawQuery);
		expect(linkOf(result.items[0].json)).toEqual({ query: fresh.rawQuery, end: endOf(fresh) });
		expect(result.items[0].binary?.data?.mimeType).toBe('application/pdf');
	});

	test('a batch waited for together: each item hands on the link its own file came through', async () => {
		const result = await withFirstLinkExpired(sb, () =>
			run(sb, numberedCreate(sb), [{ n: 1 }, { n: 2 }]),
		);
		expect(result.error).toBeUndefined();
		expect(pairs(result)).toEqual([0, 1]);
		const files = fileRequests(sb);
		const refused = files.filter((r) => r.status === 403).map((r) => r.rawQuery);
		expect(refused.length).toBeGreaterThanOrEqual(1);
		for (const item of result.items) {
			const fetched = files.find(
				(r) => r.status === 200 && r.path.startsWith(`/files/${String(item.json.id)}/`),
			)!;
			expect(linkOf(item.json)).toEqual({ query: fetched.rawQuery, end: endOf(fetched) });
			expect(refused).not.toContain(linkOf(item.json).query);
		}
	});
});
