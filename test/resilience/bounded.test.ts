/* eslint-disable no-console -- test code: runs in Node under jest, never inside n8n */
/**
 * A service that keeps failing ends in a clear error, bounded: 6 tries with the default
 * policy, backing off between them (at least 7.75 s of waiting; jest's timeout bounds it from
 * above). Three kinds of persistent failure run side by side, each against its own sandbox (or
 * a closed port); elapsed times are printed.
 */

import { runNode, type RunNodeResult } from '../harness';
import type { Sandbox } from '../sandbox';
import { KEY, creds, expectCleanError, expectNoSecret, freePort, op, sandbox } from './helpers';
import { statusFault } from '../harness/fixtures';

const DOC_CARD = '/api/v1/document_cards/';
const sandboxes: Sandbox[] = [];

afterAll(async () => {
	await Promise.all(sandboxes.map((s) => s.close()));
});

async function timed(
	run: () => Promise<RunNodeResult>,
): Promise<{ r: RunNodeResult; elapsed: number }> {
	const started = Date.now();
	const r = await run();
	return { r, elapsed: Date.now() - started };
}

test('persistent 503, persistent dropped connections and a refused connection on GET each end in a clear error after 6 tries', async () => {
	const [failing, dropping] = await Promise.all([sandbox(), sandbox()]);
	sandboxes.push(failing, dropping);
	const id1 = failing.createDocument({ status: 'success' }).id;
	const id2 = dropping.createDocument({ status: 'success' }).id;
	failing.faults.add(statusFault(503, 'GET', DOC_CARD, { times: Infinity }));
	dropping.faults.add({ type: 'drop', method: 'GET', path: DOC_CARD, times: Infinity });
	const closedPort = await freePort();
	const id3 = '1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d';

	const [e503, eDrop, eRefused] = await Promise.all([
		timed(() => runNode({ parameters: op.get(id1), credentials: creds(failing) })),
		timed(() => runNode({ parameters: op.get(id2), credentials: creds(dropping) })),
		timed(() =>
			runNode({
				parameters: op.get(id3),
				credentials: { apiKey: KEY, baseUrl: `http://127.0.0.1:${closedPort}` },
			}),
		),
	]);

	console.log(
		[
			`persistent 503: ${failing.count()} attempts, error after ${e503.elapsed} ms`,
			`persistent drop: ${dropping.count()} attempts, error after ${eDrop.elapsed} ms`,
			`connection refused: error after ${eRefused.elapsed} ms`,
		].join('\n'),
	);

	const a = expectCleanError(e503.r.error);
	expect(a.name).toBe('NodeApiError');
	expect(a.httpCode).toBe('503');
	expect(a.message).toBe(`The service failed with 503 while trying to get document ${id1}`);
	expect(a.description).toMatch(
		/^Tried 6 times over \d+(\.\d)? s\. This is on the service's side; run again later\. The service said: /,
	);
	expect(failing.count()).toBe(6);

	const b = expectCleanError(eDrop.r.error);
	expect(b.message).toBe(`The connection to the service broke while trying to get document ${id2}`);
	expect(b.description).toMatch(/^Tried 6 times over .*\(ECONNRESET\)/);
	expect(dropping.count()).toBe(6);

	const c = expectCleanError(eRefused.r.error);
	expect(c.message).toBe(`Could not connect to the service while trying to get document ${id3}`);
	expect(c.description).toMatch(/^Tried 6 times over .*ECONNREFUSED.*Base URL/);

	for (const { r, elapsed } of [e503, eDrop, eRefused]) {
		// Backoff of 0.25–0.5, 0.5–1, 1–2, 2–4 and 4–8 s: at least 7.75 s of waiting in all (a
		// slow machine only adds to it; one that never gives up meets jest's timeout).
		expect(elapsed).toBeGreaterThanOrEqual(7750);
		expectNoSecret(r, [KEY]);
	}
});
