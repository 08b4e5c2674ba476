#!/usr/bin/env node
/* `npm run test:e2e`: the package in a real n8n, as people run it, and its editor in a real
 * browser. First it checks its prerequisites and, when one is missing, says in seconds what
 * to install and how to skip that part. Then it installs the pinned n8n (once, into
 * .cache/n8n-e2e/, with npm ci from test/e2e/n8n-install/<version>/), packs this package,
 * and runs two legs at once (most of their time is spent waiting for n8n's once-a-minute
 * polls):
 *   - one process (test/e2e/single.js): `n8n start` on SQLite, the editor in Chromium;
 *   - queue mode (test/e2e/queue.js): PostgreSQL, Redis, a main, a worker and two webhook
 *     processes.
 * Ends with "N passed, N failed".
 * Environment: E2E_SKIP_BROWSER=1 (no Chromium checks), E2E_SKIP_QUEUE=1 (no queue-mode
 * leg), E2E_CHROMIUM (another Chrome), E2E_KEEP=1 (keep the temporary folders and logs). */
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

const root = path.resolve(__dirname, '..', '..');
const { install } = require('./install');
const { missingPrerequisites } = require('./prerequisites');
const { packPackage } = require(path.join(root, 'test', 'e2e', 'common'));
const { runSingleLeg } = require(path.join(root, 'test', 'e2e', 'single'));
const { runQueueLeg } = require(path.join(root, 'test', 'e2e', 'queue'));

async function main() {
	const started = Date.now();
	const options = {
		browser: process.env.E2E_SKIP_BROWSER !== '1',
		queue: process.env.E2E_SKIP_QUEUE !== '1',
		keep: process.env.E2E_KEEP === '1',
	};
	const missing = missingPrerequisites(options);
	if (missing.length) {
		console.error('e2e: missing prerequisites; nothing was run:');
		for (const m of missing) console.error(`  - ${m}`);
		console.log('0 passed, 1 failed');
		process.exit(1);
	}
	const skipped = [
		!options.browser && 'the browser checks (E2E_SKIP_BROWSER=1)',
		!options.queue && 'the queue-mode leg (E2E_SKIP_QUEUE=1)',
	].filter(Boolean);
	if (skipped.length) console.log(`e2e: skipping ${skipped.join(' and ')}`);

	const server = install();
	const version = require(path.join(server.dir, 'node_modules', 'n8n', 'package.json')).version;
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-pack-'));
	const tarball = packPackage(tmp);
	console.log(`e2e: n8n ${version}; legs: one process${options.queue ? ', queue mode' : ''}`);

	const results = [];
	const check = (name, ok, detail = '') => {
		results.push({ name, ok: !!ok });
		console.log(`  ${ok ? '✓' : '✗'} ${name}${detail ? ` (${detail})` : ''}`);
	};
	const legs = [runSingleLeg({ server, tarball, check, ...options })];
	if (options.queue) legs.push(runQueueLeg({ server, tarball, check, ...options }));
	await Promise.all(legs);
	fs.rmSync(tmp, { recursive: true, force: true });

	const passed = results.filter((r) => r.ok).length;
	const failed = results.length - passed;
	console.log(`\ne2e: ${((Date.now() - started) / 1000).toFixed(0)} s`);
	if (failed) for (const r of results.filter((x) => !x.ok)) console.log(`  failed: ${r.name}`);
	console.log(`${passed} passed, ${failed} failed`);
	process.exit(failed ? 1 : 0);
}

main().catch((error) => {
	console.error(error);
	console.log('0 passed, 1 failed');
	process.exit(1);
});
