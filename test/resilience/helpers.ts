/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/** Shared bits of the resilience tests: a sandbox with a recognisable key, parameters, checks. */
import type { INodeParameterResourceLocator, INodeParameters } from 'n8n-workflow';

import { credentialsFor, type NodeErrorInfo, type RunNodeResult } from '../harness';
import * as net from 'net';

import { useSandbox } from '../harness/use-sandbox';
import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox';

/** A key that cannot appear anywhere by chance. */
export const KEY = 'sk_live_RESILIENCE_7f3c9a1e5b2d8046';

/** The sandbox of the resilience tests: fast generations, the recognisable key. */
const OPTIONS: SandboxOptions = { apiKey: KEY, pendingMs: 20, generatingMs: 60 };

export async function sandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	return await startSandbox({ ...OPTIONS, ...options });
}

/** `useSandbox` with the resilience options, for a whole test file. */
export function useResilienceSandbox(): Sandbox {
	return useSandbox(OPTIONS);
}

/** The resilience sandbox with a template and one finished document to work on. */
export function useResilienceFixture(): { sb: Sandbox; templateId: string; docId: string } {
	const sb = useResilienceSandbox();
	const fixture = { sb, templateId: '', docId: '' };
	beforeAll(() => {
		fixture.templateId = sb.templates[0].id;
		fixture.docId = sb.createDocument({ status: 'success' }).id;
	});
	return fixture;
}

/** A TCP port on 127.0.0.1 that nothing listens on (just freed). */
export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as net.AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

/** Credential data for the sandbox, plus e.g. `requestTimeout` (seconds). */
export function creds(sb: Sandbox, extra: Record<string, unknown> = {}) {
	return { ...credentialsFor(sb), ...extra } as ReturnType<typeof credentialsFor>;
}

/** Text of JavaScript errors that must never reach a user. */
export const JS_ERROR_TEXT =
	/TypeError|ReferenceError|Cannot read propert|undefined is not|is not a function|is not iterable|\[object Object\]|Unexpected token/;

/** A resource locator holding any value at all, as an expression could give one. */
export const locator = (value: unknown, mode = 'id') =>
	({ __rl: true, mode, value }) as unknown as INodeParameterResourceLocator;

export const op = {
	get: (id: unknown, includePayload = false): INodeParameters =>
		({
			resource: 'document',
			operation: 'get',
			documentId: locator(id),
			options: { includePayload },
		}) as INodeParameters,
	getAll: (extra: INodeParameters = {}): INodeParameters => ({
		resource: 'document',
		operation: 'getAll',
		...extra,
	}),
	create: (templateId: unknown, extra: INodeParameters = {}): INodeParameters =>
		({
			resource: 'document',
			operation: 'create',
			templateId: locator(templateId),
			status: 'draft',
			payload: '{"n": 1}',
			...extra,
		}) as INodeParameters,
	update: (
		id: unknown,
		updateFields: INodeParameters,
		extra: INodeParameters = {},
	): INodeParameters =>
		({
			resource: 'document',
			operation: 'update',
			documentId: locator(id),
			updateFields,
			waitForCompletion: false,
			...extra,
		}) as INodeParameters,
	delete: (id: unknown): INodeParameters =>
		({ resource: 'document', operation: 'delete', documentId: locator(id) }) as INodeParameters,
	download: (id: unknown, binaryPropertyName = 'data'): INodeParameters =>
		({
			resource: 'document',
			operation: 'download',
			documentId: locator(id),
			binaryPropertyName,
		}) as INodeParameters,
	account: (): INodeParameters => ({ resource: 'account', operation: 'get' }),
};

/**
 * Every string reachable from a value: enumerable or not (`cause`, `stack`, `message` of
 * errors), through objects, arrays, Maps, Sets and Buffers, cycles cut.
 */
export function allText(value: unknown): string {
	const out: string[] = [];
	const seen = new Set<unknown>();
	const visit = (v: unknown, depth: number) => {
		if (depth > 40) return;
		if (typeof v === 'string') {
			out.push(v);
			return;
		}
		if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') {
			out.push(String(v));
			return;
		}
		if (!v || (typeof v !== 'object' && typeof v !== 'function') || seen.has(v)) return;
		seen.add(v);
		if (Buffer.isBuffer(v)) {
			out.push(v.toString('utf8'));
			return;
		}
		if (v instanceof Map) {
			for (const [k, x] of v) {
				visit(k, depth + 1);
				visit(x, depth + 1);
			}
			return;
		}
		if (v instanceof Set) {
			for (const x of v) visit(x, depth + 1);
			return;
		}
		if (typeof v === 'function') return;
		for (const key of Object.getOwnPropertyNames(v)) {
			out.push(key);
			let x: unknown;
			try {
				x = (v as Record<string, unknown>)[key];
			} catch {
				continue;
			}
			visit(x, depth + 1);
		}
	};
	visit(value, 0);
	return out.join('\n');
}

/** Everything a failed or successful run left behind that a user or a log could see. */
export function visibleParts(r: RunNodeResult): unknown[] {
	const e = r.error as (NodeErrorInfo & { raw?: Record<string, unknown> }) | undefined;
	const parts: unknown[] = [r.items, r.outputs, r.run, r.nodeErrors];
	if (e) {
		parts.push(e, e.raw, e.context, e.description, e.message);
		const raw = e.raw as Record<string, unknown> | undefined;
		if (raw) parts.push(raw.cause, raw.stack, raw.errorResponse, raw.messages);
		try {
			parts.push(JSON.stringify(e.raw));
		} catch {
			// cyclic: allText covers it
		}
	}
	return parts;
}

export function expectNoSecret(r: RunNodeResult, secrets: string[]): void {
	const text = allText(visibleParts(r));
	for (const secret of secrets) {
		expect(text.includes(secret)).toBe(false);
	}
}

/** A clean error: an n8n node error with the item index and no JavaScript error text. */
export function expectCleanError(error: NodeErrorInfo | undefined, itemIndex = 0): NodeErrorInfo {
	expect(error).toBeDefined();
	expect(['NodeOperationError', 'NodeApiError']).toContain(error!.name);
	expect(error!.itemIndex).toBe(itemIndex);
	expect(error!.message).not.toMatch(JS_ERROR_TEXT);
	expect(String(error!.description ?? '')).not.toMatch(JS_ERROR_TEXT);
	return error!;
}

/** Arrival times (sandbox clock, ms) of the logged requests matching method and path. */
export function arrivals(sb: Sandbox, method: string, path: string | RegExp): number[] {
	return sb.requests
		.filter(
			(r) =>
				r.method === method &&
				(typeof path === 'string' ? r.path.startsWith(path) : path.test(r.path)),
		)
		.map((r) => r.at);
}
