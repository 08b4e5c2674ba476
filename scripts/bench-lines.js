'use strict';
/* The line-item scenarios of `npm run bench` (see bench.js), through the real n8n engine
 * against the sandbox (a generation takes about 1.5 s: pending 100 ms + generating 1400 ms):
 * - one document of 1,000 lines from 1,000 items (Documents: One for All Items): requests by
 *   kind, wall time, and the process's memory (peak RSS over the run, heap growth);
 * - 1,000 items grouped into 100 documents (One per Group of Items, 10 lines each) against
 *   100 plain items (One per Item): requests and wall time.
 * Create + wait + download in one node run each.
 *   node scripts/bench-lines.js     (npm run bench -- --only lines) */
const { cliOption, requestKind: kindOf, runScript } = require('./ts-register');

const ITEMS = Number(cliOption('--items', '1000'));
const GROUPS = Number(cliOption('--groups', '100'));
const KINDS = ['create', 'create (sync)', 'poll (list)', 'poll (get)', 'file', 'other'];
const MB = 1024 * 1024;
const fmt = (n, digits = 2) => n.toFixed(digits);

/** Order rows: `n` items over `groups` orders, each row a product line. */
function rows(n, groups) {
	return Array.from({ length: n }, (_, i) => ({
		order: `ORD-${String((i % groups) + 1).padStart(4, '0')}`,
		product: `Product ${i + 1}`,
		quantity: (i % 7) + 1,
		unit_price: 3.5 + (i % 11),
	}));
}

function parameters(templateId, grouping) {
	return {
		resource: 'document',
		operation: 'create',
		templateId: { __rl: true, mode: 'id', value: templateId },
		payload: '={{ { "order": $json.order, "customer": { "name": "Bench" } } }}',
		grouping,
		groupKey: '={{ $json.order }}',
		linesPath: 'lines',
		line: '={{ { "description": $json.product, "quantity": $json.quantity, "unit_price": $json.unit_price } }}',
		waitForCompletion: true,
		download: true,
	};
}

/** Samples the process's RSS every 10 ms while `run` goes on; the peak and the heap's growth. */
async function withMemory(run) {
	global.gc?.();
	const heapBefore = process.memoryUsage().heapUsed;
	let peak = process.memoryUsage().rss;
	const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
	try {
		const result = await run();
		return { result, peakRss: peak, heapGrowth: process.memoryUsage().heapUsed - heapBefore };
	} finally {
		clearInterval(timer);
	}
}

/** One node run over `input` on a fresh sandbox: outputs, requests by kind, wall time. */
async function measure(input, grouping) {
	const { startSandbox } = require('../test/sandbox');
	const { credentialsFor, runNode } = require('../test/harness');
	const sb = await startSandbox({ pendingMs: 100, generatingMs: 1400, availableDocuments: 100000 });
	try {
		const template = sb.templates.find((t) => t.identifier === 'invoice').id;
		const started = Date.now();
		const { result, peakRss, heapGrowth } = await withMemory(
			async () =>
				await runNode({
					parameters: parameters(template, grouping),
					items: input,
					credentials: credentialsFor(sb),
				}),
		);
		const wall = (Date.now() - started) / 1000;
		if (result.error) throw new Error(`${grouping}: ${result.error.message}`);
		const kinds = Object.fromEntries(KINDS.map((k) => [k, 0]));
		for (const request of sb.requests) kinds[kindOf(request)]++;
		const payloadBytes = [...sb.documents.values()].reduce((n, d) => n + d.payload.length, 0);
		return {
			documents: result.items.length,
			kinds,
			requests: sb.requests.length,
			wall,
			peakRss,
			heapGrowth,
			payloadBytes,
		};
	} finally {
		await sb.close();
	}
}

const kindsText = (kinds) =>
	KINDS.filter((k) => kinds[k])
		.map((k) => `${k} ${kinds[k]}`)
		.join(', ');

async function runLines() {
	console.log('');
	console.log(`Line items: create + wait + download, one node run (sandbox: generation ~1.5 s)`);
	const one = await measure(rows(ITEMS, 1), 'all');
	console.log(`  ${ITEMS} items -> 1 document of ${ITEMS} lines`);
	console.log(`    requests ${one.requests} (${kindsText(one.kinds)}), wall ${fmt(one.wall)} s`);
	console.log(
		`    payload ${fmt(one.payloadBytes / 1024, 1)} KB; memory: peak RSS ${fmt(one.peakRss / MB, 1)} MB, heap growth ${fmt(one.heapGrowth / MB, 1)} MB`,
	);
	const grouped = await measure(rows(ITEMS, GROUPS), 'byKey');
	const plain = await measure(rows(GROUPS, GROUPS), 'perItem');
	console.log(
		`  ${ITEMS} items grouped into ${GROUPS} documents (${ITEMS / GROUPS} lines each) against ${GROUPS} plain items`,
	);
	console.log(
		`    grouped: ${grouped.documents} documents, requests ${grouped.requests} (${kindsText(grouped.kinds)}), wall ${fmt(grouped.wall)} s`,
	);
	console.log(
		`    plain:   ${plain.documents} documents, requests ${plain.requests} (${kindsText(plain.kinds)}), wall ${fmt(plain.wall)} s`,
	);
	console.log(
		`    ratio grouped/plain: requests ${fmt(grouped.requests / plain.requests)}x, wall ${fmt(grouped.wall / plain.wall)}x`,
	);
}

module.exports = { runLines };

if (require.main === module) runScript('bench-lines', runLines);
