/** Small shared fixtures of the tests: n8n nodes as workflows and errors hold them; faults. */
import type { IDataObject, INode } from 'n8n-workflow';

import type { Fault, LoggedRequest, Sandbox } from '../sandbox';
import { MANUAL_TRIGGER_TYPE } from './package';

/** An INode, for code that only needs a node to name (errors, contexts). */
export function nodeFixture(overrides: Partial<INode> = {}): INode {
	return {
		id: '1',
		name: 'Document Generation',
		type: 'x.documentGeneration',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		...overrides,
	};
}

/** The harness's start node, emitting `items`. */
export function startNode(items: IDataObject[], name = 'Start'): INode {
	return nodeFixture({
		id: 's',
		name,
		type: MANUAL_TRIGGER_TYPE,
		parameters: { items: items as never },
	});
}

/**
 * A sandbox fault that answers `status` to the requests of `method` on `path` (a prefix or a
 * RegExp), once unless `extra.times` says otherwise.
 */
export function statusFault(
	status: number,
	method: string,
	path: string | RegExp,
	extra: Omit<Fault, 'type' | 'status' | 'method' | 'path'> = {},
): Fault {
	return { type: 'status', status, method, path, ...extra };
}

/**
 * Resolves once `check()` holds (looked at every 5 ms). No time bound of its own: a wait for
 * something that never happens ends at jest's timeout, whatever the machine's speed.
 */
export async function until(check: () => boolean): Promise<void> {
	// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- test code, under jest
	while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/**
 * Resolves with the `n`th request of the sandbox's log that `match` accepts, once it is there
 * (it may still be in flight: `status` null). No time bound of its own: a test waiting for a
 * request that never comes ends at jest's timeout, whatever the machine's speed.
 */
export async function logged(
	sb: Pick<Sandbox, 'requests'>,
	match: (r: LoggedRequest) => boolean,
	n = 1,
): Promise<LoggedRequest> {
	await until(() => sb.requests.filter(match).length >= n);
	return sb.requests.filter(match)[n - 1];
}

/** How long the links of a run whose first link is made to expire live (the sandbox's TTL). */
const LINK_TTL_MS = 60_000;

/**
 * Runs `start` with its first file request handled after its link has expired; the fresh
 * link that follows is used within its life. A link signed at t lives until at least t + TTL
 * and, because the signing date has whole seconds, less than t + TTL + 1 s. The first file
 * request is held (a delay fault) and, once it is in the sandbox's log, the sandbox's clock
 * moves TTL + 1.1 s on: the held request is handled after its link's end whatever the instant
 * of signing, and the fresh link has a full minute. (The log is read every 5 ms, long before
 * the hold ends: timers run in the order they are due.) The clock is moved back after the
 * run, so the other tests see the sandbox on the host's time.
 */
export async function withFirstLinkExpired<T>(sb: Sandbox, start: () => Promise<T>): Promise<T> {
	sb.setOptions({ downloadTtlMs: LINK_TTL_MS });
	sb.faults.add({ type: 'delay', delayMs: 1000, method: 'GET', path: '/files/', times: 1 });
	const running = start();
	await logged(sb, (r) => r.path.startsWith('/files/'));
	sb.clock.advance(LINK_TTL_MS + 1100);
	try {
		return await running;
	} finally {
		sb.clock.set(sb.clock.now() - (LINK_TTL_MS + 1100));
	}
}
