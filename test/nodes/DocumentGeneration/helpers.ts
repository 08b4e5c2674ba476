/** Shared bits of the action node tests (engine: test/harness; service: test/sandbox). */
import type {
	IDataObject,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import {
	credentialsFor,
	displayedProperties,
	loadPackage,
	runNode,
	type NodeSettings,
	type RunNodeResult,
} from '../../harness';
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

/** Status as create and update show it (Pending by default, or Draft), with these help texts. */
export function statusField(help: {
	field: string;
	pending: string;
	draft: string;
}): INodeProperties {
	return {
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: [
			{ name: 'Pending (Generate Now)', value: 'pending', description: help.pending },
			{ name: 'Draft', value: 'draft', description: help.draft },
		],
		default: 'pending',
		description: help.field,
	};
}

/** Meta (JSON) as create and update show it, with this help text. */
export function metaField(description: string): INodeProperties {
	return { displayName: 'Meta (JSON)', name: 'meta', type: 'json', default: '{}', description };
}

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

/** `numberedCreate` with the Unique Key `INV-<n>` of each item, plus any other Options. */
export function keyedCreate(sb: Sandbox, options: INodeParameters = {}): INodeParameters {
	return createWithOptions(sb, { uniqueKey: '={{ "INV-" + $json.n }}', ...options });
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

/** What the library tests (snippets, template folders, templates) do on one sandbox. */
export function libraryOf(sb: Sandbox) {
	const workspace = (name = 'Acme Billing') => sb.workspaces.find((w) => w.identifier === name)!.id;
	const on = (resource: string, operation: string, extra: INodeParameters = {}) =>
		({ resource, operation, ...extra }) as INodeParameters;
	/** Runs an operation on a resource of a workspace (Acme Billing unless another is named). */
	const runInWorkspace = async (
		resource: string,
		operation: string,
		extra: INodeParameters,
		workspaceId = workspace(),
	) => await run(sb, on(resource, operation, { workspaceId: byId(workspaceId), ...extra }));
	const ofItem = (result: { items: Array<{ json: Record<string, unknown> }> }, key: string) =>
		result.items.map((i) => i.json[key]);
	/** The identifiers each of two input items gave, sorted. */
	const namesByItem = (result: Awaited<ReturnType<typeof run>>) =>
		[0, 1].map((n) =>
			result.items
				.filter((i) => (i.pairedItem as { item: number }).item === n)
				.map((i) => i.json.identifier)
				.sort(),
		);
	const sentBodies = (method: string) =>
		sb.requests.filter((r) => r.method === method).map((r) => r.body as Record<string, unknown>);
	/** Deletes each of `ids` from an item of its own; each item's answer names its id, none is left stored. */
	async function expectDeletedEach(
		resource: 'snippet' | 'templateFolder',
		byItemId: INodeParameters,
		ids: string[],
	) {
		const deleted = await run(
			sb,
			on(resource, 'delete', byItemId),
			ids.map((id) => ({ id })),
		);
		expect(ofItem(deleted, 'id')).toEqual(ids);
		const stored = resource === 'snippet' ? sb.library.snippets : sb.library.folders;
		expect(stored.some((kept) => ids.includes(kept.id))).toBe(false);
	}
	return {
		workspace,
		on,
		calls: () => sb.requests.map((r) => `${r.method} ${r.path}`),
		runInWorkspace,
		ofItem,
		namesByItem,
		sentBodies,
		expectDeletedEach,
	};
}

/** The action node's parameters named `name` that the editor shows for `values`. */
export function editorOf(): (values: INodeParameters, name: string) => INodeProperties[] {
	let action: INodeTypeDescription;
	beforeAll(async () => {
		action = (await loadPackage()).nodeDescription('documentGeneration');
	});
	return (values, name) => displayedProperties(action, values).filter((p) => p.name === name);
}

const LIBRARY_OPERATIONS = ['create', 'delete', 'get', 'getAll', 'update'];

/** The editor's view of a library resource: its operations, its locator's modes, the workspace. */
export function describeLibraryEditor(resource: string, locator: string, searchListMethod: string) {
	const shown = editorOf();
	const values = (p: INodeProperties) =>
		((p.options ?? []) as INodePropertyOptions[]).map((o) => o.value);
	describe(`resource ${resource}`, () => {
		test('its operations, Get Many first by default', () => {
			const [operation] = shown({ resource }, 'operation');
			expect(values(operation)).toEqual(LIBRARY_OPERATIONS);
			expect(operation.default).toBe('getAll');
		});

		test.each(['get', 'update', 'delete'])(`${locator}: list and ID modes for %s`, (operation) => {
			const [p] = shown({ resource, operation }, locator);
			expect(p.type).toBe('resourceLocator');
			expect(p.modes!.map((m) => m.name).sort()).toEqual(['id', 'list']);
			const list = p.modes!.find((m) => m.name === 'list')!;
			expect(list.typeOptions).toMatchObject({ searchListMethod, searchable: true });
			const id = p.modes!.find((m) => m.name === 'id')!;
			const regex = new RegExp(
				(id.validation![0] as unknown as { properties: { regex: string } }).properties.regex,
			);
			expect(regex.test('1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d')).toBe(true);
			expect(regex.test('company-footer')).toBe(false);
		});

		test('create and Get Many take a workspace; the others do not', () => {
			for (const operation of ['create', 'getAll'])
				expect(shown({ resource, operation }, 'workspaceId')).toHaveLength(1);
			for (const operation of ['get', 'update', 'delete'])
				expect(shown({ resource, operation }, 'workspaceId')).toHaveLength(0);
			expect(shown({ resource, operation: 'getAll' }, 'returnAll')).toHaveLength(1);
		});
	});
}
