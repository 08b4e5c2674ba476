'use strict';
// What both legs of the end-to-end suite (one process; queue mode) share: the package
// installed as n8n installs community packages beside a sandbox, the owner set up through
// n8n's REST API, waiting for a condition, and counting the sandbox's requests.

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const { sleep } = require('./n8n');
const { PACKAGE } = require('./parts');

const root = path.resolve(__dirname, '..', '..');
const { startSandbox } = require(path.join(root, 'test', 'sandbox'));
const OWNER = {
	email: 'owner@example.test',
	firstName: 'Ada',
	lastName: 'Owner',
	password: 'E2e-Passw0rd!',
};

async function until(condition, ms, step = 250) {
	const end = Date.now() + ms;
	while (Date.now() < end) {
		if (await condition()) return true;
		await sleep(step);
	}
	return false;
}

function packPackage(dir) {
	const result = spawnSync('npm', ['pack', '--pack-destination', dir, '--loglevel=error'], {
		cwd: root,
		encoding: 'utf8',
	});
	if (result.status !== 0) throw new Error(`npm pack failed: ${result.stderr}`);
	return path.join(dir, result.stdout.trim().split('\n').pop());
}

/**
 * What each leg starts with: a temporary user folder with the package installed in it as n8n
 * installs community packages, and a sandbox whose documents take a second to generate.
 */
async function startLeg(prefix, tarball) {
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	const installed = installInto(tmp, tarball);
	const sb = await startSandbox({ host: '127.0.0.1', pendingMs: 300, generatingMs: 700 });
	return { tmp, installed, sb };
}

/** Installs the tarball as n8n installs a community package: npm in ~/.n8n/nodes. */
function installInto(userFolder, tarball) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	fs.writeFileSync(
		path.join(nodesDir, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }),
	);
	const result = spawnSync(
		'npm',
		[
			'install',
			tarball,
			'--omit=dev',
			'--legacy-peer-deps',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			'--loglevel=error',
		],
		{ cwd: nodesDir, encoding: 'utf8' },
	);
	if (result.status !== 0) throw new Error(`installing the package failed: ${result.stderr}`);
	return path.join(nodesDir, 'node_modules', PACKAGE);
}

/** Imports the workflows (an object of them) with one run of n8n's CLI: a file holding a list. */
async function importWorkflows(n8n, dir, flows) {
	const file = path.join(dir, 'workflows.json');
	fs.writeFileSync(file, JSON.stringify(Object.values(flows)));
	await n8n.cli(['import:workflow', `--input=${file}`]);
}

/** The owner account, set up through n8n's REST API (no browser needed), then signed in. */
async function setUpOwner(n8n) {
	await n8n.rest('POST', '/owner/setup', OWNER);
	await signIn(n8n);
}

async function signIn(n8n) {
	await n8n.rest('POST', '/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
}

/**
 * The run `n8n execute --rawOutput` printed: its JSON, from the line `{` to the first line `}`
 * (n8n prints log lines before it, and may print one after it: a task runner registering
 * late). Undefined when there is none.
 */
function executionOutput(stdout) {
	const json = /^\{$[\s\S]*?^\}$/m.exec(stdout);
	try {
		return json ? JSON.parse(json[0]) : undefined;
	} catch {
		return undefined;
	}
}

/** GET requests the sandbox received for `<prefix><id>` (one per run that read the document). */
const byIdRequests = (sb, prefix, id) =>
	sb.requests.filter((r) => r.method === 'GET' && r.path === `${prefix}${id}`).length;

/** The executions n8n recorded for a workflow. */
async function executionsOf(n8n, workflowId) {
	const list = await n8n.rest(
		'GET',
		`/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`,
	);
	return list?.results ?? [];
}

const FINISHED = new Set(['success', 'error', 'canceled', 'crashed']);

/**
 * Waits until a workflow has at least `count` executions and every one of them has ended
 * (none new, running or waiting): what a run does, it has done. Answers them.
 */
async function settledExecutions(n8n, workflowId, count, ms = 30_000) {
	let list = [];
	await until(async () => {
		list = await executionsOf(n8n, workflowId);
		return list.length >= count && list.every((e) => FINISHED.has(e.status));
	}, ms);
	return list;
}

/**
 * The polling trigger (the `poll` example workflow: receipts, every minute) across a restart
 * of the n8n process that polls: documents finish before, while it is down, and after; each
 * must start exactly one run (its "Read receipt" reads the document once), even after one more
 * poll (checked once the poll after that one came: no fixed wait). Answers whether the trigger polled at all, the reads per document, and the restart's
 * time.
 */
async function pollAcrossRestart({ sb, n8n }) {
	const receipt = sb.templates.find((t) => t.identifier === 'receipt').id;
	const listPolls = () =>
		sb.requests.filter(
			(r) => r.path === '/api/v1/document_cards' && r.query['q[document_template_id]'],
		).length;
	const polled = await until(() => listPolls() > 0, 75_000);
	const docs = [];
	const finishSome = async (n) => {
		for (let i = 0; i < n; i++) {
			docs.push(
				sb.createDocument({
					document_template_id: receipt,
					status: 'pending',
					payload: { n: docs.length },
				}).id,
			);
			await sleep(300);
		}
		// Generated: each one finished in the sandbox before the next step.
		await until(() => docs.every((id) => sb.documents.get(id)?.status === 'success'), 30_000);
	};
	const reads = () => docs.map((id) => byIdRequests(sb, '/api/v1/documents/', id));
	const fetchedOnce = () => reads().every((c) => c >= 1);
	await finishSome(3);
	await until(fetchedOnce, 75_000);
	const t0 = Date.now();
	await n8n.stop();
	await finishSome(2); // finished while n8n is down
	await n8n.start();
	const restartMs = Date.now() - t0;
	await signIn(n8n);
	await finishSome(2);
	await until(fetchedOnce, 150_000);
	// One more poll after the last run: nothing may fire twice. What it started has run by
	// the poll after it (n8n starts a poll's run as soon as the poll answers).
	const pollsSoFar = listPolls();
	await until(() => listPolls() > pollsSoFar + 1, 150_000);
	return { polled, reads: reads(), restartMs };
}

module.exports = {
	OWNER,
	pollAcrossRestart,
	byIdRequests,
	executionOutput,
	executionsOf,
	importWorkflows,
	installInto,
	settledExecutions,
	packPackage,
	root,
	setUpOwner,
	startLeg,
	signIn,
	until,
};
