'use strict';
/* The fleet matrix in about two seconds: a simulation, on a simulated clock, of 1 and 4
 * processes, each with the `Pace` of nodes/shared/transport/limit.ts, making 160 documents
 * against the sandbox's own limit shapes (`LIMIT_SHAPES`), with 429s carrying `Retry-After`
 * and without. For trying a change to the pacing before the real matrix
 * (`node scripts/bench-fleet.js --matrix issue --docs 160`, about 20 minutes), which it
 * follows within a few points of refusals and time:
 *
 *   node scripts/sim-fleet.js [--seeds 3] [--root <checkout holding the Pace to try>]
 *
 * Each process sends at most 8 creates at once through its pace (a refused one first
 * again), then one list poll; a request takes 20 ms, a document 0.6 s to make. Printed per
 * cell: the mean time (1 process against the earliest the shape allows, 4 against 1) and the
 * share of requests refused (mean and worst seed), with the targets missed. */
const path = require('path');

const { cliOption } = require('./ts-register');
const { LIMIT_SHAPES } = require('../test/sandbox');

const root = path.resolve(cliOption('--root', path.join(__dirname, '..')));
const { Pace } = require(path.join(root, 'nodes/shared/transport/limit.ts'));

const DOCS = 160;
const WRITERS = 8;
const LATENCY_MS = 20;
const GENERATION_MS = 600;

/** The shapes and the earliest each allows 162 requests (160 creates, 2 polls). */
const SHAPES = [
	{ name: 'fixed 20 per 10 s', limit: { requests: 20, perMs: 10_000 }, earliestS: 80.6 },
	{
		name: 'sliding 30 over 15 s',
		limit: { requests: 30, perMs: 15_000, window: 'sliding' },
		earliestS: 75.6,
	},
	{
		name: 'bucket 2/s, burst 10',
		limit: { requests: 2, perMs: 1000, window: 'bucket', burst: 10 },
		earliestS: 76.6,
	},
];

/** A seeded random source (a linear congruential generator), so a run can be repeated. */
function seeded(seed) {
	let state = seed >>> 0;
	return () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/** Events in time order (ties in the order they were added). */
function eventQueue() {
	const events = [];
	let added = 0;
	return {
		at: (t, run) => events.push({ t, order: added++, run }),
		next() {
			let first = 0;
			for (let i = 1; i < events.length; i++) {
				const [a, b] = [events[i], events[first]];
				if (a.t < b.t || (a.t === b.t && a.order < b.order)) first = i;
			}
			return events.splice(first, 1)[0];
		},
		get size() {
			return events.length;
		},
	};
}

/** One cell: `processes` paces sharing `limit`; its time (s) and share of requests refused. */
function simulate({ limit, processes, retryAfter, seed }) {
	const random = seeded(seed);
	const counter = LIMIT_SHAPES[limit.window ?? 'fixed'](limit);
	const events = eventQueue();
	const sent = { all: 0, refused: 0 };
	const endedAt = [];
	let now = 0;
	const answer = (proc, request, startedAt) => {
		const allowed = counter.allowed(now);
		if (allowed) counter.take(now);
		const retryAfterMs = 1000 * Math.max(1, Math.ceil((counter.resetAt(now) - now) / 1000));
		events.at(now + LATENCY_MS / 2, () => {
			if (allowed) {
				proc.pace.finish(now, startedAt, 200);
				request.then();
			} else {
				sent.refused++;
				proc.pace.finish(now, startedAt, 429, retryAfter ? retryAfterMs : undefined);
				proc.queue.unshift(request);
			}
			pump(proc);
		});
	};
	const pump = (proc) => {
		while (proc.queue.length) {
			const wait = proc.pace.readyIn(now);
			if (wait > 0) {
				if (proc.wakeAt > now) return;
				proc.wakeAt = now + Math.min(wait, 1000);
				events.at(proc.wakeAt, () => pump(proc));
				return;
			}
			const request = proc.queue.shift();
			const startedAt = now;
			proc.pace.start(now);
			sent.all++;
			events.at(now + LATENCY_MS / 2, () => answer(proc, request, startedAt));
		}
	};
	for (let id = 0; id < processes; id++) {
		const proc = {
			pace: new Pace(0, random),
			queue: [],
			wakeAt: -1,
			left: DOCS / processes,
			made: 0,
		};
		const send = (then) => {
			proc.queue.push({ then });
			pump(proc);
		};
		const writer = () => {
			if (proc.left-- <= 0) return;
			send(() => {
				const madeAt = now + GENERATION_MS;
				writer();
				if (++proc.made === DOCS / processes) send(() => (endedAt[id] = Math.max(now, madeAt)));
			});
		};
		for (let w = 0; w < WRITERS; w++) writer();
	}
	for (let steps = 0; events.size && steps < 1e6; steps++) {
		const event = events.next();
		now = Math.max(now, event.t);
		event.run();
	}
	return { timeS: Math.max(...endedAt) / 1000, refused: sent.refused / sent.all };
}

/** Mean time and refusals over the seeds, and the worst refusal. */
function cell(shape, processes, retryAfter, seeds) {
	const runs = [];
	for (let s = 1; s <= seeds; s++)
		runs.push(simulate({ limit: shape.limit, processes, retryAfter, seed: s * 7919 }));
	const mean = (key) => runs.reduce((sum, run) => sum + run[key], 0) / runs.length;
	return {
		timeS: mean('timeS'),
		refused: mean('refused'),
		worst: Math.max(...runs.map((r) => r.refused)),
	};
}

const pct = (share) => `${(share * 100).toFixed(1)}%`;

function main() {
	const seeds = Number(cliOption('--seeds', '3'));
	let missed = 0;
	for (const shape of SHAPES) {
		for (const retryAfter of [true, false]) {
			const one = cell(shape, 1, retryAfter, seeds);
			const four = cell(shape, 4, retryAfter, seeds);
			const [vsEarliest, vsOne] = [one.timeS / shape.earliestS, four.timeS / one.timeS];
			const oneBound = shape.limit.window === 'sliding' && !retryAfter ? 1.25 : 1.1;
			const misses = [
				vsEarliest > oneBound && '1 process late',
				vsOne > (retryAfter ? 1.1 : 1.25) && '4 processes late',
				Math.max(one.worst, four.worst) > 0.25 && 'over 25% refused',
			].filter(Boolean);
			if (misses.length) missed++;
			console.log(
				`${shape.name}, ${retryAfter ? 'with' : 'without'} Retry-After: ` +
					`1 process ${one.timeS.toFixed(1)} s (${vsEarliest.toFixed(2)}x), ${pct(one.refused)} refused (worst ${pct(one.worst)}); ` +
					`4 processes ${vsOne.toFixed(2)}x, ${pct(four.refused)} (worst ${pct(four.worst)})` +
					(misses.length ? `  MISSED: ${misses.join(', ')}` : ''),
			);
		}
	}
	console.log(`${missed} of ${SHAPES.length * 2} cells miss a target`);
}

main();
