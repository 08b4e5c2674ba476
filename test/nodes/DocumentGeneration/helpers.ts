/** Shared bits of the action node tests (engine: test/harness; service: test/sandbox). */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { credentialsFor, runNode, type NodeSettings, type RunNodeResult } from '../../harness';
import { startSandbox, type LoggedRequest, type Sandbox, type SandboxOptions } from '../../sandbox';

/** A resource locator value in "By ID" mode. */
export function byId(id: string): INodeParameters {
	return { __rl: true, mode: 'id', value: id };
}

/** Parameters of a document operation on one document (by ID), plus any others. */
export function onDocument(
	operation: string,
	id: string,
	extra: INodeParameters = {},
): INodeParameters {
	return { resource: 'document', operation, documentId: byId(id), ...extra };
}

export function templateId(sb: Sandbox, identifier = 'invoice'): string {
	const template = sb.templates.find((t) => t.identifier === identifier);
	if (!template) throw new Error(`no template ${identifier}`);
	return template.id;
}

/**
 * The typeOptions of Line Fields of the Template (mappedLineFields) as the editor must get them:
 * the line fields loaded again when the template or the Line Items Path changes, the words the
 * mapper shows. Pinned by descriptions.editor.test.ts and lineItems.editor.test.ts, each of which
 * loads the package itself.
 */
export const LINE_MAPPER_TYPE_OPTIONS = {
	loadOptionsDependsOn: ['templateId.value', 'linesPath'],
	resourceMapper: {
		resourceMapperMethod: 'getTemplateLineFields',
		mode: 'add',
		valuesLabel: 'Fields of Each Line',
		fieldWords: { singular: 'line field', plural: 'line fields' },
		addAllFields: true,
		multiKeyMatch: false,
		supportAutoMap: true,
	},
};

/** Items numbered 0 … n-1 as `{ n }`. */
export function numbered(n: number): IDataObject[] {
	return Array.from({ length: n }, (_, i) => ({ n: i }));
}

/** Create of one document with the sandbox's invoice template and this payload (JSON text). */
export function invoiceCreate(
	sb: Sandbox,
	payload: string,
	extra: INodeParameters = {},
): INodeParameters {
	return {
		resource: 'document',
		operation: 'create',
		templateId: byId(templateId(sb)),
		payload,
		...extra,
	};
}

/**
 * Create with the sandbox's invoice template: the payload `{ n }` of each item (`numbered`)
 * and meta `{ order_id: "O-<n>" }`, plus any other parameters.
 */
export function numberedCreate(sb: Sandbox, extra: INodeParameters = {}): INodeParameters {
	return invoiceCreate(sb, '={{ { "n": $json.n } }}', {
		additionalFields: { meta: '={{ { "order_id": "O-" + $json.n } }}' },
		...extra,
	});
}

/** `numberedCreate` with these Options (Max Wait for Rate Limit, a Unique Key, …). */
export function createWithOptions(sb: Sandbox, options: INodeParameters = {}): INodeParameters {
	return numberedCreate(sb, { options });
}

/** Runs Start -> Document Generation with the given parameters against the sandbox. */
export async function run(
	sb: Sandbox,
	parameters: INodeParameters,
	items: IDataObject[] = [{}],
	nodeSettings?: NodeSettings,
): Promise<RunNodeResult> {
	return await runNode({ parameters, items, credentials: credentialsFor(sb), nodeSettings });
}

export const CONTINUE: NodeSettings = { onError: 'continueRegularOutput' };

/** The API requests (not file downloads) the sandbox received. */
export function apiRequests(sb: Sandbox): LoggedRequest[] {
	return sb.requests.filter((r) => r.path.startsWith('/api/'));
}

/** The payloads of the creates the sandbox received (its API POSTs, whichever else), in order. */
export function sentPayloads(sb: Sandbox): unknown[] {
	return apiRequests(sb)
		.filter((r) => r.method === 'POST')
		.map((r) => (r.body as { document: IDataObject }).document.payload);
}

export function fileRequests(sb: Sandbox): LoggedRequest[] {
	return sb.requests.filter((r) => r.path.startsWith('/files/'));
}

export function listRequests(sb: Sandbox): LoggedRequest[] {
	return sb.requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/document_cards');
}

export function cardRequests(sb: Sandbox, id?: string): LoggedRequest[] {
	return sb.requests.filter(
		(r) =>
			r.method === 'GET' &&
			(id
				? r.path === `/api/v1/document_cards/${id}`
				: r.path.startsWith('/api/v1/document_cards/')),
	);
}

/** Creates, a single waited-for item's sync create (`/documents/sync`) included. */
export function creates(sb: Sandbox): LoggedRequest[] {
	return sb.requests.filter(
		(r) =>
			r.method === 'POST' &&
			(r.path === '/api/v1/documents' || r.path === '/api/v1/documents/sync'),
	);
}

/** The order id (`meta.order_id`) a create was sent for: one per item of `numberedCreate`. */
export function orderOf(request: LoggedRequest): string {
	const document = (request.body as { document?: { meta?: unknown } }).document;
	const meta = typeof document?.meta === 'string' ? JSON.parse(document.meta) : document?.meta;
	return String((meta as IDataObject | undefined)?.order_id);
}

/**
 * A refused create is not sent again before the window it was refused in reopens: each
 * item's next create after a 429 reaches the sandbox at or after that window's end (windows
 * of `perMs` on the sandbox's clock, as its limit counts them). True on any machine: a slow
 * one only sends later.
 */
export function expectNoCreateRetriedBeforeItsWindow(sb: Sandbox, perMs: number): number {
	const sent = creates(sb);
	let refused = 0;
	sent.forEach((request, i) => {
		if (request.status !== 429) return;
		refused++;
		const windowEnd = (Math.floor(request.at / perMs) + 1) * perMs;
		const again = sent.slice(i + 1).find((r) => orderOf(r) === orderOf(request));
		expect(again).toBeDefined();
		expect(again!.at).toBeGreaterThanOrEqual(windowEnd);
	});
	return refused;
}

/** Every write to a document: creates (sync ones too) and updates. */
export function writes(sb: Sandbox): LoggedRequest[] {
	return sb.requests.filter(
		(r) =>
			creates(sb).includes(r) ||
			(['PUT', 'PATCH'].includes(r.method) && r.path.startsWith('/api/v1/documents/')),
	);
}

/** Whether the API key occurs anywhere in a value (outputs, errors, run data). */
export function containsSecret(value: unknown, secret: string): boolean {
	const seen = new WeakSet<object>();
	const text = JSON.stringify(value, (_key, v: unknown) => {
		if (v && typeof v === 'object') {
			if (seen.has(v)) return '[circular]';
			seen.add(v);
		}
		if (v instanceof Error) return { ...v, message: v.message, stack: v.stack };
		return v;
	});
	return (text ?? '').includes(secret);
}

/** Items' pairedItem indexes, in output order. */
export function pairs(result: RunNodeResult): Array<number | undefined> {
	return result.items.map((item) => (item.pairedItem as { item: number } | undefined)?.item);
}

/** A sandbox of its own for one test (fast generations unless said otherwise): its limit's windows, counts and documents start afresh. */
export async function withSandbox<T>(
	options: SandboxOptions,
	body: (sb: Sandbox) => Promise<T>,
): Promise<T> {
	const sb = await startSandbox({ pendingMs: 20, generatingMs: 80, ...options });
	try {
		return await body(sb);
	} finally {
		await sb.close();
	}
}
