// The polling trigger's settings, and the reading of one event's list (its pages and the clock).
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { readChecked } from '../shared/helpers/items';
import { DEFAULT_MAX_FILE_MB, parseListFilters } from '../shared/helpers/parse';
import { parseFileOption, parseTriggerEvents } from '../shared/helpers/triggerOptions';
import { checkPageBound, listDocumentCards } from '../shared/transport';
import type { ListFilters } from '../shared/types';
import type { Entry, EventFilter, TriggerEvent, WalkFacts } from './cursor';
import { MAX_PASSES, OVERLAP_SECONDS, ServiceClock, Walk, entryOf, newest } from './cursor';

export interface Settings extends ReturnType<typeof parseFileOption> {
	events: TriggerEvent[];
	filter: EventFilter;
}

/** The trigger's settings; refused input is the node's error, with its hint. */
export function readSettings(ctx: IPollFunctions): Settings {
	return readChecked(ctx, () => read(ctx));
}

function read(ctx: IPollFunctions): Settings {
	const events = parseTriggerEvents(ctx.getNodeParameter('events', ['success']));
	const { templateIds, workspaceId } = parseListFilters(ctx.getNodeParameter('filters', {}));
	const filter = { templateIds, workspaceId };
	const file = parseFileOption(
		ctx.getNodeParameter('download', false),
		() => ctx.getNodeParameter('binaryPropertyName', 'data'),
		() => ctx.getNodeParameter('maxFileSize', DEFAULT_MAX_FILE_MB),
	);
	return { events, filter, ...file };
}

export function listFilters(
	settings: Settings,
	event: TriggerEvent,
	since?: number | null,
): ListFilters {
	const filters: ListFilters = { ...settings.filter, status: event };
	if (since !== undefined && since !== null) filters.updatedSince = since;
	return filters;
}

/** The trigger's list calls: a list that never ends fails with the shared bound's error. */
const TRIGGER_LIST = { reader: 'trigger' } as const;

export type WalkResult = { walk: Walk; settled: boolean; requests: number };

/** What one poll learns besides the cards: the service's clock, and when each card arrived. */
export class PollRun {
	readonly clock = new ServiceClock();
	readonly fetchedAt = new Map<string, number>();
}

/** One page of the list; its `Date` and its download links' signing times feed the clock. */
export async function listPage(
	ctx: IPollFunctions,
	run: PollRun,
	filters: ListFilters,
	page: number,
) {
	const answer = await listDocumentCards(ctx, filters, page, TRIGGER_LIST);
	const now = Date.now();
	run.clock.observe(answer.cards, now, answer.serverTime);
	for (const card of answer.cards) {
		const entry = entryOf(card);
		if (entry) run.fetchedAt.set(entry.key, now);
	}
	return answer;
}

/** What is known of a walk that began at host time `started`. */
export function factsSince(run: PollRun, started: number): WalkFacts {
	return { durationMs: Date.now() - started, serviceStartMs: run.clock.lowerBoundAt(started) };
}

/** Walks every page of the list, again while the walks disagree (see `Walk`). */
export async function walkList(
	ctx: IPollFunctions,
	run: PollRun,
	filters: ListFilters,
	walk: Walk,
	started: number,
): Promise<WalkResult> {
	let settled = false;
	let requests = 0;
	while (!settled && walk.passes < MAX_PASSES) {
		const cards: IDataObject[] = [];
		let pages = 0;
		for (let page: number | null = 1; page !== null; ) {
			checkPageBound(ctx, pages, TRIGGER_LIST);
			const answer = await listPage(ctx, run, filters, page);
			requests++;
			pages++;
			cards.push(...answer.cards);
			page = answer.nextPage;
		}
		settled = walk.addPass(cards, pages, factsSince(run, started));
	}
	return { walk, settled, requests };
}

/** `coveredSince`: the bound of the walk after the first page, if there was one. */
export type Probe = { entries: Entry[]; settled: boolean; coveredSince?: number };

/** One event's cards without a cursor: page 1, then all since its newest card less the overlap. */
export async function probe(
	ctx: IPollFunctions,
	run: PollRun,
	settings: Settings,
	event: TriggerEvent,
	started: number,
): Promise<Probe> {
	const first = await listPage(ctx, run, listFilters(settings, event), 1);
	const top = newest(first.cards.map(entryOf).filter((e): e is Entry => e !== undefined));
	let settled = true;
	let coveredSince: number | undefined;
	let walk = new Walk();
	if (first.nextPage === null) {
		walk.addPass(first.cards, 1);
	} else {
		// Without a readable time on the first page, nothing better than walking it all.
		if (top?.ms !== undefined) coveredSince = Math.floor(top.ms / 1000) - OVERLAP_SECONDS;
		walk = new Walk({ cursor: top?.ms ?? null, since: coveredSince ?? null });
		settled = (await walkList(ctx, run, listFilters(settings, event, coveredSince), walk, started))
			.settled;
		walk.addPass(first.cards, 1);
	}
	return { entries: walk.matching(event, settings.filter), settled, coveredSince };
}
