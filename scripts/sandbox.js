#!/usr/bin/env node
'use strict';
// Starts the local document generation sandbox for humans (`npm run sandbox`).
// `npm run sandbox -- --help` lists the flags (a plan with limits: request limit, generation
// queue, quota). Environment, for the flags' defaults:
//   SANDBOX_PORT     (default 4010)
//   SANDBOX_API_KEY  (default the built-in test key)
//   SANDBOX_SHARE_LINKS=1, SANDBOX_PENDING_MS, SANDBOX_GENERATING_MS, SANDBOX_LAG_MS (optional)
//   SANDBOX_NO_SEED_DOCS=1 to start without the three sample documents
//   SANDBOX_IGNORE_PAGE_SIZE=1 to serve 24 cards a page whatever page[size] asks

const path = require('path');
const { startSandbox } = require(path.join(__dirname, '..', 'test', 'sandbox'));

const HELP = `Usage: npm run sandbox -- [flags]

  --port N                 port (default 4010, or SANDBOX_PORT)
  --pending-ms N           time a document is pending before it generates (default 500)
  --generating-ms N        time one generation takes (default 2500)
  --rate-limit N/WINDOW    at most N API requests per window, e.g. 100/60s, 20/10s, 5/1500ms
  --sliding-window         count the requests of the last window, not fixed windows
  --no-retry-after         answer 429 without a Retry-After header
  --rate-limit-headers H   announce the limit on every answer: x (X-RateLimit-*) or ietf (RateLimit)
  --workers N              generation queue: at most N documents generate at once
  --quota N                documents left this month (default 1000); past it, creates answer 422
  --quota-fails            past the quota, accept creates and fail the documents ("Quota exceeded")
  --file-size BYTES        pad every file to this size, e.g. 50000000 (streamed)
  --no-seed-docs           start without the three sample documents
  --help                   this text

Example, a plan with limits: npm run sandbox -- --rate-limit 100/60s --workers 10 --quota 300`;

function fail(message) {
	console.error(`${message}\n\n${HELP}`);
	process.exit(2);
}

function number(name, raw) {
	const n = Number(raw);
	if (raw === undefined || raw === '' || !Number.isFinite(n) || n < 0)
		fail(`${name} must be a non-negative number, got "${raw ?? ''}"`);
	return n;
}

function envNumber(name, fallback) {
	const raw = process.env[name];
	return raw === undefined || raw === '' ? fallback : number(name, raw);
}

/** "100/60s" → { requests: 100, perMs: 60000 }. */
function parseRateLimit(text) {
	const m = /^(\d+)\/(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(String(text || '').trim());
	if (!m || Number(m[1]) < 1 || Number(m[2]) <= 0)
		fail(`--rate-limit takes requests/window, e.g. 100/60s, got "${text ?? ''}"`);
	const unit = { ms: 1, s: 1000, m: 60_000 }[m[3] || 's'];
	return { requests: Number(m[1]), perMs: Math.round(Number(m[2]) * unit) };
}

/** The sandbox options from the command line, over the environment's defaults. */
function parseArgs(argv) {
	const options = {
		host: '127.0.0.1',
		port: envNumber('SANDBOX_PORT', 4010),
		apiKey: process.env.SANDBOX_API_KEY || undefined,
		shareLinks: process.env.SANDBOX_SHARE_LINKS === '1',
		honourPageSize: process.env.SANDBOX_IGNORE_PAGE_SIZE !== '1',
		pendingMs: envNumber('SANDBOX_PENDING_MS', 500),
		generatingMs: envNumber('SANDBOX_GENERATING_MS', 2500),
		visibilityLagMs: envNumber('SANDBOX_LAG_MS', 0),
	};
	let seedDocs = process.env.SANDBOX_NO_SEED_DOCS !== '1';
	let limit;
	const limitFlags = {};
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		const value = () => argv[++i];
		switch (flag) {
			case '--help':
			case '-h':
				console.log(HELP);
				process.exit(0);
				break;
			case '--port':
				options.port = number(flag, value());
				break;
			case '--pending-ms':
				options.pendingMs = number(flag, value());
				break;
			case '--generating-ms':
				options.generatingMs = number(flag, value());
				break;
			case '--rate-limit':
				limit = parseRateLimit(value());
				break;
			case '--sliding-window':
				limitFlags.window = 'sliding';
				break;
			case '--no-retry-after':
				limitFlags.retryAfter = false;
				break;
			case '--rate-limit-headers': {
				const headers = value();
				if (!['x', 'ietf', 'none'].includes(headers))
					fail(`--rate-limit-headers takes x, ietf or none, got "${headers ?? ''}"`);
				limitFlags.headers = headers;
				break;
			}
			case '--workers':
				options.workers = number(flag, value());
				break;
			case '--quota':
				options.availableDocuments = number(flag, value());
				break;
			case '--quota-fails':
				options.quotaMode = 'fail';
				break;
			case '--file-size':
				options.fileSizeBytes = number(flag, value());
				break;
			case '--no-seed-docs':
				seedDocs = false;
				break;
			default:
				fail(`Unknown flag "${flag}"`);
		}
	}
	if (Object.keys(limitFlags).length && !limit) fail('These flags need --rate-limit N/WINDOW');
	if (limit) options.rateLimit = { ...limit, ...limitFlags };
	return { options, seedDocs };
}

function describePlan(o) {
	const parts = [];
	if (o.rateLimit) {
		const r = o.rateLimit;
		parts.push(
			`at most ${r.requests} API requests per ${r.perMs / 1000} s (${r.window === 'sliding' ? 'sliding' : 'fixed'} window, 429 ${r.retryAfter === false ? 'without' : 'with'} Retry-After${r.headers && r.headers !== 'none' ? `, ${r.headers === 'x' ? 'X-RateLimit-*' : 'RateLimit'} headers` : ''})`,
		);
	}
	if (o.workers) parts.push(`${o.workers} generation workers`);
	parts.push(
		`quota: ${o.availableDocuments ?? 1000} documents left, then ${o.quotaMode === 'fail' ? 'documents fail' : 'creates answer 422'}`,
	);
	if (o.fileSizeBytes) parts.push(`files padded to ${o.fileSizeBytes} bytes`);
	return parts.join('; ');
}

async function main() {
	const { options, seedDocs } = parseArgs(process.argv.slice(2));
	const sb = await startSandbox(options);

	if (seedDocs) {
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
		`Plan: ${describePlan(options)}.`,
		'Press Ctrl+C to stop.',
		'',
	];
	console.log(lines.join('\n'));

	let stopping = false;
	const stop = async (signal) => {
		if (stopping) return;
		stopping = true;
		const limited = sb.limited ? `, ${sb.limited} of them answered 429` : '';
		console.log(
			`\n${signal}: stopping the sandbox (${sb.requests.length} requests served${limited}).`,
		);
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
