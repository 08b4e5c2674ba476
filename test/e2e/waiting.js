'use strict';
// Checks of the one-process leg that run against the started server, and the workflows of the
// first and last of them:
//   - Execution Logic v2 (`binaryMode: "combined"`): Create, Update and Download behind n8n's
//     Webhook node, each file in `json._files.data`, read by n8n's Crypto node (SHA-256);
//   - the approval example: a draft, n8n's Wait node resumed by the approver's link, then the
//     PDF (approved) or the draft deleted (refused);
//   - the instant trigger at each version: 2 on Execution Logic v2, 1 in the default mode,
//     a signed delivery starting one run whose item is the document.
// What n8n recorded of an execution is read through its REST API (the run data is stored
// flattened with `flatted`, which n8n itself depends on).

const crypto = require('crypto');
const path = require('path');

const common = require('./common');
const { PACKAGE, credentials, rl, webhookStart, workflow } = require('./parts');

/**
 * Execution Logic v2 (`binaryMode: "combined"`): Create (wait, download), Update (regenerate,
 * download) and Download, each file landing in `json._files.data`, then n8n's Crypto node
 * reads it by that path (its SHA-256). Behind a Webhook node answering with the last item.
 */
function combinedWorkflow(sb) {
	const template = sb.templates.find((t) => t.identifier === 'invoice').id;
	const step = (id, name, x, parameters) => ({
		id,
		name,
		type: `${PACKAGE}.documentGeneration`,
		typeVersion: 1,
		position: [x, 0],
		parameters,
		credentials,
	});
	const names = ['Order', 'Create', 'Update', 'Download', 'Read the file'];
	const connections = Object.fromEntries(
		names
			.slice(0, -1)
			.map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
	);
	return {
		...workflow(
			'e2eCombinedMode001',
			'E2E: Execution Logic v2 (files in json._files)',
			[
				webhookStart(
					{ id: 'v1', name: 'Order', webhookId: '6e4a2c1d-3b5f-4d7e-9a0b-1c2d3e4f5a6b' },
					'e2e-combined',
					'lastNode',
				),
				step('v2', 'Create', 200, {
					templateId: rl(template),
					payload: '={{ $json.body }}',
					additionalFields: { filename: 'combined.pdf' },
				}),
				step('v3', 'Update', 400, {
					resource: 'document',
					operation: 'update',
					documentId: rl('={{ $json.id }}'),
					updateFields: { status: 'pending' },
					waitForCompletion: true,
					download: true,
				}),
				step('v4', 'Download', 600, {
					resource: 'document',
					operation: 'download',
					documentId: rl('={{ $json.id }}'),
				}),
				{
					id: 'v5',
					name: 'Read the file',
					type: 'n8n-nodes-base.crypto',
					typeVersion: 2,
					position: [800, 0],
					parameters: {
						action: 'hash',
						type: 'SHA256',
						binaryData: true,
						binaryPropertyName: '_files.data',
						dataPropertyName: 'pdf_sha256',
					},
				},
			],
			connections,
		),
		settings: { executionOrder: 'v1', binaryMode: 'combined' },
	};
}

/**
 * The instant trigger alone, registered by hand (the service is not told), Download File on:
 * `typeVersion` as the workflow saved it, `binaryMode` the workflow's (Execution Logic v2 is
 * `combined`). Its run's one item is the delivered document with its file.
 */
function instantWorkflow({ id, webhookId, typeVersion, binaryMode }) {
	const name = `Instant ${typeVersion}`;
	return {
		...workflow(
			id,
			`E2E: instant trigger ${typeVersion}, binaryMode ${binaryMode}`,
			[
				{
					id: `${id}-trigger`,
					name,
					type: `${PACKAGE}.documentGenerationWebhookTrigger`,
					typeVersion,
					position: [0, 0],
					webhookId,
					parameters: { events: ['success'], registration: 'manual', download: true },
					credentials,
				},
			],
			{},
		),
		settings: { executionOrder: 'v1', binaryMode },
	};
}

/** The run data n8n recorded for an execution. */
async function runDataOf(n8n, server, executionId) {
	const { parse } = require(path.join(server.dir, 'node_modules', 'flatted'));
	const execution = await n8n.rest('GET', `/executions/${executionId}`);
	const data = typeof execution?.data === 'string' ? parse(execution.data) : execution?.data;
	return { status: execution?.status, runData: data?.resultData?.runData ?? {} };
}

/** The first output item of a node's first run. */
const firstItem = (runData, name) => runData[name]?.[0]?.data?.main?.[0]?.[0];

async function postJson(url, body) {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	return { status: res.status, body: await res.json().catch(() => undefined) };
}

/** The execution of `workflowId` that is not in `known` once it has the status asked for. */
async function executionReaching(n8n, workflowId, known, status) {
	let found;
	await common.until(async () => {
		const list = await common.executionsOf(n8n, workflowId);
		found = list.find((e) => !known.has(e.id) && e.status === status);
		return !!found;
	}, 30_000);
	return found;
}

/** Create (wait, download), Update (regenerate, download), Download, then n8n's Crypto node. */
async function runCombinedCheck({ n8n, server, flow, check }) {
	const started = Date.now();
	const answer = await postJson(`${n8n.url}/webhook/e2e-combined`, { number: 'V2-1', total: 7 });
	const url = answer.body?.download_url;
	const pdf = url ? Buffer.from(await (await fetch(url)).arrayBuffer()) : Buffer.alloc(0);
	const sha256 = crypto.createHash('sha256').update(pdf).digest('hex');
	check(
		"Execution Logic v2 (binaryMode combined): Create, Update and Download run; n8n's Crypto node reads the file at _files.data",
		answer.status === 200 &&
			pdf.subarray(0, 5).toString('latin1') === '%PDF-' &&
			answer.body?.pdf_sha256 === sha256,
		`${answer.status}, ${pdf.length} bytes, ${((Date.now() - started) / 1000).toFixed(1)} s`,
	);
	const [run] = await common.executionsOf(n8n, flow.id);
	const { runData } = run ? await runDataOf(n8n, server, run.id) : { runData: {} };
	const files = ['Create', 'Update', 'Download'].map((name) => {
		const item = firstItem(runData, name);
		const file = item?.json?._files?.data;
		return file?.mimeType === 'application/pdf' && file.fileName === 'combined.pdf' && !item.binary;
	});
	check(
		'… each of their files is in json._files.data (none left in binary)',
		files.every(Boolean),
		files.join(' '),
	);
}

/**
 * One run of the approval example: the invoice posted, the execution waiting at the Wait node,
 * the approver's link (as "Ask for approval" wrote it) opened. Answers the draft's id, the
 * finished run data, and the resume's status.
 */
async function approvalRun({ n8n, server, flow, number, link }) {
	const known = new Set((await common.executionsOf(n8n, flow.id)).map((e) => e.id));
	await postJson(`${n8n.url}/webhook/e2e-approval`, { number, order_id: number, total: 9 });
	const waiting = await executionReaching(n8n, flow.id, known, 'waiting');
	if (!waiting) return { waited: false };
	const before = (await runDataOf(n8n, server, waiting.id)).runData;
	const draft = firstItem(before, 'Create draft')?.json;
	const url = firstItem(before, 'Ask for approval')?.json?.[link];
	const resumed = url ? await fetch(url) : { status: 0 };
	const done = await executionReaching(n8n, flow.id, known, 'success');
	const after = done ? (await runDataOf(n8n, server, done.id)).runData : {};
	const linkOk = String(url).startsWith(`${n8n.url}/webhook-waiting/${waiting.id}`);
	return { waited: true, draft, runData: after, resumed: resumed.status, linkOk };
}

/** The approval example, approved then refused. */
async function runApprovalCheck({ n8n, server, sb, flow, check }) {
	const approved = await approvalRun({ n8n, server, flow, number: 'OK-1', link: 'approve_url' });
	const draft = approved.draft;
	const pdf = firstItem(approved.runData ?? {}, 'Generate PDF');
	check(
		'approval example: the draft waits at the Wait node; its approve link (the resume URL) generates it, the PDF as binary data',
		approved.linkOk &&
			draft?.status === 'draft' &&
			approved.resumed === 200 &&
			pdf?.json?.status === 'success' &&
			pdf?.json?.id === draft?.id &&
			pdf?.binary?.data?.mimeType === 'application/pdf' &&
			sb.documents.get(draft.id)?.status === 'success',
		`waited ${approved.waited}; resume ${approved.resumed}; ${pdf?.json?.status}`,
	);
	const refused = await approvalRun({ n8n, server, flow, number: 'NO-1', link: 'refuse_url' });
	const deleted = firstItem(refused.runData ?? {}, 'Delete draft')?.json;
	check(
		'approval example: the refuse link deletes the draft (gone from the service), nothing generated',
		refused.linkOk &&
			refused.resumed === 200 &&
			deleted?.deleted === true &&
			!!refused.draft &&
			!sb.documents.has(refused.draft.id) &&
			!firstItem(refused.runData ?? {}, 'Generate PDF'),
		`waited ${refused.waited}; resume ${refused.resumed}; ${JSON.stringify(deleted)}`,
	);
}

/**
 * The instant trigger at a version, in a workflow of a binary mode (`instantWorkflow`): one
 * correctly signed delivery of a finished document to its Production URL. Answers the
 * delivery's status, the runs n8n recorded, and the trigger's item in the run.
 */
async function instantRun({ n8n, server, sb, flow }) {
	const trigger = flow.nodes[0];
	const document = sb.webhooks.documentOf(
		sb.createDocument({ status: 'success', meta: { order_id: trigger.name } }).id,
	);
	const delivered = await sb.webhooks.send(
		`${n8n.url}/webhook/${trigger.webhookId}/webhook`,
		document,
	);
	const run = await executionReaching(n8n, flow.id, new Set(), 'success');
	const runs = await common.executionsOf(n8n, flow.id);
	const item = run ? firstItem((await runDataOf(n8n, server, run.id)).runData, trigger.name) : {};
	return { document, delivered, runs, item };
}

/**
 * Each version of the instant trigger in the binary mode saved workflows hold it in: version
 * 2 (new nodes) on Execution Logic v2, version 1 (workflows saved before) in the default
 * mode. A signed delivery starts one successful run whose item is the document with its file.
 */
async function runInstantVersionsCheck({ n8n, server, sb, flows, check }) {
	const cases = [
		{ flow: flows.instantV2, file: (item) => item?.json?._files?.data, where: 'json._files.data' },
		{ flow: flows.instantV1, file: (item) => item?.binary?.data, where: 'binary.data' },
	];
	for (const { flow, file, where } of cases) {
		const { typeVersion } = flow.nodes[0];
		const { document, delivered, runs, item } = await instantRun({ n8n, server, sb, flow });
		const pdf = file(item);
		check(
			`instant trigger typeVersion ${typeVersion}, binaryMode ${flow.settings.binaryMode}: a signed delivery starts one successful run whose item is the document (its file in ${where})`,
			delivered.status === 200 &&
				runs.length === 1 &&
				runs[0].status === 'success' &&
				item?.json?.id === document.id &&
				item?.json?.status === 'success' &&
				item?.json?.deliveryId === delivered.id &&
				pdf?.mimeType === 'application/pdf',
			`delivery ${delivered.status}; ${runs.length} runs (${runs.map((r) => r.status).join(', ')}); item ${item?.json?.id === document.id ? 'is the document' : JSON.stringify(item?.json ?? null).slice(0, 200)}; file ${pdf?.mimeType}`,
		);
	}
}

module.exports = {
	combinedWorkflow,
	instantWorkflow,
	runApprovalCheck,
	runCombinedCheck,
	runInstantVersionsCheck,
};
