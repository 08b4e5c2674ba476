/** Shared pieces of the trigger tests: a manual-clock sandbox, a poller, event keys. */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox';
import { createPoller, credentialsFor, type Poller } from '../../harness';

export const LIST_PATH = '/api/v1/document_cards';
/** A fixed sandbox start (service clock), far from the host clock on purpose. */
export const T0 = Date.UTC(2031, 4, 17, 9, 30, 0, 250);

export interface Rig {
	sb: Sandbox;
	poller: Poller;
}

/** The sandbox of a rig alone: its clock set by hand from T0, its ids seeded. */
export async function rigSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	return startSandbox({ clock: 'manual', startTime: T0, seed: 7, ...options });
}

export async function rig(
	parameters: INodeParameters = { events: ['success'] },
	options: SandboxOptions = {},
	staticData?: Record<string, unknown>,
): Promise<Rig> {
	const sb = await rigSandbox(options);
	const poller = await createPoller({
		parameters,
		credentials: credentialsFor(sb),
		staticData: staticData as never,
	});
	return { sb, poller };
}

/** The event key of an emitted item (or of a sandbox record): `<id>@<updated_at ms>`. */
export function keyOfJson(json: Record<string, unknown>): string {
	return `${String(json.id)}@${Date.parse(String(json.updated_at))}`;
}

export function itemsOf(result: INodeExecutionData[][] | null): INodeExecutionData[] {
	if (result === null) return [];
	expect(result).toHaveLength(1);
	expect(result[0].length).toBeGreaterThan(0);
	return result[0];
}

export function keysOf(result: INodeExecutionData[][] | null): string[] {
	return itemsOf(result).map((item) => keyOfJson(item.json));
}

export function recordKey(sb: Sandbox, id: string): string {
	const rec = sb.documents.get(id);
	if (!rec) throw new Error(`no document ${id}`);
	return `${rec.id}@${rec.updated_at}`;
}

/** Finished documents created now (service clock), `count` of them. */
export function finishMany(
	sb: Sandbox,
	count: number,
	fields: { status?: 'success' | 'failure'; document_template_id?: string; meta?: object } = {},
): string[] {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		ids.push(sb.createDocument({ status: 'success', ...fields }).id);
	}
	return ids;
}

/** Asserts items are in non-decreasing updated_at order. */
export function expectOldestFirst(items: INodeExecutionData[]): void {
	const times = items.map((item) => Date.parse(String(item.json.updated_at)));
	for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1]);
}

/** List requests made since the last reset. */
export function listRequests(sb: Sandbox): number {
	return sb.count({ method: 'GET', path: LIST_PATH });
}

/**
 * Lets the next list request through and holds the one after it (a poll's second page) until
 * the returned function releases it: a test changes the list between two pages on cue, not
 * within a time. Answers how many requests the release let go (0 if none was held).
 */
export function holdSecondPage(sb: Sandbox): () => number {
	sb.faults.add({ type: 'delay', delayMs: 0, method: 'GET', path: LIST_PATH });
	const held = sb.faults.add({ type: 'delay', delayMs: 600_000, method: 'GET', path: LIST_PATH });
	return () => sb.faults.release(held);
}

/** Whether the sandbox has seen `count` list requests since its log was reset. */
export const listRequestsSeen = (sb: Sandbox, count: number): boolean =>
	sb.requests.filter((r) => r.path === LIST_PATH).length >= count;
