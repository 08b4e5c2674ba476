/** Document → Create with a Channel: sent as meta._webhook_channel, each item its own. */
import { useSandbox } from '../../../../../harness/use-sandbox';
import { creates, invoiceCreate, run } from '../../../helpers';

const sb = useSandbox({ pendingMs: 10, generatingMs: 40 });

describe('create with a channel', () => {
	test('Channel sets meta._webhook_channel beside the other meta, read per item', async () => {
		const result = await run(
			sb,
			invoiceCreate(sb, '{"n": 1}', {
				waitForCompletion: false,
				additionalFields: { meta: '{"order_id": "A-1"}', channel: '={{ $json.channel }}' },
			}),
			[{ channel: 'shop' }, { channel: 'pos' }],
		);
		expect(result.error).toBeUndefined();
		const metas = creates(sb).map((r) => (r.body as { document: { meta: unknown } }).document.meta);
		expect(metas).toEqual(
			expect.arrayContaining([
				{ order_id: 'A-1', _webhook_channel: 'shop' },
				{ order_id: 'A-1', _webhook_channel: 'pos' },
			]),
		);
		expect(metas).toHaveLength(2);
	});
});
