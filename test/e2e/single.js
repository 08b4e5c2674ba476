'use strict';
// The one-process leg of the end-to-end suite: n8n as most people run it, one `n8n start`
// on SQLite. Through n8n's CLI and REST API:
//   - the action node (create, wait, download) with `n8n execute`, and inside Loop Over Items
//     (one document per item, round after round);
//   - the action node as an AI Agent's tools (an OpenAI Chat Model pointed at a local stand-in):
//     Template → Get Fields answers the model the template's fields, then Create, its Template
//     Fields left to the model (the tool schema is the template's fields), makes the document;
//   - the certificate and templates-as-code examples with `n8n execute` (test/e2e/examples.js):
//     n8n's Convert to File; n8n's Read/Write Files from Disk reading the template file from
//     the folder N8N_RESTRICT_FILE_ACCESS_TO names;
//   - the polling trigger, activated with `n8n publish:workflow`: every document the sandbox
//     finished starts exactly one run, across a restart of n8n (n8n polls at most once a
//     minute);
//   - the webhook trigger: the hook is registered, a signed delivery starts a run, forged,
//     stale and unsigned ones answer 401 and start none, a repeated one starts none,
//     deactivation removes the hook;
//   - Execution Logic v2 (binaryMode combined): Create, Update and Download put their files
//     into json._files.data, where n8n's Crypto node reads them (test/e2e/waiting.js);
//   - the instant trigger at each version (manual registration, a signed delivery): 2 in an
//     Execution Logic v2 workflow, 1 in a default-mode one, each one run with the document;
//   - the approval example: a draft, n8n's Wait node resumed by the approve link (the PDF) or
//     the refuse link (the draft deleted);
//   - the editor in Chromium (unless skipped): a credential created and tested, each node's
//     panel without parameter warnings (and a control panel with one), screenshots.
// The owner is set up through the REST API, so a browser problem fails only its own checks.

const fs = require('fs');
const path = require('path');

const { createN8n, freePort } = require('./n8n');
const { LOOP_ITEMS, workflows, credential } = require('./workflows');
const agent = require('./agent');
const { runBrowser } = require('./browser');
const {
	approvalWorkflow,
	certificateWorkflow,
	placeTemplateFiles,
	runCertificateCheck,
	runTemplatesAsCodeCheck,
	templatesAsCodeWorkflow,
} = require('./examples');
const {
	combinedWorkflow,
	instantWorkflow,
	runApprovalCheck,
	runCombinedCheck,
	runInstantVersionsCheck,
} = require('./waiting');
const common = require('./common');

async function runSingleLeg({ server, tarball, check, browser: withBrowser, keep }) {
	const { tmp, installed, sb } = await common.startLeg('n8n-e2e-', tarball);
	const log = path.join(tmp, 'n8n.log');
	check(
		'the packed package installs into ~/.n8n/nodes like a community package',
		fs.existsSync(path.join(installed, 'dist', 'nodes')),
	);

	// The folder n8n may read files from (n8n 2.x reads none elsewhere), with the template files.
	const files = path.join(fs.realpathSync(tmp), 'n8n-files');
	placeTemplateFiles(files);
	const n8n = createN8n({
		install: server,
		userFolder: tmp,
		port: await freePort(),
		brokerPort: await freePort(),
		env: { N8N_RESTRICT_FILE_ACCESS_TO: files },
		log,
	});
	const payslipId = sb.templates.find((t) => t.identifier === 'payslip').id;
	const chat = await agent.startChatStandIn(agent.payslipConversation(payslipId));
	const payslip = agent.payslipMapping(sb);
	const flows = {
		...workflows(sb),
		agent: agent.agentWorkflow(sb, payslip.mapping),
		combined: combinedWorkflow(sb),
		approval: approvalWorkflow(sb),
		certificate: certificateWorkflow(sb),
		templatesAsCode: templatesAsCodeWorkflow(sb, files),
		instantV2: instantWorkflow({
			id: 'e2eInstantV2Combined',
			webhookId: '2a7c4e9b-5d1f-4b3a-8c6e-0f9d2b4a6c8e',
			typeVersion: 2,
			binaryMode: 'combined',
		}),
		instantV1: instantWorkflow({
			id: 'e2eInstantV1Default',
			webhookId: '9e3b5d7f-1a2c-4e6a-b8d0-4c6e8a0b2d4f',
			typeVersion: 1,
			binaryMode: 'separate',
		}),
	};
	let failed = false;
	const record = (name, ok, detail) => {
		failed ||= !ok;
		check(name, ok, detail);
	};
	try {
		// ---- set up through the CLI, before the server starts ----
		fs.writeFileSync(
			path.join(tmp, 'credential.json'),
			JSON.stringify(credential(sb, sb.webhooks.secret)),
		);
		await n8n.cli(['import:credentials', `--input=${path.join(tmp, 'credential.json')}`]);
		fs.writeFileSync(
			path.join(tmp, 'chat-credential.json'),
			JSON.stringify(agent.chatCredential(chat.url)),
		);
		await n8n.cli(['import:credentials', `--input=${path.join(tmp, 'chat-credential.json')}`]);
		await common.importWorkflows(n8n, tmp, flows);

		// ---- the action node: create, wait, download ----
		sb.resetRequests();
		const run = await n8n.cli(['execute', `--id=${flows.action.id}`, '--rawOutput'], {
			allowFail: true,
		});
		const output = common.executionOutput(run.stdout);
		const item = output?.data?.resultData?.runData?.['Generate invoice']?.[0]?.data?.main?.[0]?.[0];
		record(
			'n8n execute: the action node creates, waits and outputs the finished document',
			item?.json?.status === 'success' && item?.json?.meta?.order_id === 'E2E-1',
			item?.json?.status,
		);
		record(
			'… with the PDF as binary data (download on by default)',
			item?.binary?.data?.mimeType === 'application/pdf' &&
				item.binary.data.fileName === 'invoice-e2e.pdf',
		);
		const kinds = sb.requests.map((r) =>
			r.path.startsWith('/files/') ? 'file' : `${r.method} ${r.path}`,
		);
		record(
			'… in two requests: the sync create and the file',
			kinds.length === 2 && kinds[0] === 'POST /api/v1/documents/sync' && kinds[1] === 'file',
			kinds.join(', '),
		);

		// ---- the certificate example: n8n's Convert to File, then Files Into Payload ----
		sb.resetRequests();
		await runCertificateCheck({ n8n, sb, flow: flows.certificate, check: record });

		// ---- the templates-as-code example: n8n's Read/Write Files from Disk, then push ----
		sb.resetRequests();
		await runTemplatesAsCodeCheck({ n8n, sb, flow: flows.templatesAsCode, check: record });

		// ---- Loop Over Items around the action node: each round is a run of its own ----
		const documentsBefore = sb.documents.size;
		const loop = await n8n.cli(['execute', `--id=${flows.loop.id}`, '--rawOutput'], {
			allowFail: true,
		});
		const loopMade = sb.documents.size - documentsBefore;
		const loopPayloads = [...sb.documents.values()]
			.slice(documentsBefore)
			.map((d) => JSON.parse(d.payload).n);
		record(
			`Loop Over Items (${LOOP_ITEMS.length} items in batches of 5, two alike in each round, the rounds alike): one document per item`,
			loop.status === 0 &&
				loopMade === LOOP_ITEMS.length &&
				loopPayloads.filter((n) => n === 0).length === 6,
			`exit ${loop.status}; ${loopMade} documents`,
		);

		// ---- the action node as an AI Agent's tool, filling Template Fields ----
		await agent.runAgentCheck({
			n8n,
			sb,
			chat,
			flow: flows.agent,
			fields: payslip.fields,
			check: record,
		});

		await n8n.cli(['publish:workflow', `--id=${flows.poll.id}`]);
		await n8n.cli(['publish:workflow', `--id=${flows.webhook.id}`]);
		await n8n.cli(['publish:workflow', `--id=${flows.combined.id}`]);
		await n8n.cli(['publish:workflow', `--id=${flows.approval.id}`]);
		await n8n.cli(['publish:workflow', `--id=${flows.instantV2.id}`]);
		await n8n.cli(['publish:workflow', `--id=${flows.instantV1.id}`]);

		// ---- the server ----
		sb.resetRequests();
		const t0 = Date.now();
		await n8n.start();
		console.log(`e2e: n8n started in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
		await common.setUpOwner(n8n);

		const hooks = () => [...sb.webhooks.hooks.values()];
		await common.until(() => hooks().length >= 1, 30_000);
		record(
			"activation registers the webhook trigger with n8n's production URL",
			hooks().length === 1 &&
				hooks()[0].url.startsWith(`${n8n.url}/webhook/`) &&
				hooks()[0].event === 'documents.generation.success' &&
				hooks()[0].custom_channel === 'instant',
			hooks()
				.map((h) => h.url)
				.join(' '),
		);

		// ---- polling trigger across a restart (n8n polls at most once a minute) ----
		const poll = await common.pollAcrossRestart({ sb, n8n });
		record('the polling trigger is active and polls', poll.polled);
		console.log(`e2e: n8n restarted in ${(poll.restartMs / 1000).toFixed(1)} s`);
		record(
			`every document the sandbox finished started one run, none twice, across a restart (${poll.reads.length} documents)`,
			poll.reads.every((c) => c === 1),
			poll.reads.join(' '),
		);
		const list = await common.executionsOf(n8n, flows.poll.id);
		record(
			'n8n recorded the polling runs as successful',
			list.length >= 1 && list.every((e) => e.status === 'success'),
			`${list.length} runs: ${[...new Set(list.map((e) => e.status))].join(', ')}`,
		);
		record('the webhook registration survived the restart (no second hook)', hooks().length === 1);

		// ---- webhook trigger ----
		const invoice = sb.templates.find((t) => t.identifier === 'invoice').id;
		const before = sb.webhooks.deliveries.length;
		const instant = sb.createDocument({
			document_template_id: invoice,
			status: 'pending',
			meta: { _webhook_channel: 'instant' },
		}).id;
		await common.until(
			() => common.byIdRequests(sb, '/api/v1/document_cards/', instant) >= 1,
			20_000,
		);
		const delivered = sb.webhooks.deliveries.slice(before);
		record(
			'a signed delivery is accepted and starts one run',
			delivered.length === 1 &&
				delivered[0].status === 200 &&
				common.byIdRequests(sb, '/api/v1/document_cards/', instant) === 1,
			delivered.map((d) => d.status).join(' '),
		);
		sb.setOptions({ webhooks: false });
		const other = sb.createDocument({
			document_template_id: invoice,
			status: 'success',
			meta: { _webhook_channel: 'instant' },
		}).id;
		const document = sb.webhooks.documentOf(other);
		const hookUrl = hooks()[0].url;
		/** A new document's signed delivery, sent by hand, once its run has read it. */
		const signedDeliveryRuns = async () => {
			const marker = sb.createDocument({
				document_template_id: invoice,
				status: 'success',
				meta: { _webhook_channel: 'instant' },
			}).id;
			await sb.webhooks.send(hookUrl, sb.webhooks.documentOf(marker));
			await common.until(
				() => common.byIdRequests(sb, '/api/v1/document_cards/', marker) >= 1,
				20_000,
			);
		};
		const forged = await sb.webhooks.send(hookUrl, document, {
			secret: `whsec_${Buffer.from('not the secret').toString('base64')}`,
		});
		const stale = await sb.webhooks.send(hookUrl, document, { ageSeconds: 600 });
		const unsigned = await sb.webhooks.send(hookUrl, document, { unsigned: true });
		// What shows they started nothing: a signed delivery sent after them has run.
		await signedDeliveryRuns();
		record(
			'forged, stale and unsigned deliveries answer 401 and start nothing',
			[forged, stale, unsigned].every((d) => d.status === 401) &&
				common.byIdRequests(sb, '/api/v1/document_cards/', other) === 0,
			[forged, stale, unsigned].map((d) => d.status).join(' '),
		);
		const repeated = delivered[0]
			? await sb.webhooks.send(hookUrl, sb.webhooks.documentOf(instant), { id: delivered[0].id })
			: { status: 0 };
		await signedDeliveryRuns();
		record(
			'a repeated delivery starts nothing',
			repeated.status === 200 && common.byIdRequests(sb, '/api/v1/document_cards/', instant) === 1,
		);
		sb.setOptions({ webhooks: true });

		// ---- Execution Logic v2; the approval example (n8n's Wait node resumed) ----
		const t1 = Date.now();
		await runCombinedCheck({ n8n, server, flow: flows.combined, check: record });
		await runApprovalCheck({ n8n, server, sb, flow: flows.approval, check: record });
		await runInstantVersionsCheck({ n8n, server, sb, flows, check: record });
		console.log(`e2e: combined mode and approval in ${((Date.now() - t1) / 1000).toFixed(1)} s`);

		// ---- the editor in a browser ----
		if (withBrowser) {
			const browser = await runBrowser({
				n8n,
				sb,
				outDir: path.join(common.root, 'docs', 'screenshots'),
				check: record,
				flows,
			});
			if (browser.skipped) record(`browser: ${browser.skipped}`, false);
		}

		await n8n.rest('POST', `/workflows/${flows.webhook.id}/deactivate`);
		await common.until(() => hooks().length === 0, 15_000);
		const hookCalls = sb.requests
			.filter((r) => r.path.startsWith('/api/v1/rest_hooks'))
			.map((r) => `${r.method} ${r.status}`);
		record(
			'deactivating the webhook workflow removes its hook from the service',
			hooks().length === 0,
			hookCalls.join(', '),
		);
	} catch (error) {
		record(`the suite ran to its end: ${error.message}`, false);
	} finally {
		await n8n.stop();
		await sb.close();
		await chat.close();
	}
	console.log(`e2e: one process, n8n log: ${log}`);
	if (!keep && !failed) fs.rmSync(tmp, { recursive: true, force: true });
}

module.exports = { runSingleLeg };
