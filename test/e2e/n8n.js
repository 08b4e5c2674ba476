'use strict';
// A real n8n server for the end-to-end suite: its CLI (import, publish, execute), the server
// process (start, stop, wait until ready), and its REST API with the owner's session.

const fs = require('fs');
const net = require('net');
const path = require('path');
const { spawn } = require('child_process');

async function freePort() {
	return await new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One n8n process run under its own Node 24, with a user folder of its own (queue mode's
 * processes share one). `install` is what scripts/e2e/install.js answers (dir, node, n8n);
 * `command` is `start` (main), `worker` or `webhook`; a worker answers its readiness on
 * `healthPort`.
 */
function createN8n({
	install,
	userFolder,
	port,
	brokerPort,
	env = {},
	log,
	command = 'start',
	healthPort,
}) {
	const environment = {
		...process.env,
		PATH: `${path.dirname(install.node)}${path.delimiter}${process.env.PATH}`,
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_DISABLED_MODULES: 'mcp-registry',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_ENCRYPTION_KEY: 'e2e-encryption-key-not-a-secret',
		N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_HIDE_USAGE_PAGE: 'true',
		DB_SQLITE_POOL_SIZE: '2',
		...env,
	};
	let server = null;
	const logFile = fs.openSync(log, 'a');

	/** Runs an n8n CLI command (asynchronously: the sandbox lives in this process). */
	async function cli(args, { allowFail = false } = {}) {
		const child = spawn(install.node, [install.n8n, ...args], { env: environment });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (c) => (stdout += c));
		child.stderr.on('data', (c) => (stderr += c));
		const status = await new Promise((resolve) => child.on('close', resolve));
		fs.writeSync(logFile, `\n$ n8n ${args.join(' ')}\n${stdout}\n${stderr}\n`);
		if (status !== 0 && !allowFail)
			throw new Error(`n8n ${args.join(' ')} failed (${status}): ${stderr.slice(-2000)}`);
		return { status, stdout, stderr };
	}

	async function start() {
		server = spawn(install.node, [install.n8n, command], {
			env: environment,
			stdio: ['ignore', logFile, logFile],
		});
		const exited = new Promise((resolve) => server.once('exit', resolve));
		const deadline = Date.now() + 180_000;
		for (;;) {
			if (server.exitCode !== null)
				throw new Error(`n8n ${command} exited (${server.exitCode}); see ${log}`);
			try {
				const res = await fetch(`http://127.0.0.1:${healthPort ?? port}/healthz/readiness`);
				if (res.ok) break;
			} catch {
				// not up yet
			}
			if (Date.now() > deadline)
				throw new Error(`n8n ${command} did not start in 180 s; see ${log}`);
			await sleep(500);
		}
		server.exited = exited;
	}

	async function stop() {
		if (!server || server.exitCode !== null) return;
		server.kill('SIGTERM');
		const timer = setTimeout(() => server.kill('SIGKILL'), 30_000);
		await server.exited;
		clearTimeout(timer);
	}

	const url = `http://127.0.0.1:${port}`;
	let cookie = '';

	async function rest(method, route, body) {
		const res = await fetch(`${url}/rest${route}`, {
			method,
			headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const setCookie = res.headers.get('set-cookie');
		if (setCookie) cookie = setCookie.split(';')[0];
		const text = await res.text();
		let json;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		if (!res.ok) throw new Error(`${method} /rest${route}: ${res.status} ${text.slice(0, 500)}`);
		return json && typeof json === 'object' && 'data' in json ? json.data : json;
	}

	return { url, port, cli, start, stop, rest, env: environment };
}

module.exports = { createN8n, freePort, sleep };
