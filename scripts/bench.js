#!/usr/bin/env node
'use strict';
/* `npm run bench`: generate-and-wait (create + wait + download) through the real n8n engine
 * against the local sandbox, with a generation taking about 1.5 s (pending 100 ms +
 * generating 1400 ms). Measures one node run over 40 and over 200 items (all created first,
 * then waited for together) and the naive way: one item at a time, each run waiting for its
 * document before the next starts (run for real for 40 items; for 200 it is computed from
 * the measured mean of those 40 single-item runs). Prints wall time, requests per document
 * by kind, and the ratio. Needs the built package (npm run bench builds first).
 *
 * Then plans with limits (bench-limits.js): a request limit with and without Retry-After, one
 * too tight for the Wait Timeout, and large files into n8n's filesystem binary store. Then
 * running again (bench-rerun.js): a 200-item batch killed midway on a plan with a limit, run
 * again with a Unique Key and without; and the race of two executions with the same keys
 * started a few ms apart. Then the list economy (bench-lists.js): the trigger after a burst of
 * 600, Get Many of 500, the look-up over 480 recent documents and a batch of 1,000, with the
 * sandbox honouring page[size] and ignoring it. Then line items (bench-lines.js): one document
 * of 1,000 lines from 1,000 items, and 1,000 items grouped into 100 documents against 100
 * plain items. Then the fleet (bench-fleet.js): one account shared by 1 and by 4 OS
 * processes, each running the package on n8n's engine as a queue-mode worker does, making 200
 * documents between them at 120 requests a minute, with and without Retry-After. Then the
 * Template Fields budget (bench-fields.js): CPU and clock time of each hostile template body
 * or sample data, in the reader and through the editor, against 1 s.
 *
 *   node scripts/bench.js [--sizes 40,200] [--naive 40] [--naive-estimate] [--only unlimited|limits|rerun|lists|lines|fleet|fields]
 *     --naive-estimate   run 3 single-item runs and compute the naive time (fast)
 *     --only limits      only the plans with limits (about 4 minutes); unlimited: only the
 *                        batches without limits; rerun: only running again; lists: only the
 *                        list economy (about a minute); lines: only line items (about 10 s);
 *                        fleet: only the fleet (about 5 minutes; with --matrix every
 *                        limit shape, about 45 minutes; `node scripts/bench-fleet.js --docs
 *                        40 --rate 24 --window 12` is a quick version); fields: only the Template Fields budget (about
 *                        a minute) */
const { cliOption, requestKind: kindOf, runScript } = require('./ts-register');
const {
	fmt: fmt2,
	mb,
	parameters: createParameters,
	printLimited,
	runLargeFiles,
	runLimited,
} = require('./bench-limits');

const { runRace, runRerun } = require('./bench-rerun');
const { runLists } = require('./bench-lists');
const { runLines } = require('./bench-lines');
const { MATRIX, runFleets } = require('./bench-fleet');
const { runFields } = require('./bench-fields');

const ONLY = cliOption('--only', 'all');

const SIZES = cliOption('--sizes', '40,200').split(',').map(Number);
const NAIVE_ITEMS = Number(cliOption('--naive', '40'));
const NAIVE_ESTIMATE = process.argv.includes('--naive-estimate');
const PENDING_MS = 100;
const GENERATING_MS = 1400;
const TARGET_SECONDS = 4;
const TARGET_REQUESTS = 3;
const KINDS = ['create', 'create (sync)', 'poll (list)', 'poll (get)', 'file', 'other'];

function countKinds(requests) {
	const counts = Object.fromEntries(KINDS.map((k) => [k, 0]));
	for (const request of requests) counts[kindOf(request)]++;
	return counts;
}

function invoiceItems(n, offset = 0) {
	return Array.from({ length: n }, (_, i) => ({
		number: `INV-B-${String(offset + i + 1).padStart(4, '0')}`,
		order_id: `ORD-${offset + i + 1}`,
		customer: { name: `Customer ${offset + i + 1}` },
		total: 10 + i,
	}));
}

const fmt = (n, digits = 2) => n.toFixed(digits);

async function main() {
	if (ONLY === 'all' || ONLY === 'unlimited') await unlimited();
	if (ONLY === 'all' || ONLY === 'limits') await limits();
	if (ONLY === 'all' || ONLY === 'rerun') {
		await runRerun();
		await runRace();
	}
	if (ONLY === 'all' || ONLY === 'lists') await runLists();
	if (ONLY === 'all' || ONLY === 'lines') await runLines();
	if (ONLY === 'all' || ONLY === 'fleet')
		await runFleets(process.argv.includes('--matrix') ? { limits: MATRIX } : {});
	if (ONLY === 'all' || ONLY === 'fields') await runFields();
}

/** The targets of the plans with limits (issue: large batches must become boring). */
const met = (ok) => (ok ? 'met' : 'MISSED');

async function limits() {
	console.log('');
	console.log('Plans with limits: create + wait + download, one node run, Continue On Fail on');
	const plans = [
		{
			name: '240 items, 100 requests/minute (Retry-After to the window end), 10 generation workers, 0.5 s per document',
			n: 240,
			plan: {
				pendingMs: 100,
				generatingMs: 500,
				workers: 10,
				rateLimit: { requests: 100, perMs: 60_000 },
			},
			target: (r) =>
				`all succeed with their file: ${met(r.ok === r.n)}; exactly ${r.n} documents: ${met(r.made === r.n)}; ` +
				`at most 1.25x the earliest: ${met(r.ms <= 1.25 * r.earliest)} (${fmt2(r.ms / r.earliest)}x); ` +
				`429 at most 10% of items: ${met(r.limited <= 0.1 * r.n)} (${fmt2((100 * r.limited) / r.n, 1)}%)`,
		},
		{
			name: '60 items, 20 requests per 10 s, 429 without Retry-After (generation 1.5 s)',
			n: 60,
			plan: {
				pendingMs: 100,
				generatingMs: 1400,
				rateLimit: { requests: 20, perMs: 10_000, retryAfter: false },
			},
			target: (r) =>
				`all succeed: ${met(r.ok === r.n)}; exactly ${r.n} documents: ${met(r.made === r.n)}; ` +
				`within 2x the earliest: ${met(r.ms <= 2 * r.earliest)} (${fmt2(r.ms / r.earliest)}x)`,
		},
		{
			name: 'too tight for the Wait Timeout: 60 items, 10 requests per 10 s, 1 worker at 2 s per document, Wait Timeout 20 s',
			n: 60,
			plan: {
				pendingMs: 100,
				generatingMs: 2000,
				workers: 1,
				rateLimit: { requests: 10, perMs: 10_000 },
			},
			options: { waitTimeout: 20 },
			target: (r) =>
				`every document made named in exactly one item: ${met(r.unnamed === 0)}; never two documents for one item: ${met(r.made <= r.n)}`,
		},
	];
	for (const plan of plans) printLimited(await runLimited(plan));

	console.log('');
	const large = await runLargeFiles({ n: 16, sizeBytes: 50_000_000 });
	console.log(
		`Large files: ${large.n} files of ${mb(large.sizeBytes)} (sandbox in another process) into n8n's filesystem binary store`,
	);
	console.log(
		`  ${large.whole} arrived whole in ${fmt2(large.ms / 1000, 1)} s; peak memory growth ${mb(large.growth)}; ` +
			`target under 150 MB: ${met(large.growth < 150 * 1024 * 1024)}`,
	);
	console.log('');
}

async function unlimited() {
	const { startSandbox } = require('../test/sandbox');
	const { credentialsFor, runNode } = require('../test/harness');

	const sb = await startSandbox({
		pendingMs: PENDING_MS,
		generatingMs: GENERATING_MS,
		availableDocuments: 100000,
	});
	const credentials = credentialsFor(sb);
	const template = sb.templates.find((t) => t.identifier === 'invoice');
	const parameters = createParameters(template.id);
	/** One node run over `items`; checks every document succeeded with its file. */
	const run = async (items) => {
		sb.resetRequests();
		const started = process.hrtime.bigint();
		const result = await runNode({ parameters, items, credentials });
		const ms = Number(process.hrtime.bigint() - started) / 1e6;
		if (result.error) throw new Error(`run failed: ${result.error.message}`);
		const out = result.items;
		const ok =
			out.length === items.length &&
			out.every(
				(item, i) =>
					item.json.status === 'success' &&
					item.binary?.data &&
					item.json.meta?.order_id === items[i].order_id,
			);
		if (!ok) throw new Error('not every document came back as success with its file, in order');
		return { ms, counts: countKinds(sb.requests), total: sb.requests.length };
	};

	try {
		console.log('');
		console.log(
			'Benchmark: generate and wait (create + wait + download) through the real n8n engine',
		);
		console.log(
			`  sandbox: each generation takes ~1.5 s (pending ${PENDING_MS} ms + generating ${GENERATING_MS} ms), local HTTP`,
		);
		await run(invoiceItems(1, 99000)); // warm-up: loads the package and the engine

		console.log('');
		console.log(
			'Batched: one node run over all items (created 8 at a time, then waited for together)',
		);
		const header = ['items', 'wall time', 'requests', 'per doc', ...KINDS.map((k) => `${k}/doc`)];
		const widths = header.map((h) => Math.max(10, h.length));
		const line = (cells) => `  ${cells.map((c, i) => c.padEnd(widths[i])).join('  ')}`.trimEnd();
		console.log(line(header));
		const batched = {};
		let offset = 0;
		for (const n of SIZES) {
			const r = await run(invoiceItems(n, offset));
			offset += n;
			batched[n] = r;
			const row = [
				String(n),
				`${fmt(r.ms / 1000)} s`,
				String(r.total),
				fmt(r.total / n),
				...KINDS.map((k) => fmt(r.counts[k] / n)),
			];
			console.log(line(row));
		}

		console.log('');
		const naiveRuns = NAIVE_ESTIMATE ? 3 : NAIVE_ITEMS;
		console.log(
			NAIVE_ESTIMATE
				? `Naive: one item at a time (3 sequential single-item runs measured, the rest computed)`
				: `Naive: one item at a time (${naiveRuns} sequential single-item workflow runs, each waiting for its document; measured)`,
		);
		let naiveMs = 0;
		let naiveRequests = 0;
		for (let i = 0; i < naiveRuns; i++) {
			const r = await run(invoiceItems(1, 50000 + i));
			naiveMs += r.ms;
			naiveRequests += r.total;
		}
		const perDoc = naiveMs / naiveRuns;
		console.log(
			`  ${naiveRuns} runs: ${fmt(naiveMs / 1000)} s in all, ${fmt(perDoc / 1000)} s per document, ${fmt(naiveRequests / naiveRuns)} requests per document`,
		);
		console.log('');
		console.log('Batched vs naive');
		for (const n of SIZES) {
			const measured = !NAIVE_ESTIMATE && n === naiveRuns;
			const naive = measured ? naiveMs : perDoc * n;
			console.log(
				`  ${String(n).padEnd(4)} items: batched ${fmt(batched[n].ms / 1000)} s vs naive ${fmt(naive / 1000, 1)} s ` +
					`(${measured ? 'measured' : `computed: ${n} x ${fmt(perDoc / 1000)} s measured per single-item run`}) ` +
					`-> ${fmt(naive / batched[n].ms, 1)}x faster`,
			);
		}
		const forty = batched[40];
		if (forty) {
			const perDocRequests = forty.total / 40;
			console.log('');
			console.log(
				`Target (40 items): under ${TARGET_SECONDS} s: ${forty.ms / 1000 < TARGET_SECONDS ? 'met' : 'MISSED'} (${fmt(forty.ms / 1000)} s); ` +
					`at most ${TARGET_REQUESTS} requests per document: ${perDocRequests <= TARGET_REQUESTS ? 'met' : 'MISSED'} (${fmt(perDocRequests)})`,
			);
		}
		console.log('');
	} finally {
		await sb.close();
	}
}

runScript('bench', main);
