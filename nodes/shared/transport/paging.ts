/**
 * Paging of the service's lists: the one bound every loop over pages shares, the one error past
 * it, and what a run learns of the page size the service really serves.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The cards a page is asked to hold (`page[size]`): the most the service serves. */
export const REQUESTED_PAGE_SIZE = 100;

/** The cards a page holds when the service ignores `page[size]` (its default). */
export const DEFAULT_PAGE_SIZE = 24;

/**
 * Pages one read of a list may take, at most: 2,000 pages hold 200,000 documents at 100 a page
 * (48,000 if the service ignores the size asked for), far more than any list narrowed by the
 * nodes' filters holds, and a list that never ends fails after a few seconds against a local
 * server instead of being followed forever.
 */
export const MAX_LIST_PAGES = 2000;

/** Where a list is read, which decides how the request can be narrowed. */
export type ListReader =
	| 'getAll'
	| 'trigger'
	| 'lookUp'
	| 'wait'
	| 'picker'
	| 'workspaces'
	| 'library';

const NARROW: Record<ListReader, string> = {
	getAll:
		'Narrow the request: add a template, status, workspace or Updated Since filter, or turn off Return All and set a Limit.',
	trigger: 'Narrow the trigger with its Filters (templates, workspace).',
	lookUp:
		'Narrow the look-up: a shorter Reuse Window (Options) reads fewer recent documents of the templates involved.',
	wait: 'Fewer documents in one run (or a smaller batch with Loop Over Items) keeps the list short.',
	picker: 'Type part of the document’s file name or its ID to narrow the list.',
	workspaces: 'Enter the workspace by its ID instead of choosing it from the list.',
	library: 'The service answers this list in one page (page=all): enter the record by its ID.',
};

export interface UnendingList {
	reader: ListReader;
	/** Pages read when the fault was seen. */
	pages: number;
	/** A page that named a next page not after itself: that page and what it named. */
	backwards?: { page: number; next: number };
	itemIndex?: number;
	/** The list's name when it is not the document or workspace list: "snippet list". */
	list?: string;
}

/**
 * The error of a list that does not end: past `MAX_LIST_PAGES`, or a page that names a next
 * page that is not after itself (which would loop). Names the bound and how to narrow.
 */
export function unendingListError(node: INode, fault: UnendingList): NodeOperationError {
	const { reader, pages, backwards, itemIndex } = fault;
	const list = fault.list ?? (reader === 'workspaces' ? 'workspace list' : 'document list');
	const message = backwards
		? `The ${list} did not end: page ${backwards.page} named page ${backwards.next} as the next one`
		: `The ${list} did not end after ${MAX_LIST_PAGES} pages`;
	const held =
		reader === 'workspaces' || reader === 'library'
			? `${pages} read`
			: `${pages} read, up to ${MAX_LIST_PAGES * REQUESTED_PAGE_SIZE} documents at ${REQUESTED_PAGE_SIZE} a page`;
	const why = backwards
		? 'A next page must come after the current one; following it would read the same pages for ever.'
		: `The service kept announcing a next page; a list is read for ${MAX_LIST_PAGES} pages at most (${held}).`;
	return new NodeOperationError(node, message, {
		description: `${why} ${NARROW[reader]} Report it to the service if it persists.`,
		...(itemIndex !== undefined ? { itemIndex } : {}),
	});
}

/**
 * The page that follows `page`, from the list's `next_page`: null at the end (no next page, or
 * an empty page, which cannot be followed by more). A next page that is not after `page` is a
 * fault (it would loop): the error says so.
 */
export function nextPageAfter(
	page: number,
	next: unknown,
	cardsOnPage: number,
): number | null | { backwards: number } {
	if (typeof next !== 'number' || !Number.isFinite(next) || cardsOnPage === 0) return null;
	return next > page ? next : { backwards: next };
}
