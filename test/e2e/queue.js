'use strict';
// The queue-mode leg of the end-to-end suite: n8n as teams run it at scale. PostgreSQL as the
// database, Redis as the queue, a main process (it runs the polling trigger and registers
// webhooks; production webhooks off), one worker that runs every execution, and two
// `n8n webhook` processes that receive the service's deliveries; binary data in the database.
//
// It proves: the action node (create, wait, download) runs on the worker, and under Retry On
// Fail makes one document per item there, however many tries; the polling
// trigger fires every finished document exactly once across a restart of the main; signed
// deliveries to either webhook process start one execution each and forged ones answer 401;
// a delivery sent again, to the other process or after a restart of both, gets no item past
// n8n's Remove Duplicates node keyed on the trigger's `deliveryId`, while two different
// deliveries arriving at once on the two processes both pass; four copies of one delivery
// arriving together at one process (its file slow) start one execution; deactivation removes
// the hook.

const fs = require('fs');
const path = require('path');

const { createN8n, freePort } = require('./n8n');
const { startPostgres, startRedis } = require('./services');
const { credential, queueWorkflows } = require('./workflows');
const common = require('./common');

/** What the example's "Get invoice data" reads for each run that gets past Remove Duplicates. */
const READ = '/api/v1/documents/';

async function runQueueLeg({ server, tarball, check: report, keep }) {
	const results = [];
	const check = (name, ok, detail) => {
		results.push(!!ok);
		report(`queue mode: ${name}`, ok, detail);
	};
	const started = Date.now();
	const { tmp, sb } = await common.startLeg('n8n-e2e-queue-', tarball);
	const log = (name) => path.join(tmp, `${name}.log`);
	const stops = [() => sb.close()];
	const facts = {};
	try {
		const pg = await startPostgres(log('postgres'));
		stops.push(() => pg.stop());
		const redis = await startRedis(log('redis'));
		stops.push(() => redis.stop());
		check(
			'PostgreSQL and Redis started on free ports in a temporary folder',
			true,
			`${pg.port}, ${redis.port}`,
		);

		const [portMain, portA, portB, portWorker, healthWorker, ...brokers] = await Promise.all(
			Array.from({ length: 9 }, () => freePort()),
		);
		const shared = {
			...pg.env,
			...redis.env,
			EXECUTIONS_MODE: 'queue',
			N8N_DEFAULT_BINARY_DATA_MODE: 'database',
			// The hooks registered with the service point at webhook process A.
			N8N_WEBHOOK_URL: `http://127.0.0.1:${portA}/`,
		};
		const process_ = (name, command, port, extra = {}) =>
			createN8n({
				install: server,
				userFolder: tmp,
				port,
				brokerPort: brokers.shift(),
				command,
				log: log(name),
				env: { ...shared, ...extra },
				healthPort: extra.QUEUE_HEALTH_CHECK_PORT && Number(extra.QUEUE_HEALTH_CHECK_PORT),
			});
		const main = process_('main', 'start', portMain, {
			N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
		});
		const worker = process_('worker', 'worker', portWorker, {
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(healthWorker),
		});
		const hookA = process_('webhook-a', 'webhook', portA);
		const hookB = process_('webhook-b', 'webhook', portB);
		const all = [main, worker, hookA, hookB];
		stops.push(() => Promise.all(all.map((p) => p.stop())));

		const flows = queueWorkflows(sb);
		fs.writeFileSync(
			path.join(tmp, 'credential.json'),
			JSON.stringify(credential(sb, sb.webhooks.secret)),
		);
		await main.cli(['import:credentials', `--input=${path.join(tmp, 'credential.json')}`]);
		await common.importWorkflows(main, tmp, flows);
		for (const flow of Object.values(flows))
			await main.cli(['publish:workflow', `--id=${flow.id}`]);
		let t0 = Date.now();
		await main.start();
		await Promise.all([worker.start(), hookA.start(), hookB.start()]);
		facts.startMs = Date.now() - t0;
		await common.setUpOwner(main);
		check(
			'n8n main, one worker and two webhook processes started (production webhooks off on main)',
			true,
			`${(facts.startMs / 1000).toFixed(0)} s`,
		);

		// ---- the action node, on the worker ----
		sb.resetRequests();
		const answer = await fetch(`${hookA.url}/webhook/e2e-generate`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ number: 'Q-1', customer: { name: 'Ada Lovelace' }, total: 42 }),
		});
		const document = await answer.json().catch(() => undefined);
		const actionRuns = await common.executionsOf(main, flows.action.id);
		const ranOnWorker = actionRuns.some((e) =>
			fs.readFileSync(log('worker'), 'utf8').includes(`Worker started execution ${e.id} `),
		);
		check(
			'the action node creates, waits and downloads on the worker',
			answer.status === 200 &&
				document?.status === 'success' &&
				document?.meta?.order_id === 'Q-1' &&
				actionRuns.length === 1 &&
				ranOnWorker,
			`${answer.status} ${document?.status}; ${actionRuns.length} execution(s), on the worker: ${ranOnWorker}`,
		);
		const detail = actionRuns[0]
			? JSON.stringify(await main.rest('GET', `/executions/${actionRuns[0].id}`))
			: '';
		const stored = /(database:[^"\\]+)/.exec(detail)?.[1];
		check(
			'… its PDF is kept in the database (binary data mode "database")',
			!!stored && detail.includes('application/pdf'),
			stored,
		);

		// ---- Retry On Fail on the worker: one item fails to render, each try reuses the rest ----
		const fails = sb.templates.find((t) => t.identifier === 'always-fails').id;
		const invoiceTemplate = sb.templates.find((t) => t.identifier === 'invoice').id;
		const batch = Array.from({ length: 6 }, (_, i) => ({
			number: `RETRY-${i + 1}`,
			template: i === 3 ? fails : invoiceTemplate,
		}));
		const retried = () =>
			[...sb.documents.values()].filter((d) =>
				JSON.parse(d.meta ?? '{}').order_id?.startsWith('RETRY-'),
			);
		sb.resetRequests();
		await fetch(`${hookB.url}/webhook/e2e-retry`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ items: batch }),
		});
		await common.until(
			async () => (await common.executionsOf(main, flows.retry.id)).length >= 1,
			30_000,
		);
		await common.until(
			async () => (await common.executionsOf(main, flows.retry.id))[0]?.status === 'error',
			60_000,
		);
		const retryRuns = await common.executionsOf(main, flows.retry.id);
		const regenerated = sb.requests.filter((r) => r.method === 'PUT').length;
		const retryOnWorker = retryRuns.some((e) =>
			fs.readFileSync(log('worker'), 'utf8').includes(`Worker started execution ${e.id} `),
		);
		check(
			'Retry On Fail (3 tries) on the worker, one of 6 items failing to render: 6 documents, the failed one generated again on each retry',
			retried().length === 6 &&
				new Set(retried().map((d) => JSON.parse(d.meta).order_id)).size === 6 &&
				regenerated === 2 &&
				retryRuns.length === 1 &&
				retryRuns[0].status === 'error' &&
				retryOnWorker,
			`${retried().length} documents, ${regenerated} regenerations, ${retryRuns.length} execution(s) ${retryRuns[0]?.status}, on the worker: ${retryOnWorker}`,
		);

		// ---- the webhook trigger: registration, deliveries to either process ----
		const hooks = () => [...sb.webhooks.hooks.values()];
		check(
			"activation registered the instant trigger with the webhook processes' URL",
			hooks().length === 1 && hooks()[0].url.startsWith(`${hookA.url}/webhook/`),
			hooks()
				.map((h) => h.url)
				.join(' '),
		);
		const hookPath = hooks()[0] ? new URL(hooks()[0].url).pathname : '/webhook/none';
		const at = (proc) => `${proc.url}${hookPath}`;
		const invoice = sb.templates.find((t) => t.identifier === 'invoice').id;
		const channel = flows.webhook.nodes.find((node) =>
			node.type.endsWith('.documentGenerationWebhookTrigger'),
		).parameters.filters.channel;
		const newDocument = () =>
			sb.createDocument({
				document_template_id: invoice,
				status: 'success',
				meta: { _webhook_channel: channel },
			}).id;
		sb.setOptions({ webhooks: false });
		const reads = (id) => common.byIdRequests(sb, READ, id);
		const runs = async () => (await common.executionsOf(main, flows.webhook.id)).length;
		const one = newDocument();
		const two = newDocument();
		const first = await sb.webhooks.send(at(hookA), sb.webhooks.documentOf(one));
		const second = await sb.webhooks.send(at(hookB), sb.webhooks.documentOf(two));
		await common.until(() => reads(one) >= 1 && reads(two) >= 1, 30_000);
		await common.until(async () => (await runs()) >= 2, 15_000);
		check(
			'a signed delivery to either webhook process starts exactly one execution',
			first.status === 200 &&
				second.status === 200 &&
				reads(one) === 1 &&
				reads(two) === 1 &&
				(await runs()) === 2,
			`A ${first.status}, B ${second.status}; ${await runs()} executions`,
		);
		const forged = await Promise.all(
			[hookA, hookB].map((proc) =>
				sb.webhooks.send(at(proc), sb.webhooks.documentOf(newDocument()), {
					secret: `whsec_${Buffer.from('not the secret').toString('base64')}`,
				}),
			),
		);
		check(
			'forged deliveries answer 401 on both webhook processes and start nothing',
			forged.every((d) => d.status === 401) && (await runs()) === 2,
			forged.map((d) => d.status).join(' '),
		);

		// ---- replays: to the other process, and after a restart of both ----
		/** Sends both deliveries again (to `toOne` and `toTwo`): each starts a run, no item passes. */
		const replayBoth = async (name, toOne, toTwo) => {
			const before = await runs();
			await sb.webhooks.send(at(toOne), sb.webhooks.documentOf(one), { id: first.id });
			await sb.webhooks.send(at(toTwo), sb.webhooks.documentOf(two), { id: second.id });
			await common.settledExecutions(main, flows.webhook.id, before + 2);
			check(
				name,
				reads(one) === 1 && reads(two) === 1,
				`${await runs()} executions, reads ${reads(one)} ${reads(two)}`,
			);
		};
		await replayBoth(
			'a delivery sent again to the other webhook process gets no item past Remove Duplicates',
			hookB,
			hookA,
		);
		t0 = Date.now();
		await Promise.all([hookA.stop(), hookB.stop()]);
		await Promise.all([hookA.start(), hookB.start()]);
		facts.webhookRestartMs = Date.now() - t0;
		await replayBoth('… and after a restart of both webhook processes', hookA, hookB);
		const x = newDocument();
		const y = newDocument();
		const together = await Promise.all([
			sb.webhooks.send(at(hookA), sb.webhooks.documentOf(x)),
			sb.webhooks.send(at(hookB), sb.webhooks.documentOf(y)),
		]);
		await common.until(() => reads(x) >= 1 && reads(y) >= 1, 30_000);
		check(
			'two different deliveries arriving at once on the two processes both pass',
			together.every((d) => d.status === 200) && reads(x) === 1 && reads(y) === 1,
		);
		// Copies of one delivery arriving together at one process: the service sends a delivery
		// again when a large file made n8n's answer slow, while the first is still downloading.
		const z = newDocument();
		const slowFile = sb.faults.add({ type: 'delay', delayMs: 1500, path: '/files/', times: 4 });
		const beforeCopies = await runs();
		const copies = await Promise.all(
			Array.from({ length: 4 }, () =>
				sb.webhooks.send(at(hookA), sb.webhooks.documentOf(z), { id: 'msg_e2e_copies_together' }),
			),
		);
		// Every copy has been answered, so any run one started is recorded: wait for them to end.
		await common.settledExecutions(main, flows.webhook.id, beforeCopies + 1);
		const copyRuns = (await runs()) - beforeCopies;
		sb.faults.remove(slowFile);
		check(
			'four copies of one signed delivery arriving together at one webhook process (its file slow) start one execution, every copy answered 2xx',
			copies.every((d) => d.status === 200) && copyRuns === 1 && reads(z) === 1,
			`${copies.map((d) => d.status).join(' ')}; ${copyRuns} execution(s), reads ${reads(z)}`,
		);
		facts.deliveries = { executions: await runs(), passed: 5, replays: 4, forged: 2, copies: 4 };

		// ---- the polling trigger across a restart of the main ----
		const poll = await common.pollAcrossRestart({ sb, n8n: main });
		check('the polling trigger is active on the main and polls', poll.polled);
		facts.mainRestartMs = poll.restartMs;
		const counts = poll.reads;
		const pollRuns = await common.executionsOf(main, flows.poll.id);
		facts.poll = { documents: counts.length, runs: pollRuns.length, reads: counts };
		check(
			`the polling trigger fired every finished document exactly once across a restart of the main (${counts.length} documents)`,
			counts.every((c) => c === 1) && pollRuns.every((e) => e.status === 'success'),
			`reads ${counts.join(' ')}; ${pollRuns.length} executions`,
		);

		// ---- deactivation ----
		await main.rest('POST', `/workflows/${flows.webhook.id}/deactivate`);
		await common.until(() => hooks().length === 0, 15_000);
		check('deactivating the workflow removes its hook from the service', hooks().length === 0);
	} catch (error) {
		check(`the leg ran to its end: ${error.message}`, false);
	} finally {
		for (const stop of stops.reverse()) await stop().catch(() => undefined);
	}
	facts.seconds = Math.round((Date.now() - started) / 1000);
	const failed = results.some((ok) => !ok);
	console.log(
		`e2e queue mode: ${JSON.stringify(facts)}${keep || failed ? `; logs in ${tmp}` : ''}`,
	);
	if (!keep && !failed) fs.rmSync(tmp, { recursive: true, force: true });
	return facts;
}

module.exports = { runQueueLeg };
