/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- test code: runs in Node under jest, never inside n8n */
/**
 * Long randomized soak of the polling trigger (n8n PollContext via the harness, sandbox with a
 * manual clock): thousands of documents, same-second bursts, late-listed writes,
 * regenerations, documents leaving the list, changes while a poll pages, failed polls, every
 * list order, inclusive and exclusive `q[updated_since]`. The ground truth is every
 * transition of a document to a chosen status, read from the sandbox's own records; the
 * trigger must fire each exactly once.
 *
 * Seeded: the seed is printed and in the test names; rerun one with TRIGGER_SOAK_SEED=<n>
 * (and SOAK_DEBUG=1 to print, on a failure, what every poll asked and kept). Also stated: a
 * document superseded (regenerated, set to draft, deleted) before any poll could list its
 * finished state cannot be seen by any poller; such events are optional, all others must fire.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { createPoller, credentialsFor, type Poller } from '../../harness';
import { startSandbox, type ListOrder, type Sandbox } from '../../sandbox';
import { createRandom } from '../../sandbox/util';
import { LIST_PATH, holdSecondPage, keyOfJson, listRequestsSeen } from './helpers';
import { statusFault } from '../../harness/fixtures';

// A fresh seed on every local run explores; CI (CI=true) uses a fixed one so a landing run is
// reproducible. Either way the seed is printed.
const SEED = process.env.TRIGGER_SOAK_SEED
	? Number(process.env.TRIGGER_SOAK_SEED)
	: process.env.CI
		? 20261121
		: Math.floor(Math.random() * 2 ** 31);
console.log(`trigger soak seed: ${SEED} (rerun with TRIGGER_SOAK_SEED=${SEED})`);

/** A seeded generator: the same seed, the same soak. */
function prng(seed: number) {
	const { next } = createRandom(seed) as { next: () => number };
	return {
		next,
		int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
		chance: (p: number) => next() < p,
		pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)],
	};
}

type Status = 'success' | 'failure';

/** Every change of a document's (status, updated_at), read from the sandbox's records. */
class Truth {
	private readonly last = new Map<string, string>();
	readonly events: string[] = [];
	recording = false;

	constructor(
		private readonly sb: Sandbox,
		private readonly chosen: Status[],
	) {}

	scan(): void {
		for (const rec of this.sb.documents.values()) {
			const signature = `${rec.status}@${rec.updated_at}`;
			if (this.last.get(rec.id) === signature) continue;
			this.last.set(rec.id, signature);
			if (this.recording && this.chosen.includes(rec.status as Status))
				this.events.push(`${rec.id}@${rec.updated_at}`);
		}
	}
}

interface Scenario {
	inclusive: boolean;
	order: ListOrder;
	lagMs: number;
	events: Status[];
	steps: number;
}

const SCENARIOS: Scenario[] = [
	{ inclusive: true, order: 'newest', lagMs: 5000, events: ['success', 'failure'], steps: 140 },
	{ inclusive: false, order: 'random', lagMs: 2500, events: ['success', 'failure'], steps: 110 },
	{ inclusive: false, order: 'oldest', lagMs: 5000, events: ['success'], steps: 130 },
	{ inclusive: true, order: 'random', lagMs: 0, events: ['failure', 'success'], steps: 110 },
	{ inclusive: false, order: 'newest', lagMs: 0, events: ['success', 'failure'], steps: 140 },
];

async function soak(scenario: Scenario, seed: number) {
	const rnd = prng(seed);
	const sb = await startSandbox({
		clock: 'manual',
		// The service's clock years ahead of or behind the host's: only service time may count.
		startTime: Date.UTC(rnd.chance(0.5) ? 2030 : 2012, 0, 1) + rnd.int(0, 86_400_000),
		seed,
		updatedSinceInclusive: scenario.inclusive,
		listOrder: scenario.order,
		visibilityLagMs: scenario.lagMs,
		pendingMs: 200,
		generatingMs: 900,
		availableDocuments: 1_000_000,
	});
	try {
		const poller: Poller = await createPoller({
			parameters: { events: scenario.events },
			credentials: credentialsFor(sb),
		});
		const truth = new Truth(sb, scenario.events);
		const templates = sb.templates.map((t) => t.id);
		const failing = sb.templates.find((t) => t.identifier === 'always-fails')!.id;
		const fired: string[] = [];
		const debugLog: string[] = [];
		const firedSet = new Set<string>();
		const stats = {
			docs: 0,
			polls: 0,
			failedPolls: 0,
			midPoll: 0,
			regenerated: 0,
			requests: 0,
			maxSeen: 0,
		};

		const advance = (ms: number) => {
			// Small steps so that no document finishes twice between two scans.
			for (let left = ms; left > 0; left -= 250) {
				sb.clock.advance(Math.min(250, left));
				truth.scan();
			}
		};
		const finished = (status: Status, updatedAt?: number) => {
			const document_template_id =
				status === 'failure' && rnd.chance(0.5) ? failing : rnd.pick(templates);
			sb.createDocument({ status, document_template_id, updated_at: updatedAt });
			stats.docs++;
		};
		/** Events superseded before any poll could list them: they may or may not fire. */
		const optional = new Set<string>();
		/** A burst of the mutations the soak throws at the trigger. */
		const mutate = (midPoll = false) => {
			const now = sb.clock.now();
			const burst = rnd.chance(0.15) ? rnd.int(20, 70) : rnd.int(0, 6);
			for (let i = 0; i < burst; i++) finished(rnd.chance(0.8) ? 'success' : 'failure');
			// Written a moment ago, listed only now (at most the 5 s the model allows).
			for (let i = rnd.int(0, 2); i > 0; i--)
				finished(rnd.pick(['success', 'failure'] as const), now - rnd.int(0, 4900));
			// Through the generation lifecycle (pending -> generating -> success/failure).
			for (let i = rnd.int(0, 3); i > 0; i--) {
				sb.createDocument({
					status: 'pending',
					document_template_id: rnd.chance(0.2) ? failing : rnd.pick(templates),
				});
				stats.docs++;
			}
			// Documents whose last transition already fired: regenerate, set aside, or delete.
			const done = [...sb.documents.values()].filter(
				(rec) => firedSet.has(`${rec.id}@${rec.updated_at}`) && rec.updated_at < now,
			);
			for (let i = Math.min(done.length, rnd.int(0, 4)); i > 0; i--) {
				const rec = done.splice(rnd.int(0, done.length - 1), 1)[0];
				const roll = rnd.next();
				if (roll < 0.45) sb.updateDocument(rec.id, { status: 'pending' });
				else if (roll < 0.75)
					sb.updateDocument(rec.id, { status: rnd.pick(['success', 'failure'] as const) });
				else if (roll < 0.9) sb.updateDocument(rec.id, { status: 'draft' });
				else sb.deleteDocument(rec.id);
				stats.regenerated++;
			}
			if (midPoll) {
				// While a poll pages: finished documents (fired or not) leave the list, shifting
				// the pages under the pager. One not fired yet may legitimately never fire.
				const finishedNow = [...sb.documents.values()].filter(
					(rec) => (rec.status === 'success' || rec.status === 'failure') && rec.updated_at < now,
				);
				for (let i = Math.min(finishedNow.length, rnd.int(1, 4)); i > 0; i--) {
					const rec = finishedNow.splice(rnd.int(0, finishedNow.length - 1), 1)[0];
					optional.add(`${rec.id}@${rec.updated_at}`);
					if (rnd.chance(0.7))
						sb.updateDocument(rec.id, { status: rnd.pick(['pending', 'draft'] as const) });
					else sb.deleteDocument(rec.id);
					stats.regenerated++;
				}
			}
			truth.scan();
		};
		const record = (result: INodeExecutionData[][] | null) => {
			if (result === null) return;
			const items = result[0];
			const times = items.map((item) => Date.parse(String(item.json.updated_at)));
			for (let i = 1; i < times.length; i++) {
				if (times[i] < times[i - 1]) throw new Error(`seed ${seed}: a poll fired out of order`);
			}
			for (const item of items) {
				const key = keyOfJson(item.json);
				if (firedSet.has(key)) throw new Error(`seed ${seed}: ${key} fired twice`);
				if (!scenario.events.includes(item.json.status as Status))
					throw new Error(`seed ${seed}: fired a ${String(item.json.status)}`);
				firedSet.add(key);
				fired.push(key);
			}
		};

		// History, then activation: none of it may fire.
		for (let i = rnd.int(30, 80); i > 0; i--) {
			finished(rnd.chance(0.8) ? 'success' : 'failure');
			sb.clock.advance(rnd.int(0, 400));
		}
		advance(10_000);
		truth.scan();
		expect(await poller.poll()).toBeNull();
		truth.recording = true;

		for (let step = 0; step < scenario.steps; step++) {
			mutate();
			if (rnd.chance(0.5)) advance(rnd.int(0, 2500));
			if (rnd.chance(0.12)) {
				// A busy while without polls: a backlog of several pages spread far wider than
				// the overlap window (n8n was down, or polls are minutes apart).
				for (let i = rnd.int(8, 20); i > 0; i--) {
					for (let k = rnd.int(2, 8); k > 0; k--) finished(rnd.chance(0.8) ? 'success' : 'failure');
					advance(rnd.int(1000, 6000));
				}
			}
			stats.polls++;
			sb.resetRequests();
			const roll = rnd.next();
			if (roll < 0.12) {
				// A poll that fails part-way (after 0-3 good list requests): nothing may be lost.
				for (let k = rnd.int(0, 3); k > 0; k--)
					sb.faults.add({ type: 'delay', delayMs: 0, method: 'GET', path: LIST_PATH });
				sb.faults.add(statusFault(rnd.pick([400, 422]), 'GET', LIST_PATH));
				try {
					record(await poller.poll());
				} catch {
					stats.failedPolls++;
				}
				sb.faults.clear();
			} else if (roll < 0.3) {
				// The list changes while the poll is between two pages: its second list request is
				// held until the change is made (a poll of one page ends without it).
				const release = holdSecondPage(sb);
				let settled = false;
				const polling = poller.poll().finally(() => {
					settled = true;
				});
				while (!settled && !listRequestsSeen(sb, 2))
					await new Promise((resolve) => setTimeout(resolve, 2));
				mutate(true);
				release();
				record(await polling);
				sb.faults.clear();
				stats.midPoll++;
			} else {
				record(await poller.poll());
			}
			stats.requests += sb.count({ path: LIST_PATH });
			if (process.env.SOAK_DEBUG) {
				// Per poll: service time, kind, list requests (status:since:page:answer), state.
				const requests = sb.requests
					.filter((r) => r.path === LIST_PATH)
					.map(
						(r) =>
							`${String(r.query['q[status]'])}:${String(r.query['q[updated_since]'])}:p${String(r.query['page[number]'])}:${r.status}`,
					);
				const events =
					(
						poller.staticData() as {
							events?: Record<string, { cursor: number; since: number; seen: object }>;
						}
					).events ?? {};
				const state = Object.entries(events).map(
					([name, v]) =>
						`${name}(cursor ${v.cursor}, since ${v.since}, ${Object.keys(v.seen).length} keys)`,
				);
				debugLog.push(
					`step ${step} t=${sb.clock.now()} ${roll < 0.12 ? 'failing' : roll < 0.3 ? 'mid-walk' : 'plain'} [${requests.join(' ')}] ${state.join(' ')}`,
				);
			}
			const data = poller.staticData() as { events?: Record<string, { seen: object }> };
			for (const state of Object.values(data.events ?? {}))
				stats.maxSeen = Math.max(stats.maxSeen, Object.keys(state.seen).length);
			advance(rnd.int(0, 3000));
		}

		// Drain: let generations finish and late cards become listable.
		sb.faults.clear();
		advance(8000);
		record(await poller.poll());
		advance(8000);
		record(await poller.poll());
		expect(await poller.poll()).toBeNull();

		const expected = new Set(truth.events);
		const missed = truth.events.filter((key) => !firedSet.has(key) && !optional.has(key));
		const extra = fired.filter((key) => !expected.has(key));
		console.log(
			`soak seed ${seed} ${JSON.stringify(scenario)}: ${stats.docs} documents, ${truth.events.length} events, ` +
				`${stats.polls} polls (${stats.failedPolls} failed, ${stats.midPoll} changed mid-walk), ` +
				`${stats.regenerated} regenerated/removed, ${stats.requests} list requests, max ${stats.maxSeen} keys kept`,
		);
		if (process.env.SOAK_DEBUG && (missed.length || extra.length)) {
			for (const key of missed) {
				const [id, ms] = key.split('@');
				const rec = sb.documents.get(id);
				console.log(
					`missed ${key} (${new Date(Number(ms)).toISOString()}) now: ${rec ? `${rec.status}@${rec.updated_at}` : 'deleted'} optional=${[...optional].filter((k) => k.startsWith(id)).join(',')} fired=${fired.filter((k) => k.startsWith(id)).join(',')}`,
				);
			}
			console.log(debugLog.join('\n'));
		}
		expect({ seed, missed }).toEqual({ seed, missed: [] });
		expect({ seed, extra }).toEqual({ seed, extra: [] });
		expect(new Set(truth.events).size).toBe(truth.events.length);
		expect(fired.length).toBeGreaterThanOrEqual(truth.events.length - optional.size);
		expect(truth.events.length).toBeGreaterThan(500);
		expect(optional.size).toBeLessThan(truth.events.length / 10);

		// Bounded state: only keys inside each event's window.
		const data = poller.staticData() as {
			events: Record<string, { cursor: number; since: number; seen: Record<string, number> }>;
		};
		for (const state of Object.values(data.events)) {
			for (const ms of Object.values(state.seen))
				expect(ms).toBeGreaterThanOrEqual(state.since * 1000);
		}
		expect(stats.maxSeen).toBeLessThan(400);
	} finally {
		await sb.close();
	}
}

describe(`trigger soak (seed ${SEED})`, () => {
	test.each(SCENARIOS.map((scenario, i) => [i, scenario] as const))(
		'scenario %i: exactly once under random load',
		async (i, scenario) => {
			await soak(scenario, (SEED + i * 7919) >>> 0);
		},
	);
});
