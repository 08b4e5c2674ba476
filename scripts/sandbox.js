#!/usr/bin/env node
'use strict';
// Starts the local document generation sandbox for humans (`npm run sandbox`).
//   SANDBOX_PORT     (default 4010)
//   SANDBOX_API_KEY  (default the built-in test key)
//   SANDBOX_SHARE_LINKS=1, SANDBOX_PENDING_MS, SANDBOX_GENERATING_MS, SANDBOX_LAG_MS (optional)
//   SANDBOX_NO_SEED_DOCS=1 to start without the three sample documents

const path = require('path');
const { startSandbox } = require(path.join(__dirname, '..', 'test', 'sandbox'));

function envNumber(name, fallback) {
	const raw = process.env[name];
	if (raw === undefined || raw === '') return fallback;
	const n = Number(raw);
	if (!Number.isFinite(n) || n < 0) {
		console.error(`${name} must be a non-negative number, got "${raw}"`);
		process.exit(2);
	}
	return n;
}

async function main() {
	const sb = await startSandbox({
		host: '127.0.0.1',
		port: envNumber('SANDBOX_PORT', 4010),
		apiKey: process.env.SANDBOX_API_KEY || undefined,
		shareLinks: process.env.SANDBOX_SHARE_LINKS === '1',
		pendingMs: envNumber('SANDBOX_PENDING_MS', 500),
		generatingMs: envNumber('SANDBOX_GENERATING_MS', 2500),
		visibilityLagMs: envNumber('SANDBOX_LAG_MS', 0),
	});

	if (process.env.SANDBOX_NO_SEED_DOCS !== '1') {
		const byName = (n) => sb.templates.find((t) => t.identifier === n);
		sb.createDocument({
			document_template_id: byName('invoice').id,
			payload: { number: 'INV-0001', customer: { name: 'Jane Doe' }, total: 120.5 },
			meta: { order: '1001' },
			status: 'success',
		});
		sb.createDocument({
			document_template_id: byName('always-fails').id,
			payload: {},
			status: 'failure',
		});
		sb.createDocument({
			document_template_id: byName('payslip').id,
			payload: { employee: 'John Roe' },
			status: 'draft',
		});
	}

	const lines = [
		'',
		'Document generation sandbox (a local stand-in for the PDFMonkey v1 API)',
		'',
		`  Base URL : ${sb.url}`,
		`  API key  : ${sb.apiKey}`,
		'',
		'In n8n, create a "Document Generation (PDFMonkey) API" credential with:',
		`  Base URL = ${sb.url}        (host root, without /api/v1)`,
		`  API Key  = ${sb.apiKey}`,
		'(if n8n runs in Docker, use http://host.docker.internal:<port> and start the sandbox with a host it can reach)',
		'',
		'Check it:',
		`  curl -H "Authorization: Bearer ${sb.apiKey}" ${sb.url}/api/v1/current_user`,
		'',
		'Workspaces:',
		...sb.workspaces.map((w) => `  ${w.id}  ${w.identifier}`),
		'Templates:',
		...sb.templates.map((t) => {
			const ws = sb.workspaces.find((w) => w.id === t.app_id);
			return `  ${t.id}  ${t.identifier.padEnd(13)} ${t.output_type.padEnd(6)} (${ws ? ws.identifier : t.app_id})`;
		}),
		'',
		'Webhooks: the instant trigger registers itself here; every delivery is signed with',
		`  Webhook Signing Secret = ${sb.webhooks.secret}   (put it into the credential)`,
		'',
		`Generation: pending ${sb.options.pendingMs} ms, generating ${sb.options.generatingMs} ms. ` +
			"Template 'always-fails' always fails.",
		'Press Ctrl+C to stop.',
		'',
	];
	console.log(lines.join('\n'));

	let stopping = false;
	const stop = async (signal) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal}: stopping the sandbox (${sb.requests.length} requests served).`);
		await sb.close();
		process.exit(0);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e) => {
	console.error(`Could not start the sandbox: ${e && e.message}`);
	process.exit(1);
});
