/**
 * The edges of Create's payload (payload.ts) that mutation testing found unpinned, on the real
 * n8n engine against the sandbox: how a group's lines are put into the payload.
 */
import { useSandbox } from '../../../harness/use-sandbox';
import { creates, invoiceCreate, run } from '../helpers';

const sb = useSandbox({ pendingMs: 10, generatingMs: 30 });

test('a Line Items Path through a value of the payload that is not an object is refused, naming the line items; nothing is sent', async () => {
	const result = await run(
		sb,
		invoiceCreate(sb, '{"order": "A"}', {
			grouping: 'all',
			linesPath: 'order.lines',
			line: '{"qty": 1}',
			waitForCompletion: false,
		}),
		[{}, {}],
	);
	expect(result.error?.message).toBe(
		'The line items goes under "order", but the payload has a value there, not an object (item 1)',
	);
	expect(creates(sb)).toHaveLength(0);
});
