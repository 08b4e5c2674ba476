'use strict';
// What both legs of the end-to-end suite (one process; queue mode) share: the package
// installed as n8n installs community packages, the owner set up through n8n's REST API,
// waiting for a condition, and counting the sandbox's requests.

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const { sleep } = require('./n8n');
const { PACKAGE } = require('./workflows');

const root = path.resolve(__dirname, '..', '..');
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

/** The owner account, set up through n8n's REST API (no browser needed), then signed in. */
async function setUpOwner(n8n) {
	await n8n.rest('POST', '/owner/setup', OWNER);
	await signIn(n8n);
}

async function signIn(n8n) {
	await n8n.rest('POST', '/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
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

module.exports = {
	OWNER,
	byIdRequests,
	executionsOf,
	installInto,
	packPackage,
	setUpOwner,
	signIn,
	until,
};
