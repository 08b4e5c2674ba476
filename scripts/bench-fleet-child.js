'use strict';
/* One process of the fleet bench (bench-fleet.js): loads the built package through n8n's
 * engine as a queue-mode worker does, says it is ready, and on the parent's go runs one
 * execution of the action node over its share of the items. Answers, through the IPC channel,
 * how its items ended and the instant its run ended. */
require('./ts-register');
const { loadPackage, runNode } = require('../test/harness');

/* Its n8n user folder (N8N_USER_FOLDER, binary data included) is the parent's to remove once
 * this process has exited: n8n may still be writing into it as the run ends. */
async function main() {
	await loadPackage();
	const job = await new Promise((resolve) => {
		process.once('message', resolve);
		process.send({ ready: true });
	});
	const result = await runNode({
		parameters: job.parameters,
		items: job.items,
		credentials: job.credentials,
		nodeSettings: { onError: 'continueRegularOutput' },
	});
	const endedAt = Date.now();
	const out = result.items;
	await new Promise((resolve) =>
		process.send(
			{
				endedAt,
				error: result.error ? String(result.error.message) : undefined,
				ok: out.filter((item) => item.json.status === 'success' && item.binary?.data).length,
				failures: out.filter((item) => item.json.error).map((item) => String(item.json.error)),
			},
			resolve,
		),
	);
}

main().then(
	() => process.exit(0),
	(error) => {
		console.error(`bench-fleet-child failed: ${error && error.stack ? error.stack : error}`);
		process.exit(1);
	},
);
