/**
 * An edge of one attempt (nodes/shared/transport/attempt.ts) that a planted mistake showed
 * unpinned: an attempt made after a 429 takes its turn at the gate ahead of the requests that
 * asked before it (dropping the flag made it wait behind them, and no test failed). A unit
 * test on a simulated clock, against a stand-in for n8n's request helper.
 */
import type { IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { attemptOnce } from '../../../../nodes/shared/transport/attempt';
import { Gate } from '../../../../nodes/shared/transport/limit';
import type { TransportContext } from '../../../../nodes/shared/types';
import { useFakeClock } from '../../../harness/clock';
import { nodeFixture } from '../../../harness/fixtures';

const T = Date.UTC(2030, 0, 1);

useFakeClock(T);

test('an attempt after a 429 is sent before the requests that were already waiting for their turn', async () => {
	const gate = new Gate({ maxWaitMs: 120_000 });
	// Held by a 429 that asked for 1 s: the requests below wait for their turn.
	gate.done(await gate.take(), 429, { retryAfterMs: 1000 });
	const sent: string[] = [];
	const fileHost = {
		getNode: () => nodeFixture(),
		helpers: {
			httpRequest: async (options: IHttpRequestOptions): Promise<IN8nHttpFullResponse> => {
				sent.push(String(options.url));
				return { statusCode: 200, headers: {}, body: '' };
			},
		},
	} as unknown as TransportContext;
	const attempt = (name: string, afterLimit: boolean) =>
		attemptOnce(
			fileHost,
			{
				http: { method: 'GET', url: `https://files.example.test/${name}` },
				to: 'fileHost',
				what: `download ${name}`,
				secret: undefined,
				itemIndex: 0,
			},
			{ gate, afterLimit },
		);
	const attempts = [attempt('a', false), attempt('b', false), attempt('refused-before', true)];
	await jest.advanceTimersByTimeAsync(60_000);
	await Promise.all(attempts);
	expect(sent).toEqual([
		'https://files.example.test/refused-before',
		'https://files.example.test/a',
		'https://files.example.test/b',
	]);
});
