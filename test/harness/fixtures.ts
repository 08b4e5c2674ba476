/** Small shared fixtures of the tests: n8n nodes as workflows and errors hold them; faults. */
import type { IDataObject, INode } from 'n8n-workflow';

import type { Fault, Sandbox } from '../sandbox';
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
 * Makes the first file request arrive after its link has expired; the fresh link that follows
 * is used well within its life. A link signed at t lives until at least t + TTL and, because
 * the signing date has whole seconds, less than t + TTL + 1 s: holding the first request for
 * TTL + 1.1 s expires it whatever the instant of signing, and leaves the fresh one at least a
 * full TTL, plenty on a busy machine. The fresh link is signed in a later second, so its URL
 * differs from the expired one.
 */
export function expireFirstLink(sandbox: Sandbox, ttlMs = 1000): void {
	sandbox.setOptions({ downloadTtlMs: ttlMs });
	sandbox.faults.add({
		type: 'delay',
		delayMs: ttlMs + 1100,
		method: 'GET',
		path: '/files/',
		times: 1,
	});
}
