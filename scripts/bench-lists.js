'use strict';
/* The list economy of `npm run bench -- --only lists` (see bench.js), through the real n8n
 * engine against the sandbox, once with the sandbox honouring `page[size]` (100 cards a page,
 * as the node asks) and once ignoring it (24 a page, the service's default):
 * - the polling trigger's poll after a burst of 600 finished documents;
 * - Get Many with Return All over 500 documents of a template;
 * - a run of 12 creates with a Unique Key over 480 recent documents of the template (the
 *   look-up), against the same run without a key;
 * - a batch of 1,000 documents (create + wait + download, generations of ~0.3 s).
 * Prints the list requests (and all API requests) of each, and checks that every result is
 * complete, each document once. */
const LIST = '/api/v1/document_cards';
const START = Date.UTC(2030, 0, 1, 9, 0, 0);

const lists = (sb) => sb.requests.filter((r) => r.method === 'GET' && r.path === LIST).length;
const api = (sb) => sb.requests.filter((r) => r.path.startsWith('/api/')).length;

function check(ok, what) {
	if (!ok) throw new Error(`bench-lists: ${what}`);
}

async function triggerBurst(honourPageSize) {
	const { startSandbox } = require('../test/sandbox');
	const { createPoller, credentialsFor } = require('../test/harness');
	const sb = await startSandbox({ clock: 'manual', startTime: START, seed: 11, honourPageSize });
	try {
		const poller = await createPoller({
			parameters: { events: ['success'] },
			credentials: credentialsFor(sb),
		});
		await poller.poll();
		sb.clock.advance(10_000);
		await poller.poll();
		sb.clock.advance(1000);
		for (let i = 0; i < 600; i++) sb.createDocument({ status: 'success' });
		sb.resetRequests();
		const result = await poller.poll();
		const fired = new Set((result?.[0] ?? []).map((item) => item.json.id));
		check(fired.size === 600 && result[0].length === 600, 'the trigger fired each of 600 once');
		return { lists: lists(sb), api: api(sb) };
	} finally {
		await sb.close();
	}
}

async function getMany(honourPageSize) {
	const { startSandbox } = require('../test/sandbox');
	const { credentialsFor, runNode } = require('../test/harness');
	const sb = await startSandbox({ honourPageSize });
	try {
		const template = sb.templates.find((t) => t.identifier === 'invoice').id;
		for (let i = 0; i < 500; i++)
			sb.createDocument({ status: 'success', document_template_id: template });
		sb.resetRequests();
		const result = await runNode({
			parameters: {
				resource: 'document',
				operation: 'getAll',
				returnAll: true,
				filters: { templateIds: [template] },
			},
			credentials: credentialsFor(sb),
		});
		const ids = new Set(result.items.map((item) => item.json.id));
		check(!result.error && ids.size === 500 && result.items.length === 500, 'Get Many of 500');
		return { lists: lists(sb), api: api(sb) };
	} finally {
		await sb.close();
	}
}

function createParameters(template, keyed) {
	return {
		resource: 'document',
		operation: 'create',
		templateId: { __rl: true, mode: 'id', value: template },
		payload: '={{ { "n": $json.n } }}',
		options: keyed ? { uniqueKey: '={{ "INV-" + $json.n }}' } : {},
	};
}

async function lookUp(honourPageSize) {
	const { startSandbox } = require('../test/sandbox');
	const { credentialsFor, runNode } = require('../test/harness');
	const sb = await startSandbox({ pendingMs: 20, generatingMs: 80, honourPageSize });
	try {
		const template = sb.templates.find((t) => t.identifier === 'invoice').id;
		for (let i = 0; i < 480; i++) {
			const at = Date.now() - (i + 1) * 60_000;
			sb.createDocument({
				status: 'success',
				document_template_id: template,
				created_at: at,
				updated_at: at,
			});
		}
		const items = Array.from({ length: 12 }, (_, n) => ({ n }));
		const credentials = credentialsFor(sb);
		sb.resetRequests();
		const plain = await runNode({
			parameters: createParameters(template, false),
			items,
			credentials,
		});
		check(!plain.error && plain.items.length === 12, 'the plain run of 12');
		const plainApi = api(sb);
		const plainLists = lists(sb);
		sb.resetRequests();
		const keyed = await runNode({
			parameters: createParameters(template, true),
			items,
			credentials,
		});
		const made = keyed.items.filter((item) => item.json.origin === 'created').length;
		check(!keyed.error && made === 12, 'the keyed run of 12 made 12 documents');
		return { plainApi, plainLists, lists: lists(sb), api: api(sb) };
	} finally {
		await sb.close();
	}
}

async function batch(honourPageSize, n) {
	const { startSandbox } = require('../test/sandbox');
	const { credentialsFor, runNode } = require('../test/harness');
	const sb = await startSandbox({
		pendingMs: 100,
		generatingMs: 200,
		availableDocuments: 100_000,
		honourPageSize,
	});
	try {
		const template = sb.templates.find((t) => t.identifier === 'invoice').id;
		const items = Array.from({ length: n }, (_, i) => ({ n: i }));
		const started = Date.now();
		const result = await runNode({
			parameters: { ...createParameters(template, false), download: true },
			items,
			credentials: credentialsFor(sb),
		});
		const ms = Date.now() - started;
		const ok = result.items.filter((item) => item.json.status === 'success' && item.binary?.data);
		check(!result.error && ok.length === n && sb.documents.size === n, `a batch of ${n}`);
		return { lists: lists(sb), api: api(sb), ms };
	} finally {
		await sb.close();
	}
}

async function runLists({ batchSize = 1000 } = {}) {
	console.log('');
	console.log(
		'Lists: 100 cards a page asked for (page[size]), with the service honouring it or not',
	);
	const modes = [
		['honoured (100 a page)', true],
		['ignored (24 a page)', false],
	];
	const rows = [];
	for (const [label, honoured] of modes) {
		const trigger = await triggerBurst(honoured);
		const many = await getMany(honoured);
		const look = await lookUp(honoured);
		const big = await batch(honoured, batchSize);
		rows.push({ label, honoured, trigger, many, look, big });
	}
	for (const { label, honoured, trigger, many, look, big } of rows) {
		console.log(`  page[size] ${label}:`);
		console.log(
			`    trigger after a burst of 600: ${trigger.lists} list requests` +
				(honoured ? ` (target at most 10: ${trigger.lists <= 10 ? 'met' : 'MISSED'})` : ''),
		);
		console.log(
			`    Get Many of 500 (Return All): ${many.lists} list requests` +
				(honoured ? ` (target at most 7: ${many.lists <= 7 ? 'met' : 'MISSED'})` : ''),
		);
		console.log(
			`    12 creates over 480 recent documents: ${look.api} requests with a Unique Key ` +
				`(${look.lists} lists), ${look.plainApi} without (${look.plainLists} lists)` +
				(honoured
					? ` (target at most +8: ${look.api <= look.plainApi + 8 ? 'met' : 'MISSED'}, +${look.api - look.plainApi})`
					: ''),
		);
		console.log(
			`    a batch of ${batchSize} (create + wait + download): ${big.lists} list requests, ` +
				`${big.api} API requests (${(big.api / batchSize).toFixed(2)} per document), ${(big.ms / 1000).toFixed(1)} s`,
		);
	}
	console.log('');
	return rows;
}

module.exports = { runLists };
