'use strict';
/* The issue's fleet matrix in about two seconds: `runFleet` of test/harness/limitSim.ts (the
 * paces of nodes/shared/transport/limit.ts sharing one limit on a simulated clock, 8 requests
 * in flight each, latencies of 10 to 50 ms, each seed starting at a random moment of the
 * limit's window) for 1 and 4 processes making 160 documents between them (one create each,
 * then one poll), on the shapes of bench-fleet.js's ISSUE_MATRIX, with 429s carrying
 * `Retry-After` and without. For trying a change to the pacing before the real matrix
 * (`node scripts/bench-fleet.js --matrix issue --docs 160`, about 20 minutes):
 *
 *   node scripts/sim-fleet.js [--seeds 3] [--root <checkout holding the pace to try>]
 *
 * Printed per cell: the mean time (1 process against the earliest the shape allows, 4 against
 * 1, each with the last document's generation) and the share of requests refused (mean and
 * worst seed), with bench-fleet.js's targets that are missed. */
const path = require('path');

const { cliOption } = require('./ts-register');
const { GENERATION, ISSUE_MATRIX, targetsOf } = require('./bench-fleet');

const root = path.resolve(cliOption('--root', path.join(__dirname, '..')));
const { earliestMs, runFleet, seeded } = require(path.join(root, 'test/harness/limitSim.ts'));

const DOCS = 160;
const GENERATION_MS = GENERATION.pendingMs + GENERATION.generatingMs;
const MAX_MS = 600_000;

/**
 * One cell over `seeds` seeds, each starting at a random moment of the limit's window, with
 * latencies that vary (as the real matrix does): the mean time against the earliest the
 * shape allows from that moment (and in ms), the mean and worst share of requests refused.
 */
function cell(limit, paces, seeds) {
	const runs = [];
	for (let seed = 1; seed <= seeds; seed++) {
		const startMs = Math.floor(seeded(seed * 31)() * limit.perMs);
		const options = { paces, limit, demand: DOCS / paces + 1, maxMs: MAX_MS, seed, startMs };
		const run = runFleet({ ...options, jitter: true });
		const ms = Math.max(...run.doneAt) + GENERATION_MS;
		const earliest = earliestMs(limit, DOCS + 1, startMs) + GENERATION_MS;
		runs.push({ ms, vsEarliest: ms / earliest, refused: run.limited / run.sent });
	}
	const mean = (key) => runs.reduce((sum, run) => sum + run[key], 0) / runs.length;
	return {
		ms: mean('ms'),
		vsEarliest: mean('vsEarliest'),
		refused: mean('refused'),
		worst: Math.max(...runs.map((r) => r.refused)),
	};
}

const pct = (share) => `${(share * 100).toFixed(1)}%`;

/** Prints one cell and the targets it misses; answers whether it misses any. */
function printCell(name, limit, seeds) {
	const target = targetsOf(name, limit.retryAfter);
	const [one, four] = [cell(limit, 1, seeds), cell(limit, 4, seeds)];
	const misses = [
		one.vsEarliest > target.alone && '1 process late',
		four.ms > target.fleet * one.ms && '4 processes late',
		Math.max(one.worst, four.worst) > 0.25 && 'over 25% refused',
	].filter(Boolean);
	console.log(
		`${name}, ${limit.retryAfter ? 'with' : 'without'} Retry-After: ` +
			`1 process ${(one.ms / 1000).toFixed(1)} s (${one.vsEarliest.toFixed(2)}x), ` +
			`${pct(one.refused)} refused (worst ${pct(one.worst)}); ` +
			`4 processes ${(four.ms / one.ms).toFixed(2)}x, ${pct(four.refused)} (worst ${pct(four.worst)})` +
			(misses.length ? `  MISSED: ${misses.join(', ')}` : ''),
	);
	return misses.length > 0;
}

function main() {
	const seeds = Number(cliOption('--seeds', '3'));
	let missed = 0;
	for (const { name, limit } of ISSUE_MATRIX)
		for (const retryAfter of [true, false])
			if (printCell(name, { ...limit, retryAfter }, seeds)) missed++;
	console.log(`${missed} of ${ISSUE_MATRIX.length * 2} cells miss a target`);
}

main();
