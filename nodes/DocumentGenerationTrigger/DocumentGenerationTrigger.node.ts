// The polling trigger: per chosen event, each document fires once per time it reaches that state.
// Static data is written only at the end of a successful poll, so a failed poll loses nothing.
import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import {
	TRIGGER_SUBTITLE,
	triggerEvents,
	triggerFileOptions,
	templateIdsFilter,
	workspaceIdFilter,
} from '../shared/descriptions';
import {
	downloadToBinary,
	withLinkOf,
	DEFAULT_MAX_LIMIT_WAIT_MS,
	limitRequestsTo,
} from '../shared/transport';
import { normalizeDocument } from '../shared/helpers/document';
import { CONCURRENCY, mapConcurrent } from '../shared/helpers/items';
import * as listSearch from '../shared/methods/listSearch';
import * as loadOptions from '../shared/methods/loadOptions';
import { workspaceNamesOrNone } from '../shared/methods/workspaces';
import type { Entry, EventCursor, TriggerEvent, TriggerState } from './cursor';
import {
	Walk,
	advance,
	cursorForNewEvent,
	initialCursor,
	mergeCursors,
	newest,
	oldestFirst,
	readState,
	serializeState,
} from './cursor';
import type { Settings } from './list';
import { PollRun, factsSince, listFilters, probe, readSettings, walkList } from './list';

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
		CONCURRENCY,
		async ({ entry, index }) =>
			await downloadToBinary(ctx, entry.card as IDataObject, index, {
				fetchedAt: run.fetchedAt.get(entry.key),
				maxFileBytes: settings.maxFileBytes,
			}),
	);
	wanted.forEach(({ index }, i) => {
		items[index].json = withLinkOf(items[index].json, files[i]);
		items[index].binary = { [settings.binaryPropertyName]: files[i].binary };
	});
}

/** The filters in words, the workspace by its name (its id when the name cannot be read). */
async function describeFilters(ctx: IPollFunctions, settings: Settings): Promise<string> {
	const parts = [`status ${settings.events.map((e) => `"${e}"`).join(' or ')}`];
	if (settings.filter.templateIds?.length)
		parts.push(`template ${settings.filter.templateIds.join(', ')}`);
	const workspaceId = settings.filter.workspaceId;
	if (workspaceId) {
		const name = (await workspaceNamesOrNone(ctx)).get(workspaceId);
		parts.push(`workspace "${name ?? workspaceId}"`);
	}
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
	if (!latest)
		throw new NodeOperationError(
			ctx.getNode(),
			'No document matched the trigger: there is no finished document to show yet',
			{
				description: `No document has ${await describeFilters(ctx, settings)}. Generate one (for example with the Document Generation node, Create with status "Pending"), or widen Events and Filters, then fetch a test event again.`,
			},
		);
	const items = [toItem(latest)];
	await attachFiles(ctx, run, settings, [latest], items);
	return [items];
}

type EventOutcome = { event: TriggerEvent; next: EventCursor; fresh: Entry[] };

/** What a poll may wait for the service's request limit, and what to say when it asks more. */
const POLL_LIMIT = {
	maxWaitMs: DEFAULT_MAX_LIMIT_WAIT_MS,
	advice:
		'this poll fired nothing and changed nothing, and the next poll tries again. If it keeps happening, other workflows use up the request limit of this account: spread them over time, poll less often, or move to a plan with a higher limit.',
};

type PollScope = { ctx: IPollFunctions; run: PollRun; settings: Settings };

/** First poll of the trigger for an event: remember where the list is, fire no history. */
async function firstLook(scope: PollScope, event: TriggerEvent): Promise<EventOutcome> {
	const { ctx, run, settings } = scope;
	const started = Date.now();
	const first = await probe(ctx, run, settings, event, started);
	const known = factsSince(run, started);
	const next = initialCursor(first.entries, {
		durationMs: known.durationMs,
		serviceStartMs: first.settled ? known.serviceStartMs : undefined,
		coveredSince: first.coveredSince,
	});
	return { event, next, fresh: [] };
}

/** One event's list from its cursor: the documents that reached it since, and the next cursor. */
async function walkEvent(
	scope: PollScope,
	event: TriggerEvent,
	prev: EventCursor,
): Promise<EventOutcome> {
	const { ctx, run, settings } = scope;
	const started = Date.now();
	const filters = listFilters(settings, event, prev.since);
	const { walk, settled, requests } = await walkList(ctx, run, filters, new Walk(prev), started);
	if (!settled)
		ctx.logger?.warn?.(
			`Document Generation Trigger: the "${event}" list kept changing over ${walk.passes} walks; the next poll looks at the same window again`,
		);
	ctx.logger?.debug?.(
		`Document Generation Trigger: "${event}" list walked in ${requests} request(s), ${walk.passes} walk(s)`,
	);
	const entries = walk.matching(event, settings.filter);
	const { next, fresh } = advance(prev, entries, settled, factsSince(run, started));
	return { event, next, fresh };
}

/** Writes the cursors over the live state (a poll may have overlapped); the keys this one fires. */
function commit(staticData: IDataObject, outcomes: EventOutcome[]): Set<string> {
	const live = readState(staticData);
	const state: TriggerState = {};
	const fired = new Set<string>();
	for (const outcome of outcomes) {
		const current = live[outcome.event];
		for (const entry of outcome.fresh)
			if (!current || !Object.prototype.hasOwnProperty.call(current.seen, entry.key))
				fired.add(entry.key);
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
	return fired;
}

async function pollOnce(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = readSettings(this);
	limitRequestsTo(this, POLL_LIMIT);
	if (this.getMode() === 'manual') return await manualRun(this, settings);

	const staticData = this.getWorkflowStaticData('node');
	const before = readState(staticData);
	const outcomes: EventOutcome[] = [];
	const scope: PollScope = { ctx: this, run: new PollRun(), settings };
	for (const event of settings.events) {
		const prev = before[event] ?? cursorForNewEvent(before);
		outcomes.push(prev ? await walkEvent(scope, event, prev) : await firstLook(scope, event));
	}
	// Files before the state is written: a failed download fails the poll; the next fires them again.
	const candidates = outcomes.flatMap((o) => o.fresh).sort(oldestFirst);
	const candidateItems = candidates.map(toItem);
	await attachFiles(this, scope.run, settings, candidates, candidateItems);
	const fired = commit(staticData, outcomes);
	const items = candidateItems.filter((_, i) => fired.has(candidates[i].key));
	return items.length ? [items] : null;
}

export class DocumentGenerationTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Generation (PDFMonkey) Trigger',
		name: 'documentGenerationTrigger',
		icon: {
			light: 'file:../../icons/documentGeneration.svg',
			dark: 'file:../../icons/documentGeneration.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: TRIGGER_SUBTITLE,
		description: 'Starts the workflow when documents finish generating (success or failure)',
		defaults: { name: 'PDFMonkey Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'documentGenerationApi', required: true }],
		properties: [
			triggerEvents,
			{
				displayName: 'Filters',
				name: 'filters',
				type: 'collection',
				placeholder: 'Add Filter',
				default: {},
				options: [{ ...workspaceIdFilter }, { ...templateIdsFilter }],
			},
			...triggerFileOptions,
		],
	};

	methods = { listSearch, loadOptions };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollOnce.call(this);
	}
}
