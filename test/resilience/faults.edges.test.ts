/**
 * An answer of an unexpected shape that a planted mistake showed unpinned (nodes/shared/
 * transport/schemas.ts): a card whose id is empty text. With the schema's `min(1)` dropped
 * the node output a document without an id, which no later step (Download, Update) can name;
 * it must be the same clear error as a card without an id. Through the real n8n engine
 * against the sandbox, as faults.test.ts does for the other shapes.
 */
import { runNode } from '../harness';
import { statusFault } from '../harness/fixtures';
import { creds, expectCleanError, op, useResilienceSandbox } from './helpers';

const sb = useResilienceSandbox();

beforeEach(() => {
	sb.faults.clear();
	sb.resetRequests();
});

test('get: a card whose id is empty text is refused like a card without an id', async () => {
	const id = sb.createDocument({ status: 'success' }).id;
	sb.faults.add(
		statusFault(200, 'GET', '/api/v1/document_cards/', {
			body: { document_card: { id: '', status: 'success' } },
		}),
	);
	const r = await runNode({ parameters: op.get(id), credentials: creds(sb) });
	const e = expectCleanError(r.error);
	expect(e.name).toBe('NodeApiError');
	expect(e.message).toMatch(
		/unexpected shape while trying to get document .* \(document_card\.id: String must contain at least 1 character\(s\)\)/,
	);
	expect(e.description).toMatch(/Base URL/);
	expect(r.items).toHaveLength(0);
});
