'use strict';
/* The fleet part of `npm run bench` (see bench.js), or alone:
 *
 *   node scripts/bench-fleet.js [--docs 200] [--rate 120] [--window 60] [--matrix]
 *     [--processes 1,4] [--retry-after both|yes|no] [--log requests.jsonl] [--shape sliding]
 *
 * `--matrix` runs every limit shape of MATRIX (fixed windows of 120/60 s and 30/15 s, a
 * sliding window of 120/60 s, a token bucket of 2/s holding 20) instead of the one fixed
 * window of `--rate` per `--window`; about 45 minutes for 200 documents. `--matrix issue
 * --docs 160` runs ISSUE_MATRIX (fixed 20/10 s, sliding 30/15 s, bucket 2/s holding 10).
 * `--shape <text>` keeps the matrix's shapes whose name holds it (one cell while tuning).
 *
 * One account shared by several n8n processes (queue-mode workers, or several instances):
 * one sandbox in this process with a request limit of `--rate` per `--window` seconds (a fixed window, as
 * rack-attack counts), then that many OS processes (bench-fleet-child.js), each loading the
 * built package through n8n's engine as a worker does. They all start at once, at the start
 * of a limit window (the sandbox's clock is set there, so every configuration meets the same
 * windows), and make `--docs` documents between them, each process an equal share in one
 * execution. Printed for each configuration, with the limit's 429s carrying `Retry-After` and
 * without it: wall time from the start to the last document, the slowest and fastest
 * process, API requests, refused requests (429), documents made and distinct documents made
 * (two documents for one item would show here). Targets, in every cell: 1 process within
 * 1.10x of the earliest the shape allows (1.25x on a sliding window without Retry-After); 4
 * processes within 1.25x of 1 process (1.10x with Retry-After); refused requests at most 25%
 * of all requests; every document made once, none failed.
 * `--docs 40 --rate 24 --window 12` is a quick version (the same pace at a fifth of the
 * scale, about 20 s a run). */
const { fork } = require('child_process');
const fs = require('fs');
const path = require('path');

const { cliOption, runScript } = require('./ts-register');
const { earliestMs, fmt, parameters } = require('./bench-limits');

/** The generation queue of the plans with limits: 10 workers, 0.5 s per document. */
const GENERATION = { pendingMs: 100, generatingMs: 500, workers: 10 };

/**
 * The limit shapes of the matrix (`--matrix`): a fixed window of 120 per 60 s and of 30 per
 * 15 s, a sliding window of 120 over any 60 s, a token bucket of 2 a second holding 20.
 */
const MATRIX = [
	{ name: 'fixed 120 per 60 s', limit: { requests: 120, perMs: 60_000 } },
	{ name: 'fixed 30 per 15 s', limit: { requests: 30, perMs: 15_000 } },
	{ name: 'sliding 120 over 60 s', limit: { requests: 120, perMs: 60_000, window: 'sliding' } },
	{
		name: 'bucket 2/s, burst 20',
		limit: { requests: 2, perMs: 1000, window: 'bucket', burst: 20 },
	},
];

/**
 * The issue's matrix (`--matrix issue`, 160 documents): a fixed window of 20 per 10 s, a
 * sliding window of 30 over 15 s, a token bucket of 2 a second holding 10.
 */
const ISSUE_MATRIX = [
	{ name: 'fixed 20 per 10 s', limit: { requests: 20, perMs: 10_000 } },
	{ name: 'sliding 30 over 15 s', limit: { requests: 30, perMs: 15_000, window: 'sliding' } },
	{
		name: 'bucket 2/s, burst 10',
		limit: { requests: 2, perMs: 1000, window: 'bucket', burst: 10 },
	},
];

/**
 * The earliest a batch can end under `limit` from the start of a window: a window (fixed, or
 * sliding from an idle start) sends its count at once and again each perMs; a bucket sends
 * its burst at once, then one request per token. Then the last documents' generation.
 */
function earliestFor({ items: n, limit, startedAt, pageSize }) {
	if (limit.window !== 'bucket')
		return earliestMs({ items: n, limit, startedAt, ...GENERATION, pageSize });
	const needed = n + Math.ceil(n / pageSize);
	const perToken = limit.perMs / limit.requests;
	const lastSend = Math.max(0, needed - (limit.burst ?? limit.requests)) * perToken;
	return lastSend + GENERATION.pendingMs + GENERATION.generatingMs;
}

/** A process of the fleet, once it has loaded the package; its n8n user folder is `folder`. */
async function startProcess(folder) {
	const child = fork(path.join(__dirname, 'bench-fleet-child.js'), [], {
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		env: { ...process.env, N8N_USER_FOLDER: folder },
	});
	const exited = new Promise((resolve) => child.once('exit', resolve));
	await new Promise((resolve, reject) => {
		child.once('message', resolve);
		child.once('exit', (code) => reject(new Error(`a fleet process exited early (${code})`)));
	});
	return { child, exited };
}

/** Its run's answer (bench-fleet-child.js). */
async function resultOf({ child }) {
	return await new Promise((resolve, reject) => {
		child.once('message', resolve);
		child.once('exit', (code) => reject(new Error(`a fleet process exited (${code})`)));
	});
}

function items(n) {
	return Array.from({ length: n }, (_, i) => ({
		number: `FLEET-${String(i + 1).padStart(4, '0')}`,
		order_id: `FLEET-ORD-${i + 1}`,
		customer: { name: `Customer ${i + 1}` },
		total: 10 + i,
	}));
}

/** The items' order ids among the documents the sandbox made: distinct documents. */
function distinctDocuments(sb) {
	const keys = new Set();
	for (const record of sb.documents.values()) {
		const meta = typeof record.meta === 'string' ? JSON.parse(record.meta) : record.meta;
		keys.add(meta?.order_id);
	}
	return keys.size;
}

/** `--log <file>`: every configuration's API requests, appended as JSON lines, for a closer look. */
const LOG = cliOption('--log', '');

function writeLog(file, { processes, retryAfter, startedAt, requests }) {
	const lines = requests
		.filter((r) => r.path.startsWith('/api/'))
		.map((r) =>
			JSON.stringify({
				processes,
				retryAfter,
				at: r.at - startedAt,
				method: r.method,
				path: r.path,
				status: r.status,
				order: r.body?.document?.meta,
			}),
		);
	fs.appendFileSync(file, `${lines.join('\n')}\n`);
}

/** One configuration: `processes` OS processes make `docs` documents between them. */
async function runFleet({ processes, docs, limit, retryAfter }) {
	const { startSandbox } = require('../test/sandbox');
	const { credentialsFor } = require('../test/harness');
	const rateLimit = { ...limit, retryAfter };
	const windowMs = limit.perMs;
	const sb = await startSandbox({ availableDocuments: 100000, ...GENERATION, rateLimit });
	const fleet = [];
	const folders = Array.from({ length: processes }, (_, i) =>
		path.join(process.env.N8N_USER_FOLDER, `fleet-${i}`),
	);
	try {
		for (const folder of folders) fleet.push(await startProcess(folder));
		const template = sb.templates.find((t) => t.identifier === 'invoice');
		const all = items(docs);
		const share = Math.ceil(docs / processes);
		const answers = fleet.map(resultOf);
		const startedAt = sb.clock.set(Math.ceil(sb.clock.now() / windowMs) * windowMs);
		const wallFrom = Date.now();
		sb.resetRequests();
		fleet.forEach(({ child }, i) =>
			child.send({
				parameters: parameters(template.id),
				items: all.slice(i * share, (i + 1) * share),
				credentials: credentialsFor(sb),
			}),
		);
		const results = await Promise.all(answers);
		if (LOG) writeLog(LOG, { processes, retryAfter, startedAt, requests: sb.requests });
		const ends = results.map((r) => r.endedAt - wallFrom);
		const api = sb.requests.filter((r) => r.path.startsWith('/api/'));
		return {
			processes,
			docs,
			retryAfter,
			ms: Math.max(...ends),
			fastestMs: Math.min(...ends),
			earliest: earliestFor({ items: docs, limit: rateLimit, startedAt, pageSize: 100 }),
			api: api.length,
			refused: api.filter((r) => r.status === 429).length,
			ok: results.reduce((sum, r) => sum + r.ok, 0),
			failures: [...new Set(results.flatMap((r) => r.failures.concat(r.error ?? [])))],
			made: sb.documents.size,
			distinct: distinctDocuments(sb),
		};
	} finally {
		for (const { child, exited } of fleet) {
			if (child.exitCode === null) child.kill('SIGTERM');
			await exited;
		}
		for (const folder of folders)
			fs.rmSync(folder, { force: true, recursive: true, maxRetries: 5 });
		await sb.close();
	}
}

const met = (ok) => (ok ? 'met' : 'MISSED');

function printRow(r) {
	console.log(
		`  ${String(r.processes).padEnd(11)}${`${fmt(r.ms / 1000, 1)} s`.padEnd(12)}${`${fmt(r.ms / r.earliest)}x`.padEnd(12)}` +
			`${`${fmt(r.fastestMs / 1000, 1)} s`.padEnd(18)}${String(r.api).padEnd(14)}` +
			`${`${r.refused} (${fmt((100 * r.refused) / r.api, 1)}%)`.padEnd(16)}${String(r.ok).padEnd(16)}` +
			`${String(r.made).padEnd(9)}${r.distinct}`,
	);
	for (const failure of r.failures.slice(0, 3)) console.log(`    failure: ${failure}`);
}

/** The issue's targets of a cell: 1 process vs the earliest, more processes vs 1. */
function targetsOf(name, retryAfter) {
	const sliding = /sliding/.test(name);
	return { alone: sliding && !retryAfter ? 1.25 : 1.1, fleet: retryAfter ? 1.1 : 1.25 };
}

/** The table of one limit shape (with or without Retry-After), and the issue's targets. */
function printFleet(name, rows) {
	const [one] = rows;
	const target = targetsOf(name, one.retryAfter);
	console.log('');
	console.log(
		`Fleet: ${one.docs} documents, ${name}, shared by several processes, 429 ${one.retryAfter ? 'with' : 'without'} Retry-After`,
	);
	console.log(
		'  processes  wall time   vs earliest fastest process   API requests  refused         with their file documents distinct',
	);
	for (const r of rows) printRow(r);
	console.log(
		`  target (1 process): within ${target.alone}x of the earliest: ${met(one.ms <= target.alone * one.earliest)} (${fmt(one.ms / one.earliest)}x)`,
	);
	for (const r of rows) {
		const vsOne =
			r === one
				? ''
				: `within ${target.fleet}x of 1 process: ${met(r.ms <= target.fleet * one.ms)} (${fmt(r.ms / one.ms)}x); `;
		console.log(
			`  target (${r.processes} process${r.processes === 1 ? '' : 'es'}): ${vsOne}refused at most 25% of requests: ${met(r.refused <= 0.25 * r.api)}; ` +
				`each document once, none failed: ${met(r.made === r.docs && r.distinct === r.docs && r.ok === r.docs)}`,
		);
	}
}

/**
 * Each limit shape (`limits`: `{ name, limit }`, the rateLimit of the sandbox without its
 * Retry-After), with and without Retry-After, for each process count.
 */
async function runFleets({
	docs = 200,
	limits = [MATRIX[0]],
	counts = [1, 4],
	retryAfters = [true, false],
} = {}) {
	for (const { name, limit } of limits)
		for (const retryAfter of retryAfters) {
			const rows = [];
			for (const processes of counts)
				rows.push(await runFleet({ processes, docs, limit, retryAfter }));
			printFleet(name, rows);
		}
}

/** The shapes asked for: `--matrix` (all four), or one fixed window of `--rate` per `--window` s. */
function limitsAsked() {
	const shape = cliOption('--shape', '');
	const only = (shapes) => shapes.filter(({ name }) => name.includes(shape));
	if (cliOption('--matrix', '') === 'issue') return only(ISSUE_MATRIX);
	if (process.argv.includes('--matrix')) return only(MATRIX);
	const requests = Number(cliOption('--rate', '120'));
	const seconds = Number(cliOption('--window', '60'));
	return [
		{ name: `fixed ${requests} per ${seconds} s`, limit: { requests, perMs: 1000 * seconds } },
	];
}

if (require.main === module) {
	const choice = cliOption('--retry-after', 'both');
	runScript('bench-fleet', () =>
		runFleets({
			docs: Number(cliOption('--docs', '200')),
			limits: limitsAsked(),
			counts: cliOption('--processes', '1,4').split(',').map(Number),
			retryAfters: choice === 'both' ? [true, false] : [choice === 'yes'],
		}),
	);
}

module.exports = { GENERATION, ISSUE_MATRIX, MATRIX, runFleets, targetsOf };
