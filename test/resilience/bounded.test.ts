/* eslint-disable no-console -- test code: runs in Node under jest, never inside n8n */
/**
 * A service that keeps failing ends in a clear error, bounded: 6 tries with the default
 * policy, backing off between them (at least 7.75 s of waiting; jest's timeout bounds it from
 * above). Three kinds of persistent failure run side by side, each against its own sandbox (or
 * a closed port); elapsed times are printed.
 *
 * The policy also has a 25 s budget: no wait may end past it. On a machine slow enough that
 * the tries themselves take seconds, the budget ends the retries before the sixth try (seen
 * beside two busy processes and two mutation runs: "Tried 5 times over 18 s"). So the count
 * asserted here is what holds on any machine: the error reports the tries the service saw,
 * never more than 6, and fewer only once the budget is spent. The policy's exact numbers on a
 * fixed clock are pinned in `retry.test.ts`.
 */

import { runNode, type RunNodeResult } from '../harness';
import type { Sandbox } from '../sandbox';
import { KEY, creds, expectCleanError, expectNoSecret, freePort, op, sandbox } from './helpers';
import { statusFault } from '../harness/fixtures';
import { DEFAULT_RETRY_POLICY } from '../../nodes/shared/transport/retry';

const DOC_CARD = '/api/v1/document_cards/';
const sandboxes: Sandbox[] = [];

afterAll(async () => {
	await Promise.all(sandboxes.map((s) => s.close()));
});

const { maxAttempts: MAX_TRIES, budgetMs, maxDelayMs } = DEFAULT_RETRY_POLICY;
/** The policy's budget less its longest wait, in seconds: fewer tries are made only past it. */
const BUDGET_LESS_LONGEST_WAIT_S = (budgetMs - maxDelayMs) / 1000;

/** The error's "Tried N times over S s", matched against the tries the service saw. */
function expectTriesReported(
	description: string | null | undefined,
	seen: number | undefined,
): void {
	const tried = /^Tried (\d+) times over (\d+(?:\.\d)?) s\./.exec(description ?? '');
	expect(tried).not.toBeNull();
	const [times, overSeconds] = [Number(tried![1]), Number(tried![2])];
	if (seen !== undefined) expect(times).toBe(seen);
	expect(times).toBeGreaterThan(1);
	expect(times).toBeLessThanOrEqual(MAX_TRIES);
	if (times < MAX_TRIES) expect(overSeconds).toBeGreaterThanOrEqual(BUDGET_LESS_LONGEST_WAIT_S);
}

async function timed(
	run: () => Promise<RunNodeResult>,
): Promise<{ r: RunNodeResult; elapsed: number }> {
	const started = Date.now();
	const r = await run();
	return { r, elapsed: Date.now() - started };
}

test('persistent 503, persistent dropped connections and a refused connection on GET each end in a clear error after at most 6 tries (fewer only once the 25 s budget is spent)', async () => {
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
		/^Tried \d times over \d+(\.\d)? s\. This is on the service's side; run again later\. The service said: /,
	);
	expectTriesReported(a.description, failing.count());

	const b = expectCleanError(eDrop.r.error);
	expect(b.message).toBe(`The connection to the service broke while trying to get document ${id2}`);
	expect(b.description).toMatch(/^Tried \d times over .*\(ECONNRESET\)/);
	expectTriesReported(b.description, dropping.count());

	const c = expectCleanError(eRefused.r.error);
	expect(c.message).toBe(`Could not connect to the service while trying to get document ${id3}`);
	expect(c.description).toMatch(/^Tried \d times over .*ECONNREFUSED.*Base URL/);
	expectTriesReported(c.description, undefined);

	for (const { r, elapsed } of [e503, eDrop, eRefused]) {
		// Backoff of 0.25–0.5, 0.5–1, 1–2, 2–4 and 4–8 s: at least 7.75 s of waiting in all (a
		// slow machine only adds to it; one that never gives up meets jest's timeout).
		expect(elapsed).toBeGreaterThanOrEqual(7750);
		expectNoSecret(r, [KEY]);
	}
});
