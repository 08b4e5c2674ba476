'use strict';
/* Runs the action node once on the real n8n engine in a process of its own, so that a test can
 * kill it midway as a crashed worker dies: `node test/nodes/DocumentGeneration/engine/run-child.js '<json>'` with
 * { parameters, items, credentials } (credentials as credentialsFor(sandbox) gives them). */
const { runScript } = require('../../../../scripts/ts-register');
const { runNode } = require('../../../harness');

runScript('run-child', async () => {
	const { parameters, items, credentials } = JSON.parse(process.argv[2]);
	await runNode({ parameters, items, credentials });
});
