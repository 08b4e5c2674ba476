/**
 * The reading of one event's list by the polling trigger (DocumentGenerationTrigger/list.ts), on
 * the real n8n engine against a stand-in service: the page bound of each walk of a poll.
 */
import { createPoller } from '../../harness';
import { startEndlessList } from '../../resilience/hostile';

/** The stand-in checks no key. */
const STAND_IN_KEY = 'walks-stand-in';
const MAX_PAGES = 2000;

describe('the page bound: 2,000 pages per walk, not per poll', () => {
	test('a list of 1,001 pages walked twice in one poll (2,003 requests) is read whole, no error', async () => {
		const pages = 1001;
		const newest = Date.now() - 60_000;
		const service = await startEndlessList(
			(page) => (page < pages ? page + 1 : (null as unknown as number)),
			{
				'/api/v1/document_cards': {
					key: 'document_cards',
					// The same card on every read of a page: the second walk agrees with the first.
					record: (page) => ({
						id: `doc-${page}`,
						status: 'success',
						updated_at: new Date(newest - page * 1000).toISOString(),
						meta: '{}',
					}),
				},
			},
		);
		try {
			const poller = await createPoller({
				parameters: { events: ['success'] },
				credentials: { apiKey: STAND_IN_KEY, baseUrl: service.url },
			});
			// The first poll: page 1, then two walks of every page, each within the bound.
			await expect(poller.poll()).resolves.toBeNull();
			expect(service.requests()).toBe(1 + 2 * pages);
			expect(2 * pages).toBeGreaterThan(MAX_PAGES);
		} finally {
			await service.close();
		}
	}, 120_000);
});
