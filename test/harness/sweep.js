/**
 * Jest `globalTeardown`: removes the n8n user folders (`$TMPDIR/n8n-dg-test-<pid>`, made by
 * `setup-env.ts`, binary data included) of test processes that have ended. A worker still
 * ending as the run ends keeps its folder until the next run's sweep.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');

const { alive } = require('../../scripts/processes');

const FOLDER = /^n8n-dg-test-(\d+)$/;

module.exports = async function sweep() {
	for (const name of fs.readdirSync(os.tmpdir())) {
		const pid = FOLDER.exec(name)?.[1];
		if (pid === undefined || alive(Number(pid))) continue;
		fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true, maxRetries: 5 });
	}
};
