/* eslint-disable no-console, @n8n/community-nodes/no-hardcoded-secrets -- test code: runs in Node under jest, never inside n8n */
/**
 * The document list and the paging every list shares (nodes/shared/transport/documents.ts): the
 * list's query forms, the shared paging bound, and every list read to its end or failing clearly.
 */
import type { INode, INodeParameters } from 'n8n-workflow';

import { parseSearchFilters } from '../../../../nodes/DocumentGeneration/descriptions/documentOptions';
import {
	filterQuery,
	MAX_LIST_PAGES,
	nextPageAfter,
	REQUESTED_PAGE_SIZE,
	unendingListError,
} from '../../../../nodes/shared/transport/documents';
import { buildQuery } from '../../../../nodes/shared/transport/request';
import { createPoller, listSearch, runNode } from '../../../harness';
import { nodeFixture } from '../../../harness/fixtures';
import { type EndlessList, startEndlessList } from '../../../resilience/hostile';
import { type LoggedRequest, type Sandbox, startSandbox } from '../../../sandbox';
import {
	apiRequests,
	CONTINUE,
	keyedCreate,
	listRequests,
	numbered,
	numberedCreate,
	run,
	templateId,
	withSandbox,
} from '../../DocumentGeneration/helpers';
import { finishMany, itemsOf, T0 } from '../../DocumentGenerationTrigger/helpers';

const node: INode = nodeFixture();
const A = '6a0c0b6e-3c1e-4c55-9d2f-0d1b3f3b9a11';
const B = '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';

describe('filterQuery: the service\u2019s own forms', () => {
	test('one template as q[document_template_id]=ID, several comma-joined, never the [] form', () => {
		expect(filterQuery({ templateIds: [A] })).toEqual([['q[document_template_id]', A]]);
		expect(filterQuery({ templateIds: [A, B, A] })).toEqual([
			['q[document_template_id]', `${A},${B}`],
		]);
		expect(buildQuery(filterQuery({ templateIds: [A, B] }))).toBe(
			`?q%5Bdocument_template_id%5D=${A}%2C${B}`,
		);
		expect(filterQuery({ templateIds: [] })).toEqual([]);
	});

	test('one status as q[status], several as q[status][] each; Status and Statuses together', () => {
		expect(filterQuery({ status: 'success' })).toEqual([['q[status]', 'success']]);
		expect(filterQuery({ statuses: ['pending'] })).toEqual([['q[status]', 'pending']]);
		expect(filterQuery({ status: 'failure', statuses: ['draft', 'failure'] })).toEqual([
			['q[status][]', 'failure'],
			['q[status][]', 'draft'],
		]);
		expect(filterQuery({ search: 'Invoice-7' })).toEqual([['q[search]', 'Invoice-7']]);
	});
});

describe('Get Many: Statuses and Search', () => {
	test('an array, or a comma-separated text; each status checked; search trimmed', () => {
		expect(parseSearchFilters({ statuses: ['pending', 'generating', 'pending'] })).toEqual({
			statuses: ['pending', 'generating'],
		});
		expect(parseSearchFilters({ statuses: 'success, failure', search: '  inv ' })).toEqual({
			statuses: ['success', 'failure'],
			search: 'inv',
		});
		expect(parseSearchFilters({ statuses: [], search: '' })).toEqual({});
		expect(() => parseSearchFilters({ statuses: ['Success'] })).toThrow(
			'The status "Success" in Statuses is not one the list accepts',
		);
		expect(() => parseSearchFilters({ search: { a: 1 } })).toThrow(
			'The Search filter must be text',
		);
		expect(() => parseSearchFilters({ search: 'x'.repeat(256) })).toThrow(
			'The Search filter is 256 characters long',
		);
	});
});

describe('the shared paging bound', () => {
	test('a next page must come after the current one; none after an empty page', () => {
		expect(nextPageAfter(1, 2, 100)).toBe(2);
		expect(nextPageAfter(3, null, 100)).toBeNull();
		expect(nextPageAfter(3, undefined, 100)).toBeNull();
		expect(nextPageAfter(3, 4, 0)).toBeNull();
		expect(nextPageAfter(3, 3, 100)).toEqual({ backwards: 3 });
		expect(nextPageAfter(3, 1, 100)).toEqual({ backwards: 1 });
		expect(nextPageAfter(3, Number.NaN, 100)).toBeNull();
	});

	test('one message, naming the bound and how to narrow where the list was read', () => {
		const endless = unendingListError(node, { reader: 'getAll', pages: MAX_LIST_PAGES });
		expect(endless.message).toBe(`The document list did not end after ${MAX_LIST_PAGES} pages`);
		expect(endless.description).toContain(`${MAX_LIST_PAGES} pages at most`);
		expect(endless.description).toContain(
			`${MAX_LIST_PAGES * REQUESTED_PAGE_SIZE} documents at ${REQUESTED_PAGE_SIZE} a page`,
		);
		expect(endless.description).toContain('Return All');
		const trigger = unendingListError(node, { reader: 'trigger', pages: MAX_LIST_PAGES });
		expect(trigger.message).toBe(endless.message);
		expect(trigger.description).toContain('Filters');
		const loop = unendingListError(node, {
			reader: 'lookUp',
			pages: 4,
			backwards: { page: 4, next: 2 },
			itemIndex: 3,
		});
		expect(loop.message).toBe('The document list did not end: page 4 named page 2 as the next one');
		expect(loop.description).toContain('Reuse Window');
		expect(loop.context.itemIndex).toBe(3);
	});
});

const KEY = 'sk_test_paging_0123456789';

/** Get Many of every document that matches these Filters. */
const listWith = async (sb: Sandbox, filters: INodeParameters) =>
	await run(sb, { resource: 'document', operation: 'getAll', returnAll: true, filters });
const ARRAY_FORM = 'q[document_template_id][]';

/** No list request anywhere in the log used the `[]` form of the template filter. */
function expectServiceForms(requests: LoggedRequest[]) {
	const lists = requests.filter((r) => r.path === '/api/v1/document_cards');
	expect(lists.length).toBeGreaterThan(0);
	for (const r of lists) {
		expect(r.query[ARRAY_FORM]).toBeUndefined();
		expect(r.query['page[size]']).toBe('100');
		expect(r.status).toBe(200);
	}
}

const honourings = [
	['honours page[size]', true],
	['ignores page[size] (24 a page)', false],
] as const;

describe.each(honourings)('a service that %s', (label, honourPageSize) => {
	test('Get Many with Return All of 500: complete, each document once, at most 7 requests when honoured', async () => {
		await withSandbox({ honourPageSize }, async (sb) => {
			const invoice = templateId(sb);
			const made = new Set<string>();
			for (let i = 0; i < 500; i++)
				made.add(sb.createDocument({ status: 'success', document_template_id: invoice }).id);
			for (let i = 0; i < 30; i++)
				sb.createDocument({ status: 'success', document_template_id: templateId(sb, 'receipt') });
			sb.resetRequests();
			const result = await listWith(sb, { templateIds: [invoice] });
			expect(result.error).toBeUndefined();
			const ids = result.items.map((i) => String(i.json.id));
			expect(ids).toHaveLength(500);
			expect(new Set(ids)).toEqual(made);
			const requests = listRequests(sb).length;
			console.log(`Get Many of 500, service ${label}: ${requests} list requests`);
			expect(requests).toBeLessThanOrEqual(honourPageSize ? 7 : Math.ceil(500 / 24));
			expect(listRequests(sb)[0].query['q[document_template_id]']).toBe(invoice);
			expectServiceForms(sb.requests);
		});
	});

	test('the polling trigger after a burst of 600 finished documents: each fires once, two walks of the pages the service served', async () => {
		const sb = await startSandbox({ clock: 'manual', startTime: T0, seed: 7, honourPageSize });
		try {
			const invoice = templateId(sb);
			const receipt = templateId(sb, 'receipt');
			const poller = await createPoller({
				parameters: { events: ['success'], filters: { templateIds: [invoice, receipt] } },
				credentials: { apiKey: sb.apiKey, baseUrl: sb.url },
			});
			expect(await poller.poll()).toBeNull();
			sb.clock.advance(10_000);
			expect(await poller.poll()).toBeNull();
			sb.clock.advance(1000);
			const ids: string[] = [];
			for (let i = 0; i < 600; i++) {
				ids.push(...finishMany(sb, 1, { document_template_id: i % 2 ? invoice : receipt }));
				if (i % 50 === 0) sb.clock.advance(97);
			}
			finishMany(sb, 5, { document_template_id: templateId(sb, 'payslip') });
			sb.resetRequests();
			const items = itemsOf(await poller.poll());
			const fired = items.map((i) => String(i.json.id));
			expect(fired).toHaveLength(600);
			expect(new Set(fired)).toEqual(new Set(ids));
			const requests = listRequests(sb).length;
			console.log(`Trigger after a burst of 600, service ${label}: ${requests} list requests`);
			// A walk of several pages is confirmed by a second one (a card that left the list while
			// it was paged shifts the rest: see cursor/walk.ts): 2 x 6 pages of 100, 2 x 25 of 24.
			expect(requests).toBe(2 * Math.ceil(600 / (honourPageSize ? 100 : 24)));
			expect(listRequests(sb)[0].query['q[document_template_id]']).toBe(`${invoice},${receipt}`);
			expectServiceForms(sb.requests);
			sb.clock.advance(60_000);
			expect(await poller.poll()).toBeNull();
		} finally {
			await sb.close();
		}
	});

	test('a keyed run of 12 over 480 recent documents: every item once, at most the plain run + 8 when honoured', async () => {
		await withSandbox({ honourPageSize }, async (sb) => {
			const invoice = templateId(sb);
			for (let i = 0; i < 480; i++) {
				const at = Date.now() - (i + 1) * 60_000;
				sb.createDocument({
					document_template_id: invoice,
					status: 'success',
					meta: { other: i },
					created_at: at,
					updated_at: at,
				});
			}
			sb.resetRequests();
			const plain = await run(sb, numberedCreate(sb), numbered(12));
			expect(plain.items.filter((i) => i.json.status === 'success')).toHaveLength(12);
			const plainRequests = apiRequests(sb).length;
			sb.resetRequests();
			const keyedParameters = keyedCreate(sb);
			const keyed = await run(sb, keyedParameters, numbered(12));
			expect(keyed.error).toBeUndefined();
			expect(keyed.items.filter((i) => i.json.origin === 'created')).toHaveLength(12);
			const keyedRequests = apiRequests(sb).length;
			console.log(
				`A run of 12 over 480 recent documents, service ${label}: plain ${plainRequests} requests, keyed ${keyedRequests}`,
			);
			if (honourPageSize) expect(keyedRequests).toBeLessThanOrEqual(plainRequests + 8);
			expectServiceForms(sb.requests);
			// Run again: every item finds its document, none is made twice.
			sb.resetRequests();
			const again = await run(sb, keyedParameters, numbered(12));
			expect(again.items.map((i) => i.json.origin)).toEqual(Array(12).fill('reused'));
			expect(sb.documents.size).toBe(480 + 12 + 12);
		});
	});
});

describe('Get Many by several statuses and by part of a file name', () => {
	test('Statuses goes out as q[status][] each, Search as q[search]; Status alone stays q[status]', async () => {
		await withSandbox({ pendingMs: 60_000 }, async (sb) => {
			const invoice = templateId(sb);
			const pending = await run(sb, numberedCreate(sb, { waitForCompletion: false }), [{ n: 1 }]);
			const pendingId = String(pending.items[0].json.id);
			const draft = sb.createDocument({ status: 'draft', document_template_id: invoice }).id;
			const failed = sb.createDocument({ status: 'failure', document_template_id: invoice }).id;
			const named = sb.createDocument({
				status: 'success',
				document_template_id: invoice,
				meta: { _filename: 'Invoice-2026-07' },
			}).id;
			sb.createDocument({ status: 'success', meta: { _filename: 'invoice-2026-08' } });
			sb.resetRequests();

			const several = await listWith(sb, { statuses: ['pending', 'draft'] });
			expect(several.error).toBeUndefined();
			expect(several.items.map((i) => i.json.id).sort()).toEqual([pendingId, draft].sort());
			expect(listRequests(sb)[0].query['q[status][]']).toEqual(['pending', 'draft']);
			expect(listRequests(sb)[0].query['q[status]']).toBeUndefined();

			sb.resetRequests();
			const both = await listWith(sb, { status: 'failure', statuses: ['draft'] });
			expect(both.items.map((i) => i.json.id).sort()).toEqual([failed, draft].sort());

			sb.resetRequests();
			const one = await listWith(sb, { status: 'failure' });
			expect(one.items.map((i) => i.json.id)).toEqual([failed]);
			expect(listRequests(sb)[0].query['q[status]']).toBe('failure');

			sb.resetRequests();
			const search = await listWith(sb, { search: 'Invoice-2026' });
			// Case-sensitive, as the service searches: the lower-case file name is not found.
			expect(search.items.map((i) => i.json.id)).toEqual([named]);
			expect(listRequests(sb)[0].query['q[search]']).toBe('Invoice-2026');

			const byId = await listWith(sb, { search: pendingId });
			expect(byId.items.map((i) => i.json.id)).toEqual([pendingId]);
		});
	});

	test('an unknown status in Statuses fails the item before anything is sent', async () => {
		await withSandbox({}, async (sb) => {
			sb.resetRequests();
			const result = await run(
				sb,
				{
					resource: 'document',
					operation: 'getAll',
					filters: { statuses: '={{ ["success", "done"] }}' },
				},
				[{}],
				CONTINUE,
			);
			expect(result.items[0].json.error).toBe(
				'The status "done" in Statuses is not one the list accepts (item 1)',
			);
			expect(apiRequests(sb)).toHaveLength(0);
		});
	});
});

// ---- a service whose list never ends ----

/** A document list whose every page names a next one (`next` decides which): one card a page. */
const endlessService = (next: (page: number) => number) =>
	startEndlessList(next, {
		'/api/v1/document_cards': {
			key: 'document_cards',
			record: (page, query) => ({
				id: `doc-${page}`,
				status: 'success',
				document_template_id: query.get('q[document_template_id]'),
				updated_at: new Date(Date.now() - 1000).toISOString(),
				meta: '{}',
			}),
		},
	});

const TEMPLATE = '6a0c0b6e-3c1e-4c55-9d2f-0d1b3f3b9a11';
const MAX_PAGES = 2000;

async function timed<T>(body: () => Promise<T>): Promise<{ value: T; ms: number }> {
	const started = Date.now();
	const value = await body();
	return { value, ms: Date.now() - started };
}

describe('a list that never ends', () => {
	let service: EndlessList;
	beforeEach(async () => {
		service = await endlessService((page) => page + 1);
	});
	afterEach(async () => await service.close());
	const credentials = () => ({ apiKey: KEY, baseUrl: service.url });

	test('Get Many with Return All: the shared bound, a clear error after exactly 2,000 requests, naming how to narrow', async () => {
		const { value: result, ms } = await timed(() =>
			runNode({
				parameters: { resource: 'document', operation: 'getAll', returnAll: true },
				credentials: credentials(),
			}),
		);
		console.log(`Get Many over an endless list: ${service.requests()} requests, ${ms} ms`);
		expect(result.error?.message).toBe(`The document list did not end after ${MAX_PAGES} pages`);
		expect(result.error?.description).toMatch(/Return All/);
		expect(result.error?.description).toMatch(/2000 pages at most/);
		expect(JSON.stringify(result.error)).not.toContain(KEY);
		expect(service.requests()).toBe(MAX_PAGES);
	});

	test('the Unique Key look-up: the same bound and message, nothing created', async () => {
		const { value: result, ms } = await timed(() =>
			runNode({
				parameters: {
					resource: 'document',
					operation: 'create',
					templateId: { __rl: true, mode: 'id', value: TEMPLATE },
					payload: '{"n": 1}',
					options: { uniqueKey: 'INV-1' },
				},
				credentials: credentials(),
			}),
		);
		console.log(
			`Unique Key look-up over an endless list: ${service.requests()} requests, ${ms} ms`,
		);
		expect(result.error?.message).toBe(`The document list did not end after ${MAX_PAGES} pages`);
		expect(result.error?.description).toMatch(/Reuse Window/);
		expect(service.requests()).toBe(MAX_PAGES);
	});

	test('the polling trigger: the same bound and message', async () => {
		const poller = await createPoller({
			parameters: { events: ['success'] },
			credentials: credentials(),
		});
		const started = Date.now();
		await expect(poller.poll()).rejects.toThrow(
			`The document list did not end after ${MAX_PAGES} pages`,
		);
		console.log(
			`Polling trigger over an endless list: ${service.requests()} requests, ${Date.now() - started} ms`,
		);
		expect(service.requests()).toBeLessThanOrEqual(MAX_PAGES + 1);
	});

	test('the document picker stops at the bound', async () => {
		const near = await listSearch('searchDocuments', {
			credentials: credentials(),
			paginationToken: String(MAX_PAGES),
		});
		expect(near.results).toHaveLength(1);
		await expect(
			listSearch('searchDocuments', {
				credentials: credentials(),
				paginationToken: String(MAX_PAGES + 1),
			}),
		).rejects.toThrow(`The document list did not end after ${MAX_PAGES} pages`);
	});
});

describe('a next page that does not advance', () => {
	test.each([
		['the same page', (page: number) => page],
		['an earlier page', (page: number) => Math.max(1, page - 1)],
	])('naming %s fails at once with the page it named', async (_label, next) => {
		const service = await endlessService((page) => (page < 3 ? page + 1 : next(page)));
		try {
			const result = await runNode({
				parameters: { resource: 'document', operation: 'getAll', returnAll: true },
				credentials: { apiKey: KEY, baseUrl: service.url },
			});
			expect(result.error?.message).toBe(
				`The document list did not end: page 3 named page ${next(3)} as the next one`,
			);
			expect(service.requests()).toBe(3);
			const poller = await createPoller({
				parameters: { events: ['success'] },
				credentials: { apiKey: KEY, baseUrl: service.url },
			});
			await expect(poller.poll()).rejects.toThrow(`page 3 named page ${next(3)} as the next one`);
		} finally {
			await service.close();
		}
	});
});
