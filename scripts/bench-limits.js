'use strict';
/* The rate-limited scenarios of `npm run bench` (see bench.js): a batch of create + wait +
 * download through the real n8n engine against a sandbox with a plan's limits (a request
 * limit per window, a generation queue, a quota). Prints, per scenario: items that succeeded
 * with their file, documents the sandbox made against items, wall time against the earliest
 * the limit allows, the share of requests answered 429 (against items), and peak memory
 * growth (RSS, sampled every 50 ms). Also the large-file scenario: files of tens of MB,
 * served by a sandbox in another process, into n8n's filesystem binary store. */
const { spawn } = require('child_process');
const path = require('path');

const fmt = (n, digits = 2) => n.toFixed(digits);
const mb = (bytes) => `${fmt(bytes / 1024 / 1024, 0)} MB`;

/** Samples the RSS of this process while `task` runs: the peak above the start. */
async function withMemory(task) {
	global.gc?.();
	const start = process.memoryUsage().rss;
	let peak = start;
	const timer = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage().rss);
	}, 50);
	try {
		const result = await task();
		peak = Math.max(peak, process.memoryUsage().rss);
		return { result, growth: peak - start };
	} finally {
		clearInterval(timer);
	}
}

function items(n, prefix) {
	return Array.from({ length: n }, (_, i) => ({
		number: `${prefix}-${String(i + 1).padStart(4, '0')}`,
		order_id: `${prefix}-ORD-${i + 1}`,
		customer: { name: `Customer ${i + 1}` },
		total: 10 + i,
	}));
}

/** Create, wait and download, the item as the payload, its order id as meta, named after its number. */
function parameters(templateId, options = {}) {
	return {
		resource: 'document',
		operation: 'create',
		templateId: { __rl: true, mode: 'id', value: templateId },
		payload: '={{ $json }}',
		waitForCompletion: true,
		download: true,
		additionalFields: {
			meta: '={{ { "order_id": $json.order_id } }}',
			filename: '=invoice-{{ $json.number }}.pdf',
		},
		options,
	};
}

/**
 * The earliest a batch can end under a fixed-window limit: its minimal API requests (a create
 * per item and one list page per `pageSize` documents: 100 asked for, 24 where the service
 * ignores that) sent as the windows allow from `startedAt`,
 * then the documents of the last window through the generation queue.
 */
function earliestMs({ items: n, limit, startedAt, pendingMs, generatingMs, workers, pageSize }) {
	const needed = n + Math.ceil(n / pageSize);
	const windowsAfterFirst = Math.ceil(needed / limit.requests) - 1;
	const firstEnds = (Math.floor(startedAt / limit.perMs) + 1) * limit.perMs;
	const lastSend =
		windowsAfterFirst > 0 ? firstEnds + (windowsAfterFirst - 1) * limit.perMs : startedAt;
	const lastDocs = Math.min(n, needed - windowsAfterFirst * limit.requests);
	const generation =
		pendingMs + Math.ceil(lastDocs / Math.max(1, workers || lastDocs)) * generatingMs;
	return lastSend - startedAt + generation;
}

/** One scenario: a sandbox with `plan`, one node run over `n` items. */
async function runLimited({ name, n, plan, options, target }) {
	const { startSandbox } = require('../test/sandbox');
	const { credentialsFor, runNode } = require('../test/harness');
	const sb = await startSandbox({ availableDocuments: 100000, ...plan });
	try {
		const template = sb.templates.find((t) => t.identifier === 'invoice');
		const input = items(n, name.replace(/\W+/g, '').slice(0, 8).toUpperCase());
		const startedAt = Date.now();
		const { result, growth } = await withMemory(
			async () =>
				await runNode({
					parameters: parameters(template.id, options),
					items: input,
					credentials: credentialsFor(sb),
					nodeSettings: { onError: 'continueRegularOutput' },
				}),
		);
		const ms = Date.now() - startedAt;
		if (result.error) throw new Error(`${name}: the run failed: ${result.error.message}`);
		const out = result.items;
		const ok = out.filter((item) => item.json.status === 'success' && item.binary?.data).length;
		const failed = out.filter((item) => item.json.error);
		const made = sb.documents.size;
		// Every document made appears in exactly one item (output or error).
		const named = new Map();
		for (const item of out) {
			const id = item.json.error ? item.json.documentId : item.json.id;
			if (id) named.set(id, (named.get(id) ?? 0) + 1);
		}
		const unnamed = [...sb.documents.keys()].filter((id) => named.get(id) !== 1).length;
		const api = sb.requests.filter((r) => r.path.startsWith('/api/'));
		const limited = api.filter((r) => r.status === 429).length;
		const earliest = earliestMs({
			items: n,
			limit: plan.rateLimit,
			startedAt,
			pendingMs: plan.pendingMs,
			generatingMs: plan.generatingMs,
			workers: plan.workers,
			pageSize: plan.honourPageSize === false ? 24 : 100,
		});
		const hints = result.runData?.['Document Generation']?.[0]?.hints ?? [];
		return {
			name,
			n,
			ok,
			failed: failed.length,
			failures: [...new Set(failed.map((item) => item.json.error))].slice(0, 3),
			made,
			unnamed,
			ms,
			earliest,
			api: api.length,
			limited,
			growth,
			hints,
			target,
		};
	} finally {
		await sb.close();
	}
}

function printLimited(r) {
	const ratio = r.ms / r.earliest;
	console.log(`  ${r.name}`);
	console.log(
		`    items ${r.n}: ${r.ok} succeeded with their file, ${r.failed} failed; documents made ${r.made} (${r.unnamed} not named in exactly one item)`,
	);
	console.log(
		`    wall time ${fmt(r.ms / 1000, 1)} s, earliest the limit allows ${fmt(r.earliest / 1000, 1)} s -> ${fmt(ratio)}x`,
	);
	console.log(
		`    API requests ${r.api}, answered 429: ${r.limited} (${fmt((100 * r.limited) / r.api, 1)}% of requests, ${fmt((100 * r.limited) / r.n, 1)}% of items); peak memory growth ${mb(r.growth)}`,
	);
	for (const failure of r.failures) console.log(`    failure: ${failure}`);
	for (const hint of r.hints) console.log(`    hint: ${hint.message}`);
	if (r.target) console.log(`    target: ${r.target(r)}`);
}

/** A sandbox in its own process (so its memory is not this one's), with `flags`. */
async function sandboxProcess(flags) {
	const child = spawn(
		process.execPath,
		[path.join(__dirname, 'sandbox.js'), '--port', '0', '--no-seed-docs', ...flags],
		{ stdio: ['ignore', 'pipe', 'inherit'] },
	);
	let text = '';
	const info = await new Promise((resolve, reject) => {
		child.stdout.on('data', (chunk) => {
			text += chunk;
			const url = /Base URL : (\S+)/.exec(text);
			const key = /API key {2}: (\S+)/.exec(text);
			const invoice = /(\S+) {2}invoice /.exec(text);
			if (url && key && invoice) resolve({ url: url[1], apiKey: key[1], invoice: invoice[1] });
		});
		child.once('exit', (code) => reject(new Error(`the sandbox exited (${code})`)));
	});
	return { ...info, close: () => child.kill('SIGTERM') };
}

/** Large files into n8n's filesystem binary store: peak memory growth of this process. */
async function runLargeFiles({ n, sizeBytes }) {
	const { runNode } = require('../test/harness');
	const sb = await sandboxProcess([
		'--file-size',
		String(sizeBytes),
		'--pending-ms',
		'100',
		'--generating-ms',
		'1400',
		'--quota',
		'100000',
	]);
	try {
		const startedAt = Date.now();
		const { result, growth } = await withMemory(
			async () =>
				await runNode({
					parameters: parameters(sb.invoice),
					items: items(n, 'CAT'),
					credentials: { baseUrl: sb.url, apiKey: sb.apiKey },
				}),
		);
		if (result.error) throw new Error(`large files: the run failed: ${result.error.message}`);
		const sizes = result.items.map((item) => item.binary?.data?.fileSize);
		const whole = result.items.filter((item) => /^\d/.test(String(item.binary?.data?.fileSize)));
		return { n, sizeBytes, ms: Date.now() - startedAt, growth, whole: whole.length, sizes };
	} finally {
		sb.close();
	}
}

module.exports = { earliestMs, parameters, printLimited, runLargeFiles, runLimited, mb, fmt };
