'use strict';
/* The running-again scenarios of `npm run bench` (see bench.js), through the real n8n engine
 * against the sandbox:
 * - a 200-item batch on a plan with a request limit, its process killed once half the
 *   documents exist, then the same items run again: with a Unique Key, and the naive way (no
 *   key). Prints documents made against items, the look-up's requests, the second run's wall
 *   time and requests.
 * - the race: two executions with the same keys started a few ms apart, with and without a
 *   network delay on every API request; prints, per offset, the documents made for one key
 *   (1 is right, 2 is the race). */
const { spawn } = require('child_process');
const path = require('path');

const fmt = (n, digits = 1) => n.toFixed(digits);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function items(n) {
	return Array.from({ length: n }, (_, i) => ({
		number: `INV-R-${String(i + 1).padStart(4, '0')}`,
		customer: { name: `Customer ${i + 1}` },
		total: 10 + i,
	}));
}

function parameters(templateId, keyed) {
	return {
		resource: 'document',
		operation: 'create',
		templateId: { __rl: true, mode: 'id', value: templateId },
		payload: '={{ $json }}',
		additionalFields: { filename: '=invoice-{{ $json.number }}.pdf' },
		options: keyed ? { uniqueKey: '={{ $json.number }}' } : {},
	};
}

/** Runs the node over `input` in a child process and kills it once `killAt` documents exist. */
async function killedRun(sb, params, input, killAt) {
	const { credentialsFor } = require('../test/harness');
	const child = spawn(
		process.execPath,
		[
			path.join(__dirname, '..', 'test', 'nodes', 'DocumentGeneration', 'engine', 'run-child.js'),
			JSON.stringify({ parameters: params, items: input, credentials: credentialsFor(sb) }),
		],
		{ stdio: 'ignore' },
	);
	let ended = false;
	const exited = new Promise((resolve) => child.once('exit', resolve)).then(() => (ended = true));
	// Bounded: a child that ends (or stalls) before making `killAt` documents ends the wait.
	const deadline = Date.now() + 600_000;
	while (sb.documents.size < killAt && !ended && Date.now() < deadline) await sleep(5);
	child.kill('SIGKILL');
	await exited;
	// What the child had sent is still handled; a worker starts again later than that.
	for (let i = 0; i < 250 && sb.requests.some((r) => r.status === null); i++) await sleep(20);
	return sb.documents.size;
}

/** A killed 200-item batch, then the same items again; `keyed`: with a Unique Key. */
async function rerun({ n, plan, keyed }) {
	const { startSandbox } = require('../test/sandbox');
	const { credentialsFor, runNode } = require('../test/harness');
	const sb = await startSandbox({ availableDocuments: 100000, ...plan });
	try {
		const template = sb.templates.find((t) => t.identifier === 'invoice');
		const params = parameters(template.id, keyed);
		const input = items(n);
		const before = await killedRun(sb, params, input, n / 2);
		sb.resetRequests();
		const started = Date.now();
		const result = await runNode({
			parameters: params,
			items: input,
			credentials: credentialsFor(sb),
			nodeSettings: { onError: 'continueRegularOutput' },
		});
		const ms = Date.now() - started;
		if (result.error) throw new Error(`the second run failed: ${result.error.message}`);
		const api = sb.requests.filter((r) => r.path.startsWith('/api/'));
		const firstWrite = api.findIndex((r) => r.method !== 'GET');
		return {
			keyed,
			n,
			before,
			made: sb.documents.size,
			ok: result.items.filter((i) => i.json.status === 'success' && i.binary?.data).length,
			reused: result.items.filter((i) => i.json.origin === 'reused').length,
			lookUp: keyed ? (firstWrite < 0 ? api.length : firstWrite) : 0,
			creates: api.filter((r) => r.method === 'POST').length,
			requests: api.length,
			limited: api.filter((r) => r.status === 429).length,
			ms,
		};
	} finally {
		await sb.close();
	}
}

/**
 * Two executions with the same keys, the second started `offsetMs` after the first: how many
 * documents each key got (1 is right).
 */
async function race({ n, offsetMs, latencyMs }) {
	const { startSandbox } = require('../test/sandbox');
	const { credentialsFor, runNode } = require('../test/harness');
	const sb = await startSandbox({ pendingMs: 100, generatingMs: 400 });
	try {
		if (latencyMs)
			sb.faults.add({ type: 'delay', delayMs: latencyMs, path: /^\/api\//, times: Infinity });
		const template = sb.templates.find((t) => t.identifier === 'invoice');
		const run = async () =>
			await runNode({
				parameters: parameters(template.id, true),
				items: items(n),
				credentials: credentialsFor(sb),
				nodeSettings: { onError: 'continueRegularOutput' },
			});
		const first = run();
		await sleep(offsetMs);
		await Promise.all([first, run()]);
		return sb.documents.size / n;
	} finally {
		await sb.close();
	}
}

async function runRerun() {
	const n = 200;
	const plan = {
		pendingMs: 100,
		generatingMs: 500,
		workers: 10,
		rateLimit: { requests: 60, perMs: 10_000 },
	};
	console.log('');
	console.log(
		`Running again: ${n} items on a plan of 60 requests per 10 s (Retry-After), 10 generation workers, 0.5 s per document;`,
	);
	console.log(
		'  the first run is killed once half the documents exist, then the same items run again',
	);
	for (const keyed of [true, false]) {
		const r = await rerun({ n, plan, keyed });
		console.log(
			`  ${keyed ? 'Unique Key' : 'no key (naive)'}: ${r.before} documents when killed; after the second run ${r.made} documents for ${r.n} items ` +
				`(${r.ok} succeeded with their file, ${r.reused} reused)`,
		);
		console.log(
			`    second run: ${fmt(r.ms / 1000)} s, ${r.requests} API requests (${r.creates} creates, look-up ${r.lookUp} list pages, ${r.limited} answered 429)`,
		);
	}
}

async function runRace() {
	console.log('');
	console.log(
		'The race: two executions with the same keys, the second started later by the offset; documents per key (1 is right)',
	);
	const offsets = [0, 10, 25, 50, 100, 200, 400, 800];
	for (const [n, latencyMs] of [
		[1, 0],
		[1, 100],
		[40, 0],
		[40, 100],
	]) {
		const cells = [];
		for (const offsetMs of offsets)
			cells.push(`${offsetMs} ms: ${fmt(await race({ n, offsetMs, latencyMs }), 2)}`);
		console.log(
			`  ${n} item${n === 1 ? '' : 's'}, ${latencyMs ? `${latencyMs} ms network delay per request` : 'local'}: ${cells.join(', ')}`,
		);
	}
}

module.exports = { runRace, runRerun };
