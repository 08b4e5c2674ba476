/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * The polling trigger on n8n's PollContext (harness `createPoller`) against the sandbox, with
 * the sandbox's manual clock driving service time: activation and polls, the service clock,
 * events, filters and files, static data, Max File Size, n8n's log, and what "Fetch test
 * event" shows (a manual run with nothing matching, its file and renewed link). Needs
 * `npm run build` first.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { linkExpiry } from '../../../nodes/shared/helpers/linkExpiry';
import { createPoller, credentialsFor, describeError, getBinaryBuffer } from '../../harness';
import { withFirstLinkExpired } from '../../harness/fixtures';
import type { Sandbox } from '../../sandbox';
import { fileRequests } from '../DocumentGeneration/helpers';
import {
	LIST_PATH,
	T0,
	expectOldestFirst,
	finishMany,
	holdSecondPage,
	itemsOf,
	keysOf,
	listRequests,
	listRequestsSeen,
	recordKey,
	rig,
	rigSandbox,
	type Rig,
} from './helpers';

const MB = 1024 * 1024;

let current: Sandbox | undefined;
afterEach(async () => {
	jest.restoreAllMocks();
	await current?.close();
	current = undefined;
});

async function setup(...args: Parameters<typeof rig>): Promise<Rig> {
	const made = await rig(...args);
	current = made.sb;
	return made;
}

async function sandbox(): Promise<Sandbox> {
	current = await rigSandbox();
	return current;
}

/** Documents finished before activation, then time past the overlap; the first poll fires none. */
async function activated(r: Rig): Promise<void> {
	for (let i = 0; i < 3; i++) {
		r.sb.createDocument({ status: 'success' });
		r.sb.clock.advance(137);
	}
	r.sb.clock.advance(10_000);
	expect(await r.poller.poll()).toBeNull();
}

test('a wait longer than a poll accepts: the error says the poll changed nothing and what to do', async () => {
	const r = await setup();
	await activated(r);
	r.sb.faults.add({
		type: 'status',
		status: 429,
		retryAfter: '600',
		method: 'GET',
		path: LIST_PATH,
	});
	const info = describeError(
		await r.poller.poll().then(
			() => undefined,
			(e: unknown) => e,
		),
	);
	expect([info.message, info.description]).toEqual([
		'The service asked to wait 600 s before the next request (429 Too Many Requests) while trying to list documents (page 1)',
		"That is longer than the longest wait this trigger accepts (120 s), so nothing more was sent. The account's request limit is spent for now: this poll fired nothing and changed nothing, and the next poll tries again. If it keeps happening, other workflows use up the request limit of this account: spread them over time, poll less often, or move to a plan with a higher limit.",
	]);
});

describe('static data', () => {
	test('a poll that finds nothing new and leaves the state as it was writes nothing to it', async () => {
		const r = await setup();
		await activated(r);
		const root = r.poller.workflowStaticData();
		// An idle poll may still raise the bound (a walk quicker by a whole second than those
		// before it, which can happen at most once for each second the first walk took): polls
		// until one leaves the state as it was, which must write nothing; one that moved the
		// bound must write it.
		const changed: unknown[] = [];
		let unchanged: { written: unknown } | undefined;
		for (let i = 0; i < 20 && !unchanged; i++) {
			const before = JSON.stringify(r.poller.staticData());
			root.__dataChanged = false;
			expect(await r.poller.poll()).toBeNull();
			if (JSON.stringify(r.poller.staticData()) === before)
				unchanged = { written: root.__dataChanged };
			else changed.push(root.__dataChanged);
		}
		expect(unchanged).toEqual({ written: false });
		expect(changed).toEqual(changed.map(() => true));

		// A poll that fires a document does write it.
		r.sb.clock.advance(1000);
		const [fresh] = finishMany(r.sb, 1);
		root.__dataChanged = false;
		expect(keysOf(await r.poller.poll())).toEqual([recordKey(r.sb, fresh)]);
		expect(root.__dataChanged).toBe(true);
	});
});

/** Page `page` of a list of two pages at most, holding the cards of these documents. */
function pageOf(sb: Sandbox, ids: string[], page: 1 | 2, pages: 1 | 2) {
	return {
		document_cards: ids.map((id) => sb.cardJson(id)),
		meta: { current_page: page, next_page: page < pages ? page + 1 : null, total_pages: pages },
	};
}

/** The next list requests answered with these pages, one each, in order. */
function answerListWith(sb: Sandbox, pages: object[]): void {
	for (const body of pages)
		sb.faults.add({ type: 'status', status: 200, method: 'GET', path: LIST_PATH, body });
}

test('a card the service lists outside the chosen event does not fire', async () => {
	const r = await setup();
	await activated(r);
	r.sb.clock.advance(1000);
	const [good] = finishMany(r.sb, 1);
	const [bad] = finishMany(r.sb, 1, { status: 'failure' });
	// A list of successes that also holds the failure, as a service ignoring q[status] would answer.
	answerListWith(r.sb, [pageOf(r.sb, [good, bad], 1, 1)]);
	expect(keysOf(await r.poller.poll())).toEqual([recordKey(r.sb, good)]);
});

test('with Download File off, a success fires without its file and no file is fetched', async () => {
	const r = await setup({ events: ['success'], download: false });
	await activated(r);
	r.sb.clock.advance(1000);
	const [id] = finishMany(r.sb, 1);
	r.sb.resetRequests();
	const [item] = itemsOf(await r.poller.poll());
	expect(item.json.id).toBe(id);
	expect(item.binary).toBeUndefined();
	expect(fileRequests(r.sb)).toEqual([]);
});

describe('Max File Size on the files of a poll', () => {
	async function bigFilePoll(maxFileSize: number) {
		const sb = await rigSandbox({ fileSizeBytes: 3 * MB });
		current = sb;
		const poller = await createPoller({
			parameters: { events: ['success'], download: true, maxFileSize },
			credentials: credentialsFor(sb),
		});
		await activated({ sb, poller });
		sb.clock.advance(1000);
		const [id] = finishMany(sb, 1);
		return { poller, id };
	}

	test('a 3 MB file at 1 MB fails the poll naming the document', async () => {
		const { poller, id } = await bigFilePoll(1);
		const error = await poller.poll().then(
			() => undefined,
			(e: unknown) => e,
		);
		expect(describeError(error).message).toBe(
			`The file of document ${id} is larger than the Max File Size (1 MB)`,
		);
	});

	test('a 3 MB file at 5 MB is taken whole', async () => {
		const { poller, id } = await bigFilePoll(5);
		const result = await poller.poll();
		const [item] = result![0];
		expect(item.json.id).toBe(id);
		expect((await getBinaryBuffer(item.binary!.data)).length).toBe(3 * MB);
	});
});

/** The trigger's lines in n8n's log while `during` runs, by level. */
async function triggerLog(during: () => Promise<unknown>): Promise<Record<string, string[]>> {
	const logger = Container.get(Logger);
	const lines: Record<string, string[]> = { warn: [], debug: [] };
	const keep = (level: string) => (message: string) => {
		if (message.startsWith('Document Generation Trigger')) lines[level].push(message);
	};
	jest.spyOn(logger, 'warn').mockImplementation(keep('warn'));
	jest.spyOn(logger, 'debug').mockImplementation(keep('debug'));
	await during();
	return lines;
}

describe("n8n's log", () => {
	test('a walk of one page: one debug line, no warning', async () => {
		const r = await setup();
		await activated(r);
		const lines = await triggerLog(() => r.poller.poll());
		expect(lines).toEqual({
			warn: [],
			debug: ['Document Generation Trigger: "success" list walked in 1 request(s), 1 walk(s)'],
		});
	});

	/**
	 * A poll over a list of two pages whose walks each bring, on page 2, one of `olds` old cards
	 * (an hour before) not seen by the walks before; `again` walks after those bring nothing
	 * new. What n8n's log shows, and whether every card the walks found fired.
	 */
	async function walkedOver(olds: number, again: number) {
		const r = await setup();
		await activated(r);
		r.sb.clock.advance(1000);
		const [fresh] = finishMany(r.sb, 1);
		const old = Array.from(
			{ length: olds },
			() => r.sb.createDocument({ status: 'success', updated_at: r.sb.clock.now() - 3_600_000 }).id,
		);
		const pageTwos = [...old, ...Array<string>(again).fill(old[olds - 1])];
		answerListWith(
			r.sb,
			pageTwos.flatMap((id) => [pageOf(r.sb, [fresh], 1, 2), pageOf(r.sb, [id], 2, 2)]),
		);
		let fired: string[] = [];
		const lines = await triggerLog(async () => (fired = keysOf(await r.poller.poll())));
		expect(r.sb.faults.list()).toEqual([]);
		// Every card the walks found fires, the old ones too: none was fired before.
		expect(fired.sort()).toEqual([fresh, ...old].map((id) => recordKey(r.sb, id)).sort());
		return lines;
	}
	const WALKED_24 =
		'Document Generation Trigger: "success" list walked in 48 request(s), 24 walk(s)';

	test('a list of two pages that brings an older card on every walk: a warning after 24 walks', async () => {
		expect(await walkedOver(24, 0)).toEqual({
			warn: [
				'Document Generation Trigger: the "success" list kept changing over 24 walks; the next poll looks at the same window again',
			],
			debug: [WALKED_24],
		});
	});

	test('the same list settling on its 24th walk, the last one allowed: no warning', async () => {
		expect(await walkedOver(23, 1)).toEqual({ warn: [], debug: [WALKED_24] });
	});
});

/** Documents that exist before activation, `count` of them, then time moves on past the lag. */
function history(sb: Sandbox, count: number): string[] {
	const ids: string[] = [];
	for (let i = 0; i < count; i++) {
		ids.push(sb.createDocument({ status: i % 5 === 4 ? 'failure' : 'success' }).id);
		sb.clock.advance(137);
	}
	sb.clock.advance(10_000);
	return ids;
}

function listQueries(sb: Sandbox): Array<Record<string, string | string[]>> {
	return sb.requests.filter((r) => r.method === 'GET' && r.path === LIST_PATH).map((r) => r.query);
}

/** Activates: the first poll fires no history. */
async function activate(r: Rig): Promise<void> {
	expect(await r.poller.poll()).toBeNull();
}

describe.each([
	['inclusive', true],
	['exclusive', false],
])('q[updated_since] %s', (_label, inclusive) => {
	test('first activation fires no history; what finishes afterwards fires once', async () => {
		const { sb, poller } = await setup(
			{ events: ['success'] },
			{ updatedSinceInclusive: inclusive },
		);
		history(sb, 40);
		await activate({ sb, poller });
		expect(await poller.poll()).toBeNull();

		sb.clock.advance(1000);
		const [fresh] = finishMany(sb, 1);
		expect(keysOf(await poller.poll())).toEqual([recordKey(sb, fresh)]);
		expect(await poller.poll()).toBeNull();
		sb.clock.advance(20_000);
		expect(await poller.poll()).toBeNull();
	});

	test('same-second bursts: every document fires once, oldest first', async () => {
		const { sb, poller } = await setup(
			{ events: ['success'] },
			{ updatedSinceInclusive: inclusive },
		);
		history(sb, 3);
		await activate({ sb, poller });
		sb.clock.set(Math.floor(sb.clock.now() / 1000) * 1000 + 1000 + 50);

		// 10 documents at the very same millisecond, 10 more later in the same second.
		const first = finishMany(sb, 10);
		const got1 = keysOf(await poller.poll());
		expect(got1.sort()).toEqual(first.map((id) => recordKey(sb, id)).sort());
		sb.clock.advance(400);
		const second = finishMany(sb, 10);
		sb.clock.advance(400);
		const third = finishMany(sb, 5);
		const result = await poller.poll();
		expect(keysOf(result).sort()).toEqual(
			[...second, ...third].map((id) => recordKey(sb, id)).sort(),
		);
		expectOldestFirst(itemsOf(result));
		expect(await poller.poll()).toBeNull();
	});

	test('more than a page between polls: all fire once, oldest first; an idle poll is one request', async () => {
		const { sb, poller } = await setup(
			{ events: ['success'] },
			{ updatedSinceInclusive: inclusive },
		);
		history(sb, 30);
		await activate({ sb, poller });
		const ids: string[] = [];
		for (let i = 0; i < 70; i++) {
			ids.push(...finishMany(sb, 1));
			if (i % 7 === 0) sb.clock.advance(333);
		}
		const result = await poller.poll();
		const items = itemsOf(result);
		expect(items.map((i) => i.json.id).sort()).toEqual([...ids].sort());
		expectOldestFirst(items);
		// Shaped like the action node's items: meta parsed.
		expect(items[0].json).toEqual(expect.objectContaining({ status: 'success', meta: null }));

		// The first idle poll re-lists the last seconds (a card stamped then may be listed late);
		// it also reads the service's clock from the download links, so the next one lists nothing.
		sb.clock.advance(60_000);
		expect(await poller.poll()).toBeNull();
		sb.clock.advance(60_000);
		sb.resetRequests();
		expect(await poller.poll()).toBeNull();
		expect(listRequests(sb)).toBe(1);
	});

	test('a list that reshuffles on every request: all fire once', async () => {
		const { sb, poller } = await setup(
			{ events: ['success'] },
			{ updatedSinceInclusive: inclusive, listOrder: 'random' },
		);
		history(sb, 50);
		await activate({ sb, poller });
		const ids = finishMany(sb, 90);
		sb.clock.advance(700);
		ids.push(...finishMany(sb, 20));
		const items = itemsOf(await poller.poll());
		expect(items.map((i) => i.json.id).sort()).toEqual([...ids].sort());
		expectOldestFirst(items);
		expect(await poller.poll()).toBeNull();
		sb.clock.advance(30_000);
		expect(await poller.poll()).toBeNull();
	});

	test('documents visible only 5 s after their updated_at still fire once', async () => {
		const { sb, poller } = await setup(
			{ events: ['success'] },
			{ updatedSinceInclusive: inclusive, visibilityLagMs: 5000 },
		);
		history(sb, 5);
		await activate({ sb, poller });
		const expected: string[] = [];
		const fired: string[] = [];
		// A document every 700 ms and a poll every second, for 30 s.
		for (let step = 0; step < 30; step++) {
			for (let k = 0; k < 2; k++) {
				expected.push(recordKey(sb, finishMany(sb, 1)[0]));
				sb.clock.advance(500);
			}
			fired.push(...keysOf(await poller.poll()));
		}
		sb.clock.advance(6000);
		fired.push(...keysOf(await poller.poll()));
		expect(fired.sort()).toEqual(expected.sort());
		expect(new Set(fired).size).toBe(fired.length);
	});

	test('documents listed late with an updated_at up to 5 s old still fire once', async () => {
		const { sb, poller } = await setup(
			{ events: ['success'] },
			{ updatedSinceInclusive: inclusive },
		);
		history(sb, 5);
		await activate({ sb, poller });
		const expected: string[] = [];
		const fired: string[] = [];
		for (let step = 0; step < 12; step++) {
			// One on time (moves the cursor), then one written "4.9 s ago" that shows up only now.
			expected.push(recordKey(sb, finishMany(sb, 1)[0]));
			sb.clock.advance(10);
			const late = sb.createDocument({ status: 'success', updated_at: sb.clock.now() - 4900 });
			expected.push(recordKey(sb, late.id));
			fired.push(...keysOf(await poller.poll()));
			sb.clock.advance(1000);
		}
		fired.push(...keysOf(await poller.poll()));
		expect(fired.sort()).toEqual(expected.sort());
	});

	test('a document generated again fires again, even within the same second', async () => {
		const { sb, poller } = await setup(
			{ events: ['success'] },
			{ updatedSinceInclusive: inclusive, pendingMs: 100, generatingMs: 300 },
		);
		history(sb, 2);
		await activate({ sb, poller });
		const [id] = finishMany(sb, 1);
		const first = recordKey(sb, id);
		expect(keysOf(await poller.poll())).toEqual([first]);

		sb.updateDocument(id, { status: 'pending' });
		sb.clock.advance(450);
		const second = recordKey(sb, id);
		expect(sb.documents.get(id)!.status).toBe('success');
		expect(second).not.toBe(first);
		expect(keysOf(await poller.poll())).toEqual([second]);
		expect(await poller.poll()).toBeNull();

		// And once more through the API's full lifecycle, a few seconds later.
		sb.clock.advance(3000);
		sb.updateDocument(id, { status: 'pending' });
		sb.clock.advance(1000);
		const third = recordKey(sb, id);
		expect(keysOf(await poller.poll())).toEqual([third]);
		expect(await poller.poll()).toBeNull();
	});

	test('a poll that fails on page 2 throws, keeps its state, and the next poll loses nothing', async () => {
		// Pages of 24 (a service that ignores page[size]): 60 documents take three pages.
		const { sb, poller } = await setup(
			{ events: ['success'] },
			{ updatedSinceInclusive: inclusive, honourPageSize: false },
		);
		history(sb, 3);
		await activate({ sb, poller });
		const ids = finishMany(sb, 60);
		const before = JSON.stringify(poller.staticData());

		// Page 1 goes through; page 2 is refused (422: not retried).
		sb.faults.add({ type: 'delay', delayMs: 0, method: 'GET', path: LIST_PATH, times: 1 });
		sb.faults.add({ type: 'status', status: 422, method: 'GET', path: LIST_PATH, times: 1 });
		sb.resetRequests();
		const error = await poller.poll().then(
			() => undefined,
			(e: unknown) => e,
		);
		expect(error).toBeDefined();
		expect(describeError(error)).toEqual(
			expect.objectContaining({ name: 'NodeApiError', httpCode: '422' }),
		);
		expect(listRequests(sb)).toBe(2);
		expect(sb.requests.map((r) => r.query['page[number]'])).toEqual(['1', '2']);
		expect(JSON.stringify(poller.staticData())).toBe(before);

		sb.clock.advance(2000);
		const more = finishMany(sb, 5);
		const items = itemsOf(await poller.poll());
		expect(items.map((i) => i.json.id).sort()).toEqual([...ids, ...more].sort());
		expectOldestFirst(items);
		expect(await poller.poll()).toBeNull();
	});
});

describe('service clock, not host clock', () => {
	test.each([
		['years ahead of the host', T0],
		['40 days behind the host', Date.now() - 40 * 86_400_000],
	])('the bound comes from updated_at when the service is %s', async (_label, start) => {
		const { sb, poller } = await setup({ events: ['success'] }, { startTime: start });
		history(sb, 3);
		await activate({ sb, poller });
		const [id] = finishMany(sb, 1);
		const pollStarted = Date.now();
		expect(keysOf(await poller.poll())).toEqual([recordKey(sb, id)]);
		// The walk is part of the poll: it took this long at most, on the host's clock.
		const pollSeconds = Math.ceil((Date.now() - pollStarted) / 1000);
		sb.resetRequests();
		expect(await poller.poll()).toBeNull();
		const since = Number(listQueries(sb)[0]['q[updated_since]']);
		const updatedSeconds = Math.floor(sb.documents.get(id)!.updated_at / 1000);
		// floor(cursor) - overlap (7 s) - the walk's own duration (whole seconds, rounded up:
		// 1 s on a quick machine, more on a slow one, never more than the poll's).
		expect(since).toBeLessThanOrEqual(updatedSeconds - 7);
		expect(since).toBeGreaterThanOrEqual(updatedSeconds - 7 - Math.max(1, pollSeconds));

		sb.clock.advance(90_000);
		const [later] = finishMany(sb, 1);
		expect(keysOf(await poller.poll())).toEqual([recordKey(sb, later)]);
	});
});

describe("failures only: the service clock from the list answers' Date header", () => {
	// Failure cards carry no download link, so no signing time: only the Date of the list
	// answers tells the service's time, which lets the bound pass a quiet stretch.
	test.each([
		['years ahead of the host', T0, true],
		['years behind the host', Date.UTC(2014, 2, 3, 4, 5, 6, 789), false],
	])(
		'after a burst of 60 failures, idle polls cost one request each (service %s)',
		async (_label, start, inclusive) => {
			const { sb, poller } = await setup(
				{ events: ['failure'] },
				// Pages of 24 (a service that ignores page[size]): the burst takes three pages.
				{ startTime: start, updatedSinceInclusive: inclusive, honourPageSize: false },
			);
			history(sb, 10);
			await activate({ sb, poller });
			sb.clock.advance(1000);
			const burst = finishMany(sb, 60, { status: 'failure' });
			sb.clock.advance(1000);
			sb.resetRequests();
			let items = itemsOf(await poller.poll());
			expect(items.map((i) => i.json.id).sort()).toEqual([...burst].sort());
			expectOldestFirst(items);
			// 3 pages, walked twice (a walk of several pages is checked by another).
			expect(listRequests(sb)).toBe(6);

			// The burst's last seconds are listed once more (a card stamped then may show up late)...
			sb.clock.advance(60_000);
			sb.resetRequests();
			expect(await poller.poll()).toBeNull();
			expect(listRequests(sb)).toBe(6);
			// ...and from then on, an idle poll is one request.
			for (let i = 0; i < 4; i++) {
				sb.clock.advance(60_000);
				sb.resetRequests();
				expect(await poller.poll()).toBeNull();
				expect(listRequests(sb)).toBe(1);
			}

			// A burst polled only once the overlap window has passed: the very next idle poll is one
			// request.
			const second = finishMany(sb, 60, { status: 'failure' });
			sb.clock.advance(15_000);
			items = itemsOf(await poller.poll());
			expect(items.map((i) => i.json.id).sort()).toEqual([...second].sort());
			for (let i = 0; i < 3; i++) {
				sb.clock.advance(60_000);
				sb.resetRequests();
				expect(await poller.poll()).toBeNull();
				expect(listRequests(sb)).toBe(1);
			}

			// The bound stayed on the service's clock: what fails now fires, once.
			sb.clock.advance(1000);
			const [bad] = finishMany(sb, 1, { status: 'failure' });
			sb.resetRequests();
			expect(keysOf(await poller.poll())).toEqual([recordKey(sb, bad)]);
			expect(listRequests(sb)).toBe(1);
			expect(await poller.poll()).toBeNull();
		},
	);
});

describe('activation and manual runs', () => {
	test('first activation on an empty account fires nothing, then everything new', async () => {
		const { sb, poller } = await setup({ events: ['success'] });
		sb.resetRequests();
		await activate({ sb, poller });
		expect(listRequests(sb)).toBe(1);
		expect(listQueries(sb)[0]['q[updated_since]']).toBeUndefined();
		sb.clock.advance(5000);
		const ids = finishMany(sb, 3);
		expect(keysOf(await poller.poll()).sort()).toEqual(ids.map((id) => recordKey(sb, id)).sort());
		expect(await poller.poll()).toBeNull();
	});

	test.each(['newest', 'oldest', 'random'] as const)(
		'first activation over many pages (%s order) fires no history',
		async (listOrder) => {
			const { sb, poller } = await setup({ events: ['success', 'failure'] }, { listOrder });
			history(sb, 120);
			await activate({ sb, poller });
			expect(await poller.poll()).toBeNull();
			sb.clock.advance(1000);
			const ok = finishMany(sb, 2);
			const bad = finishMany(sb, 1, { status: 'failure' });
			const items = itemsOf(await poller.poll());
			expect(items.map((i) => `${String(i.json.id)}:${String(i.json.status)}`).sort()).toEqual(
				[...ok.map((id) => `${id}:success`), ...bad.map((id) => `${id}:failure`)].sort(),
			);
		},
	);

	test('first activation over many pages of failures only (no download links) fires no history', async () => {
		const { sb, poller } = await setup({ events: ['failure'] }, { updatedSinceInclusive: false });
		for (let i = 0; i < 70; i++) {
			sb.createDocument({ status: 'failure' });
			sb.clock.advance(137);
		}
		sb.clock.advance(3000);
		await activate({ sb, poller });
		expect(await poller.poll()).toBeNull();
		sb.clock.advance(1000);
		const [bad] = finishMany(sb, 1, { status: 'failure' });
		expect(keysOf(await poller.poll())).toEqual([recordKey(sb, bad)]);
	});

	test('a manual run returns the most recent matching document and never moves the cursor', async () => {
		const { sb, poller } = await setup({ events: ['success', 'failure'] });
		history(sb, 30);
		await activate({ sb, poller });
		sb.clock.advance(1000);
		const [older] = finishMany(sb, 1);
		sb.clock.advance(1000);
		const [latest] = finishMany(sb, 1, { status: 'failure' });
		sb.clock.advance(1000);
		sb.createDocument({ status: 'draft' });

		// Record every write the node makes to its static data during the manual run.
		const writes: string[] = [];
		const root = poller.workflowStaticData();
		const slot = `node:${poller.node.name}`;
		root[slot] = new Proxy(root[slot] as IDataObject, {
			set(target, name, value) {
				writes.push(`set ${String(name)}`);
				return Reflect.set(target, name, value);
			},
			deleteProperty(target, name) {
				writes.push(`delete ${String(name)}`);
				return Reflect.deleteProperty(target, name);
			},
		});
		const before = JSON.stringify(poller.staticData());
		const manual = itemsOf(await poller.poll('manual'));
		expect(manual).toHaveLength(1);
		expect(manual[0].json.id).toBe(latest);
		expect(manual[0].json.status).toBe('failure');
		expect(writes).toEqual([]);
		expect(JSON.stringify(poller.staticData())).toBe(before);

		// The active trigger still fires both, once.
		expect(keysOf(await poller.poll()).sort()).toEqual(
			[recordKey(sb, older), recordKey(sb, latest)].sort(),
		);
	});

	test('a manual run with only success chosen skips newer failures', async () => {
		const { sb, poller } = await setup({ events: ['success'] }, { listOrder: 'random' });
		history(sb, 60);
		const [latest] = finishMany(sb, 1);
		sb.clock.advance(1000);
		finishMany(sb, 1, { status: 'failure' });
		const manual = itemsOf(await poller.poll('manual'));
		expect(manual.map((i) => i.json.id)).toEqual([latest]);
	});

	test('a manual run with nothing matching says so and how to fix it', async () => {
		const { sb, poller } = await setup({ events: ['success'], filters: { templateIds: [] } });
		sb.createDocument({ status: 'failure' });
		const error = await poller.poll('manual').then(
			() => undefined,
			(e: unknown) => e,
		);
		const info = describeError(error);
		expect(info.name).toBe('NodeOperationError');
		expect(info.message).toMatch(/No document matched/);
		expect(info.description).toMatch(/status "success"/);
		expect(info.description).toMatch(/Generate one|widen/);
		expect(poller.staticData()).toEqual({});
	});

	test('a manual run with nothing matching names the workspace of the filter by its name', async () => {
		const { sb } = await setup({ events: ['success'] });
		const hr = sb.workspaces.find((w) => w.identifier === 'Acme HR')!;
		const poller = await createPoller({
			parameters: { events: ['failure'], filters: { workspaceId: hr.id } },
			credentials: credentialsFor(sb),
		});
		const info = describeError(
			await poller.poll('manual').then(
				() => undefined,
				(e: unknown) => e,
			),
		);
		expect(info.description).toMatch(/workspace "Acme HR"/);
		expect(info.description).not.toContain(hr.id);
	});
});

describe('events, filters and files', () => {
	test('success and failure: one walk per event, an idle poll is one request per event', async () => {
		const { sb, poller } = await setup({ events: ['success', 'failure'] });
		history(sb, 10);
		await activate({ sb, poller });
		sb.resetRequests();
		expect(await poller.poll()).toBeNull();
		expect(
			listQueries(sb)
				.map((q) => q['q[status]'])
				.sort(),
		).toEqual(['failure', 'success']);

		sb.clock.advance(1000);
		const [bad] = finishMany(sb, 1, { status: 'failure' });
		sb.clock.advance(200);
		const [good] = finishMany(sb, 1);
		sb.createDocument({ status: 'draft' });
		const items = itemsOf(await poller.poll());
		expect(items.map((i) => i.json.id)).toEqual([bad, good]);
		expect(items[0].json.failure_cause).toEqual(expect.any(String));
	});

	test('Failure added to a trigger already polling for Success: a failure between the two polls fires', async () => {
		const { sb, poller } = await setup({ events: ['success'] });
		history(sb, 10);
		await activate({ sb, poller });
		sb.clock.advance(1000);
		const [early] = finishMany(sb, 1);
		expect(keysOf(await poller.poll())).toEqual([recordKey(sb, early)]);

		// Between this poll and the next, a document fails; then the user adds the Failure event
		// (n8n keeps the node's static data when the workflow is saved).
		sb.clock.advance(1000);
		const [failed] = finishMany(sb, 1, { status: 'failure' });
		const edited = await createPoller({
			parameters: { events: ['success', 'failure'] },
			credentials: credentialsFor(sb),
			staticData: JSON.parse(JSON.stringify(poller.staticData())),
		});
		sb.clock.advance(1000);
		const [later] = finishMany(sb, 1);
		const items = itemsOf(await edited.poll());
		// The failure fires (history from before activation does not), the success once.
		expect(items.map((i) => i.json.id)).toEqual([failed, later]);
		expect(await edited.poll()).toBeNull();
	});

	test('template and workspace filters go into the query and only matching documents fire', async () => {
		const { sb } = await setup({ events: ['success'] });
		const [invoice, receipt, , payslip] = sb.templates;
		const billing = sb.workspaces[0].id;
		const poller = await createPoller({
			parameters: {
				events: ['success'],
				filters: {
					templateIds: `${invoice.id}, ${receipt.id.toUpperCase()}`,
					workspaceId: billing,
				},
			},
			credentials: credentialsFor(sb),
		});
		await activate({ sb, poller });
		sb.clock.advance(1000);
		const a = sb.createDocument({ status: 'success', document_template_id: invoice.id }).id;
		const b = sb.createDocument({ status: 'success', document_template_id: receipt.id }).id;
		sb.createDocument({ status: 'success', document_template_id: payslip.id });
		sb.resetRequests();
		const items = itemsOf(await poller.poll());
		expect(items.map((i) => i.json.id).sort()).toEqual([a, b].sort());
		const query = listQueries(sb)[0];
		expect(query['q[document_template_id]']).toBe(`${invoice.id},${receipt.id}`);
		expect(query['q[document_template_id][]']).toBeUndefined();
		expect(query['q[workspace_id]']).toBe(billing);
		expect(query['q[status]']).toBe('success');
	});

	test('events given by an expression as comma-separated text are accepted; none at all is refused', async () => {
		const { sb, poller } = await setup({ events: 'failure, success' as never });
		await activate({ sb, poller });
		expect(
			listQueries(sb)
				.map((q) => q['q[status]'])
				.sort(),
		).toEqual(['failure', 'success']);
		const none = await createPoller({
			parameters: { events: [] },
			credentials: credentialsFor(sb),
		});
		sb.resetRequests();
		const info = describeError(
			await none.poll().then(
				() => undefined,
				(e: unknown) => e,
			),
		);
		expect(info.name).toBe('NodeOperationError');
		expect(info.message).toMatch(/No event is chosen/);
		expect(info.description).toMatch(/Generation Succeeded/);
		expect(sb.requests).toHaveLength(0);
	});

	test('a bad template filter is refused before any request', async () => {
		const { sb, poller } = await setup({
			events: ['success'],
			filters: { templateIds: 'not-a-uuid' },
		});
		const error = await poller.poll().then(
			() => undefined,
			(e: unknown) => e,
		);
		const info = describeError(error);
		expect(info.name).toBe('NodeOperationError');
		expect(info.message).toMatch(/not-a-uuid/);
		expect(sb.requests).toHaveLength(0);
	});

	test('download attaches the file to success items only; a failed download fails the poll and loses nothing', async () => {
		const { sb, poller } = await setup({
			events: ['success', 'failure'],
			download: true,
			binaryPropertyName: 'pdf',
		});
		history(sb, 3);
		await activate({ sb, poller });
		sb.clock.advance(1000);
		const [good] = finishMany(sb, 1, { meta: { _filename: 'receipt-42.pdf', order: 42 } });
		// Later by 10 ms: items come oldest first (at the same instant, the order would follow
		// the ids, which the seeded sandbox draws).
		sb.clock.advance(10);
		const [bad] = finishMany(sb, 1, { status: 'failure' });

		sb.faults.add({ type: 'status', status: 404, path: '/files/', times: 1 });
		await expect(poller.poll()).rejects.toBeDefined();

		const items = itemsOf(await poller.poll());
		expect(items.map((i) => i.json.id)).toEqual([good, bad]);
		expect(items[0].json.meta).toEqual({ _filename: 'receipt-42.pdf', order: 42 });
		const binary = items[0].binary!.pdf;
		expect(binary.fileName).toBe('receipt-42.pdf');
		expect(binary.mimeType).toBe('application/pdf');
		expect((await getBinaryBuffer(binary)).subarray(0, 5).toString()).toBe('%PDF-');
		expect(items[1].binary).toBeUndefined();
		expect(await poller.poll()).toBeNull();
	});
});

describe('robustness', () => {
	/** A backlog of `count` documents, 5 s apart (far more than the overlap window). */
	function backlog(sb: Sandbox, count: number): string[] {
		const keys: string[] = [];
		for (let i = 0; i < count; i++) {
			keys.push(recordKey(sb, finishMany(sb, 1)[0]));
			sb.clock.advance(5000);
		}
		return keys;
	}

	/** Runs a poll whose page 2 is held back until `during` has run (released then, not after a time). */
	async function pollChangingAtPage2(sb: Sandbox, r: Rig, during: () => void) {
		sb.resetRequests();
		const release = holdSecondPage(sb);
		const polling = r.poller.poll();
		while (!listRequestsSeen(sb, 2)) await new Promise((resolve) => setTimeout(resolve, 5));
		during();
		expect(release()).toBe(1);
		return await polling;
	}

	test('a document leaving page 1 while page 2 is fetched shifts the list up: nothing is lost', async () => {
		// Pages of 24 (a service that ignores page[size]), so that the backlog has a page 2.
		const r = await setup(
			{ events: ['success'] },
			{ pendingMs: 100, generatingMs: 200, honourPageSize: false },
		);
		const { sb, poller } = r;
		history(sb, 3);
		await activate(r);
		const expected = backlog(sb, 60);
		// Newest first: the newest of the backlog is on page 1; it is regenerated (pending)
		// after page 1 was read, so the first card of page 2 moves onto page 1.
		const leaving = expected[expected.length - 1];
		const fired = keysOf(
			await pollChangingAtPage2(sb, r, () => {
				sb.updateDocument(leaving.split('@')[0], { status: 'pending' });
			}),
		);
		expect([...fired].sort()).toEqual([...expected].sort());
		expect(listRequests(sb)).toBeGreaterThan(3);

		// Its new generation fires once more.
		sb.clock.advance(1000);
		const again = recordKey(sb, leaving.split('@')[0]);
		expect(keysOf(await poller.poll())).toEqual([again]);
		expect(await poller.poll()).toBeNull();
	});

	test('a document finishing while the trigger pages shifts the list down: each fires once', async () => {
		// Pages of 24 (a service that ignores page[size]), so that the backlog has a page 2.
		const r = await setup({ events: ['success'] }, { honourPageSize: false });
		const { sb, poller } = r;
		history(sb, 3);
		await activate(r);
		const expected = backlog(sb, 60);
		const fired = keysOf(
			await pollChangingAtPage2(sb, r, () => {
				expected.push(recordKey(sb, finishMany(sb, 1)[0]));
			}),
		);
		fired.push(...keysOf(await poller.poll()));
		expect(fired.sort()).toEqual([...expected].sort());
	});

	test('two polls of the same trigger that overlap fire each document once', async () => {
		const r = await setup({ events: ['success'] });
		const { sb, poller } = r;
		history(sb, 3);
		await activate(r);
		const ids = finishMany(sb, 30);
		sb.faults.add({ type: 'delay', delayMs: 100, method: 'GET', path: LIST_PATH, times: 2 });
		const [a, b] = await Promise.all([poller.poll(), poller.poll()]);
		const fired = [...keysOf(a), ...keysOf(b)];
		expect(fired.sort()).toEqual(ids.map((id) => recordKey(sb, id)).sort());
		expect(await poller.poll()).toBeNull();
	});

	test('static data stays bounded: a cursor plus the keys of the overlap window', async () => {
		const { sb, poller } = await setup({ events: ['success', 'failure'] });
		history(sb, 5);
		await activate({ sb, poller });
		let total = 0;
		for (let round = 0; round < 40; round++) {
			finishMany(sb, 20);
			finishMany(sb, 5, { status: 'failure' });
			sb.clock.advance(3000);
			total += keysOf(await poller.poll()).length;
		}
		expect(total).toBe(40 * 25);
		const data = poller.staticData() as {
			version: number;
			events: Record<string, { seen: object; cursor: number; since: number }>;
		};
		expect(data.version).toBe(1);
		expect(Object.keys(data.events).sort()).toEqual(['failure', 'success']);
		// Only what changed within ~8 s of the newest document: at most 3 rounds' worth.
		expect(Object.keys(data.events.success.seen).length).toBeLessThanOrEqual(60);
		expect(Object.keys(data.events.failure.seen).length).toBeLessThanOrEqual(15);
		expect(JSON.stringify(data).length).toBeLessThan(8000);
		for (const state of Object.values(data.events)) {
			for (const ms of Object.values(state.seen) as number[])
				expect(ms).toBeGreaterThanOrEqual(state.since * 1000);
		}
	});
});

/** The description of the error a manual run of a trigger with these parameters fails with. */
async function manualRunRefusal(sb: Sandbox, parameters: INodeParameters): Promise<string> {
	const poller = await createPoller({ parameters, credentials: credentialsFor(sb) });
	const error = await poller.poll('manual').then(
		() => undefined,
		(e: unknown) => e,
	);
	const info = describeError(error);
	expect(info.message).toBe(
		'No document matched the trigger: there is no finished document to show yet',
	);
	return String(info.description);
}

const HOW_TO_FIX =
	'Generate one (for example with the Document Generation node, Create with status "Pending"), or widen Events and Filters, then fetch a test event again.';

describe('a manual run with nothing matching', () => {
	test('names both events, both templates and the workspace, in words', async () => {
		const sb = await sandbox();
		const [invoice, receipt] = sb.templates;
		const hr = sb.workspaces.find((w) => w.identifier === 'Acme HR')!;
		const description = await manualRunRefusal(sb, {
			events: ['success', 'failure'],
			filters: { templateIds: `${invoice.id}, ${receipt.id}`, workspaceId: hr.id },
		});
		expect(description).toBe(
			`No document has status "success" or "failure", template ${invoice.id}, ${receipt.id}, workspace "Acme HR". ${HOW_TO_FIX}`,
		);
	});

	test('names the workspace by its id when the names cannot be read', async () => {
		const sb = await sandbox();
		const hr = sb.workspaces.find((w) => w.identifier === 'Acme HR')!;
		sb.faults.add({
			type: 'status',
			status: 500,
			path: '/api/v1/workspace_cards',
			times: Infinity,
		});
		const description = await manualRunRefusal(sb, {
			events: ['failure'],
			filters: { workspaceId: hr.id },
		});
		expect(description).toBe(
			`No document has status "failure", workspace "${hr.id}". ${HOW_TO_FIX}`,
		);
	});

	test('without filters names only the status', async () => {
		const sb = await sandbox();
		sb.createDocument({ status: 'failure' });
		expect(await manualRunRefusal(sb, { events: ['success'] })).toBe(
			`No document has status "success". ${HOW_TO_FIX}`,
		);
	});
});

test('a manual run with Download File on shows the newest success with its file', async () => {
	const sb = await sandbox();
	const [latest] = finishMany(sb, 1, { meta: { _filename: 'shown.pdf' } });
	const poller = await createPoller({
		parameters: { events: ['success'], download: true, binaryPropertyName: 'pdf' },
		credentials: credentialsFor(sb),
	});
	const [item] = itemsOf(await poller.poll('manual'));
	expect(item.json.id).toBe(latest);
	const file = item.binary?.pdf;
	expect(file?.fileName).toBe('shown.pdf');
	expect((await getBinaryBuffer(file!)).subarray(0, 5).toString()).toBe('%PDF-');
});

test('a file whose link expired on its way: the item hands on the renewed link and its end, not the expired ones', async () => {
	const sb = await sandbox();
	finishMany(sb, 1);
	const poller = await createPoller({
		parameters: { events: ['success'], download: true },
		credentials: credentialsFor(sb),
	});
	const [item] = itemsOf(await withFirstLinkExpired(sb, () => poller.poll('manual')));
	expect(fileRequests(sb).map((r) => r.status)).toEqual([403, 200]);
	const [expired, renewed] = fileRequests(sb).map((r) => `${sb.url}${r.path}?${r.rawQuery}`);
	expect(item.json.download_url).toBe(renewed);
	expect(item.json.download_url_expires_at).toBe(linkExpiry(renewed, 0));
	expect(item.json.download_url_expires_at).not.toBe(linkExpiry(expired, 0));
	expect((await getBinaryBuffer(item.binary!.data)).subarray(0, 5).toString()).toBe('%PDF-');
});
