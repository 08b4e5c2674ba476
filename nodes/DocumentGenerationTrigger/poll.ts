/**
 * The polling trigger: one list walk per chosen event (`q[status]`), bounded by
 * `q[updated_since]` on the service's own timestamps; each document fires once per time it
 * reaches a chosen state, oldest first. Cursor and de-duplication live in
 * `shared/helpers/cursor.ts` (pure); this file does the requests and the n8n side.
 *
 * Static data is written only at the very end of a successful poll, so a poll that fails
 * halfway (n8n does not save its static data) loses nothing: the next one sees it all again.
 */
import type { IBinaryData, IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { downloadToBinary } from '../shared/generation';
import type {
	Entry,
	EventCursor,
	TriggerEvent,
	TriggerState,
	WalkFacts,
} from '../shared/helpers/cursor';
import {
	MAX_PASSES,
	OVERLAP_SECONDS,
	ServiceClock,
	TRIGGER_EVENTS,
	Walk,
	advance,
	entryOf,
	initialCursor,
	matches,
	mergeCursors,
	newest,
	oldestFirst,
	readState,
	serializeState,
} from '../shared/helpers/cursor';
import { normalizeDocument } from '../shared/helpers/document';
import { mapConcurrent } from '../shared/helpers/items';
import { InputError, parseBinaryPropertyName, parseListFilters } from '../shared/helpers/parse';
import type { ListFilters } from '../shared/transport/documents';
import { listDocumentCards } from '../shared/transport/documents';

/** Downloads at a time. */
const DOWNLOAD_CONCURRENCY = 8;
/** Pages in one walk, at most (24 cards each): a list that never ends is a service fault. */
const MAX_PAGES = 5000;

interface Settings {
	events: TriggerEvent[];
	/** The template and workspace filters. */
	filter: Pick<ListFilters, 'templateIds' | 'workspaceId'>;
	download: boolean;
	binaryPropertyName: string;
}

function readSettings(ctx: IPollFunctions): Settings {
	const rawEvents = ctx.getNodeParameter('events', ['success']) as unknown;
	// An expression may give an array or a comma-separated text.
	const list = (
		Array.isArray(rawEvents)
			? rawEvents
			: typeof rawEvents === 'string'
				? rawEvents.split(/[\s,;]+/)
				: [rawEvents]
	)
		.map((e) => (typeof e === 'string' ? e.trim() : e))
		.filter((e) => e !== '' && e !== undefined && e !== null);
	const events: TriggerEvent[] = [];
	for (const value of list) {
		if (!TRIGGER_EVENTS.includes(value as TriggerEvent)) {
			throw new InputError(
				`The event "${String(value)}" is not one the trigger knows`,
				'Choose Generation Succeeded and/or Generation Failed',
			);
		}
		if (!events.includes(value as TriggerEvent)) events.push(value as TriggerEvent);
	}
	if (!events.length) {
		throw new InputError(
			'No event is chosen',
			'Choose Generation Succeeded and/or Generation Failed under Events',
		);
	}
	const { templateIds, workspaceId } = parseListFilters(ctx.getNodeParameter('filters', {}));
	const filter = { templateIds, workspaceId };
	const download = ctx.getNodeParameter('download', false) === true;
	const binaryPropertyName = download
		? parseBinaryPropertyName(ctx.getNodeParameter('binaryPropertyName', 'data'))
		: 'data';
	return { events, filter, download, binaryPropertyName };
}

function listFilters(settings: Settings, event: TriggerEvent, since?: number | null): ListFilters {
	const filters: ListFilters = { ...settings.filter, status: event };
	if (since !== undefined && since !== null) filters.updatedSince = since;
	return filters;
}

interface WalkResult {
	walk: Walk;
	settled: boolean;
	requests: number;
}

/** What one poll learns besides the cards: the service's clock, and when each card arrived. */
class PollRun {
	readonly clock = new ServiceClock();
	readonly fetchedAt = new Map<string, number>();
}

/**
 * One page of the list; its `Date` and the signing times of its download links feed the
 * service clock.
 */
async function listPage(ctx: IPollFunctions, run: PollRun, filters: ListFilters, page: number) {
	const answer = await listDocumentCards(ctx, filters, page);
	const now = Date.now();
	run.clock.observe(answer.cards, now, answer.serverTime);
	for (const card of answer.cards) {
		const entry = entryOf(card);
		if (entry) run.fetchedAt.set(entry.key, now);
	}
	return answer;
}

/** What is known of a walk that began at host time `started`. */
function factsSince(run: PollRun, started: number): WalkFacts {
	return { durationMs: Date.now() - started, serviceStartMs: run.clock.lowerBoundAt(started) };
}

/** Walks every page of the list, again while the walks disagree (see `Walk`). */
async function walkList(
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
			if (pages >= MAX_PAGES) {
				throw new NodeOperationError(
					ctx.getNode(),
					`The document list did not end after ${MAX_PAGES} pages`,
					{
						description:
							'The service kept announcing a next page. Narrow the trigger with Filters, or report it if it persists.',
					},
				);
			}
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

interface Probe {
	entries: Entry[];
	settled: boolean;
	/** The bound of the walk after the first page, if there was one. */
	coveredSince?: number;
}

/**
 * Every card of one event that matters right now, without a cursor: the first page (any
 * order), then, if there are more pages, everything since the newest card of that page (less
 * the overlap). The newest card over all of it is the newest in the list.
 */
async function probe(
	ctx: IPollFunctions,
	run: PollRun,
	settings: Settings,
	event: TriggerEvent,
	started: number,
): Promise<Probe> {
	const first = await listPage(ctx, run, listFilters(settings, event), 1);
	const top = newest(
		first.cards.map(entryOf).filter((entry): entry is Entry => entry !== undefined),
	);
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
	const entries = [...walk.entries.values()].filter((entry) =>
		matches(entry.card, event, settings.filter),
	);
	return { entries, settled, coveredSince };
}

function toItem(entry: Entry): INodeExecutionData {
	return { json: normalizeDocument(entry.card as IDataObject) };
}

/** The files of the successful ones among `entries` (the action node's download rules). */
async function attachFiles(
	ctx: IPollFunctions,
	run: PollRun,
	settings: Settings,
	entries: Entry[],
	items: INodeExecutionData[],
): Promise<void> {
	if (!settings.download) return;
	const wanted = entries
		.map((entry, index) => ({ entry, index }))
		.filter(({ entry }) => entry.card.status === 'success');
	const files = await mapConcurrent(
		wanted,
		DOWNLOAD_CONCURRENCY,
		async ({ entry, index }): Promise<IBinaryData> =>
			await downloadToBinary(ctx, entry.card as IDataObject, index, {
				fetchedAt: run.fetchedAt.get(entry.key),
			}),
	);
	wanted.forEach(({ index }, i) => {
		items[index].binary = { [settings.binaryPropertyName]: files[i] };
	});
}

function describeFilters(settings: Settings): string {
	const parts = [`status ${settings.events.map((e) => `"${e}"`).join(' or ')}`];
	if (settings.filter.templateIds?.length)
		parts.push(`template ${settings.filter.templateIds.join(', ')}`);
	if (settings.filter.workspaceId) parts.push(`workspace ${settings.filter.workspaceId}`);
	return parts.join(', ');
}

/** "Fetch test event": the most recent matching document; never touches the cursor. */
async function manualRun(ctx: IPollFunctions, settings: Settings): Promise<INodeExecutionData[][]> {
	const candidates: Entry[] = [];
	const run = new PollRun();
	for (const event of settings.events) {
		const top = newest((await probe(ctx, run, settings, event, Date.now())).entries);
		if (top) candidates.push(top);
	}
	const latest = newest(candidates);
	if (!latest) {
		throw new NodeOperationError(
			ctx.getNode(),
			'No document matched the trigger: there is no finished document to show yet',
			{
				description: `No document has ${describeFilters(settings)}. Generate one (for example with the Document Generation node, Create with status "Pending"), or widen Events and Filters, then fetch a test event again.`,
			},
		);
	}
	const items = [toItem(latest)];
	await attachFiles(ctx, run, settings, [latest], items);
	return [items];
}

interface EventOutcome {
	event: TriggerEvent;
	/** What this poll computed from the state it started with. */
	next: EventCursor;
	fresh: Entry[];
}

export async function poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	let settings: Settings;
	try {
		settings = readSettings(this);
	} catch (error) {
		const hint = error instanceof InputError ? error.hint : undefined;
		throw new NodeOperationError(this.getNode(), error as Error, { description: hint });
	}
	if (this.getMode() === 'manual') return await manualRun(this, settings);

	const staticData = this.getWorkflowStaticData('node');
	const before = readState(staticData);
	const outcomes: EventOutcome[] = [];
	const run = new PollRun();
	for (const event of settings.events) {
		const started = Date.now();
		const prev = before[event];
		if (!prev) {
			// First poll for this event: remember where the list is, fire no history.
			const first = await probe(this, run, settings, event, started);
			const known = factsSince(run, started);
			const next = initialCursor(first.entries, {
				durationMs: known.durationMs,
				serviceStartMs: first.settled ? known.serviceStartMs : undefined,
				coveredSince: first.coveredSince,
			});
			outcomes.push({ event, next, fresh: [] });
			continue;
		}
		const { walk, settled, requests } = await walkList(
			this,
			run,
			listFilters(settings, event, prev.since),
			new Walk(prev),
			started,
		);
		if (!settled) {
			this.logger?.warn?.(
				`Document Generation Trigger: the "${event}" list kept changing over ${walk.passes} walks; the next poll looks at the same window again`,
			);
		}
		this.logger?.debug?.(
			`Document Generation Trigger: "${event}" list walked in ${requests} request(s), ${walk.passes} walk(s)`,
		);
		const entries = [...walk.entries.values()].filter((entry) =>
			matches(entry.card, event, settings.filter),
		);
		const { next, fresh } = advance(prev, entries, settled, factsSince(run, started));
		outcomes.push({ event, next, fresh });
	}

	// Files before the state is written: a download that fails fails the poll, and the next
	// poll fires the same documents again.
	const candidates = outcomes.flatMap((o) => o.fresh).sort(oldestFirst);
	const candidateItems = candidates.map(toItem);
	await attachFiles(this, run, settings, candidates, candidateItems);

	// Commit, synchronously: against the live state, in case another poll of this trigger
	// overlapped this one and already fired some of these.
	const live = readState(staticData);
	const state: TriggerState = {};
	const fired = new Set<string>();
	for (const outcome of outcomes) {
		const current = live[outcome.event];
		for (const entry of outcome.fresh) {
			if (!current || !Object.prototype.hasOwnProperty.call(current.seen, entry.key))
				fired.add(entry.key);
		}
		state[outcome.event] = current ? mergeCursors(current, outcome.next) : outcome.next;
	}
	const serialized = serializeState(state);
	if (
		staticData.version !== serialized.version ||
		JSON.stringify(serialized.events) !== JSON.stringify(serializeState(live).events)
	) {
		staticData.version = serialized.version;
		staticData.events = serialized.events;
	}

	const items = candidateItems.filter((_, i) => fired.has(candidates[i].key));
	return items.length ? [items] : null;
}
