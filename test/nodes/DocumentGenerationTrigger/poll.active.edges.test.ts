/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The edges of an active poll's n8n side (nodes/DocumentGenerationTrigger/poll.ts): the words of
 * a poll refused for a wait longer than it accepts, static data left as it was by a poll that
 * learned nothing (n8n saves a workflow whose static data was written), a card the service
 * lists outside the chosen event not fired, no file fetched with Download File off, Max File
 * Size on the files a poll fetches, and what a poll writes to n8n's log (each walk at debug
 * level, a list that never settles as a warning). Needs `npm run build` first.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { createPoller, credentialsFor, describeError, getBinaryBuffer } from '../../harness';
import type { Sandbox } from '../../sandbox';
import { fileRequests } from '../DocumentGeneration/helpers';
import {
	LIST_PATH,
	finishMany,
	itemsOf,
	keysOf,
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

/** Documents finished before activation, then time past the overlap; the first poll fires none. */
async function activated(r: Rig): Promise<void> {
	for (let i = 0; i < 3; i++) {
		r.sb.createDocument({ status: 'success' });
		r.sb.clock.advance(137);
	}
	r.sb.clock.advance(10_000);
	expect(await r.poller.poll()).toBeNull();
}

// First in this file: the package loads during it, so the mutation tool credits it with the
// poll's constants (the advice below).
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

	test('a list of two pages that brings an older card on every walk: a warning after 24 walks', async () => {
		const r = await setup();
		await activated(r);
		r.sb.clock.advance(1000);
		const [fresh] = finishMany(r.sb, 1);
		// Each walk's second page holds an old card (an hour before) not seen by the walks before.
		const old = Array.from(
			{ length: 24 },
			() => r.sb.createDocument({ status: 'success', updated_at: r.sb.clock.now() - 3_600_000 }).id,
		);
		answerListWith(
			r.sb,
			old.flatMap((id) => [pageOf(r.sb, [fresh], 1, 2), pageOf(r.sb, [id], 2, 2)]),
		);
		let fired: string[] = [];
		const lines = await triggerLog(async () => (fired = keysOf(await r.poller.poll())));
		expect(lines).toEqual({
			warn: [
				'Document Generation Trigger: the "success" list kept changing over 24 walks; the next poll looks at the same window again',
			],
			debug: ['Document Generation Trigger: "success" list walked in 48 request(s), 24 walk(s)'],
		});
		expect(r.sb.faults.list()).toEqual([]);
		// Every card the walks found fires, the old ones too: none was fired before.
		expect(fired.sort()).toEqual([fresh, ...old].map((id) => recordKey(r.sb, id)).sort());
	});
});
