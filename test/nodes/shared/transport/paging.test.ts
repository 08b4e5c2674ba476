/** Unit tests of the list's query forms and the shared paging bound (nodes/shared/transport/). */
import type { INode } from 'n8n-workflow';

import { parseSearchFilters } from '../../../../nodes/DocumentGeneration/descriptions/documentOptions';
import { filterQuery } from '../../../../nodes/shared/transport/documents';
import {
	MAX_LIST_PAGES,
	REQUESTED_PAGE_SIZE,
	nextPageAfter,
	unendingListError,
} from '../../../../nodes/shared/transport/paging';
import { buildQuery } from '../../../../nodes/shared/transport/request';
import { nodeFixture } from '../../../harness/fixtures';

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
