'use strict';
// The services of n8n's queue mode for the end-to-end suite: PostgreSQL and Redis from
// Debian's packages, started on free ports in temporary folders and stopped afterwards.
// PostgreSQL's tools refuse to run as root, so as root its server runs as the unprivileged
// `postgres` user (or `nobody`), which owns its folder.

const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');
const { spawn, spawnSync } = require('child_process');

const { freePort, sleep } = require('./n8n');

/** The folder of PostgreSQL's server programs (initdb, postgres, pg_isready), or undefined. */
function postgresBin() {
	const candidates = [process.env.E2E_PG_BIN].filter(Boolean);
	const base = '/usr/lib/postgresql';
	if (fs.existsSync(base)) {
		const versions = fs
			.readdirSync(base)
			.filter((v) => /^\d+$/.test(v))
			.sort((a, b) => Number(b) - Number(a));
		candidates.push(...versions.map((v) => path.join(base, v, 'bin')));
	}
	return candidates.find((dir) => fs.existsSync(path.join(dir, 'initdb')));
}

function redisServer() {
	const found = spawnSync('/bin/sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
	return found.status === 0 ? found.stdout.trim() : undefined;
}

/** The uid and gid to run PostgreSQL as: ours, or an unprivileged user's when we are root. */
function postgresUser() {
	if (typeof process.getuid !== 'function' || process.getuid() !== 0) return {};
	for (const name of ['postgres', 'nobody']) {
		const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
		const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
		if (uid.status === 0 && gid.status === 0)
			return { uid: Number(uid.stdout), gid: Number(gid.stdout), name };
	}
	throw new Error('running as root, and no unprivileged user (postgres, nobody) to run PostgreSQL');
}

function runAs(user, cmd, args) {
	const result = spawnSync(cmd, args, {
		encoding: 'utf8',
		uid: user.uid,
		gid: user.gid,
		env: { ...process.env, LC_ALL: 'C' },
	});
	if (result.status !== 0)
		throw new Error(
			`${path.basename(cmd)} failed: ${(result.stderr || result.stdout).slice(-1500)}`,
		);
	return result.stdout;
}

async function canConnect(port) {
	return await new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

/** Stops a child process: SIGTERM, then SIGKILL after `ms`. */
async function stopChild(child, ms = 15_000) {
	if (!child || child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise((resolve) => child.once('exit', resolve));
	child.kill('SIGTERM');
	const timer = setTimeout(() => child.kill('SIGKILL'), ms);
	await exited;
	clearTimeout(timer);
}

/** PostgreSQL with a database `n8n`, trust authentication on 127.0.0.1. */
async function startPostgres(log) {
	const bin = postgresBin();
	if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
	const user = postgresUser();
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-pg-'));
	if (user.uid !== undefined) fs.chownSync(dir, user.uid, user.gid);
	const data = path.join(dir, 'data');
	runAs(user, path.join(bin, 'initdb'), [
		'-D',
		data,
		'-U',
		'postgres',
		'--auth=trust',
		'-E',
		'UTF8',
	]);
	const port = await freePort();
	const out = fs.openSync(log, 'a');
	const server = spawn(
		path.join(bin, 'postgres'),
		[
			'-D',
			data,
			'-p',
			String(port),
			'-k',
			dir,
			'-c',
			'listen_addresses=127.0.0.1',
			// A test database: durability is not needed, speed is.
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
		],
		{ uid: user.uid, gid: user.gid, stdio: ['ignore', out, out] },
	);
	const deadline = Date.now() + 30_000;
	for (;;) {
		const ready = spawnSync(path.join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)]);
		if (ready.status === 0) break;
		if (server.exitCode !== null) throw new Error(`PostgreSQL exited; see ${log}`);
		if (Date.now() > deadline) throw new Error(`PostgreSQL did not start in 30 s; see ${log}`);
		await sleep(200);
	}
	const createdb = spawnSync(
		path.join(bin, 'createdb'),
		['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'n8n'],
		{ encoding: 'utf8' },
	);
	if (createdb.status !== 0) throw new Error(`createdb failed: ${createdb.stderr}`);
	return {
		port,
		env: {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(port),
			DB_POSTGRESDB_DATABASE: 'n8n',
			DB_POSTGRESDB_USER: 'postgres',
			DB_POSTGRESDB_PASSWORD: '',
		},
		async stop() {
			await stopChild(server);
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

/** Redis without persistence on 127.0.0.1. */
async function startRedis(log) {
	const bin = redisServer();
	if (!bin) throw new Error('Redis is not installed (apt-get install redis-server)');
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-redis-'));
	const port = await freePort();
	const out = fs.openSync(log, 'a');
	const server = spawn(
		bin,
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			dir,
		],
		{ stdio: ['ignore', out, out] },
	);
	const deadline = Date.now() + 15_000;
	while (!(await canConnect(port))) {
		if (server.exitCode !== null) throw new Error(`Redis exited; see ${log}`);
		if (Date.now() > deadline) throw new Error(`Redis did not start in 15 s; see ${log}`);
		await sleep(100);
	}
	return {
		port,
		env: { QUEUE_BULL_REDIS_HOST: '127.0.0.1', QUEUE_BULL_REDIS_PORT: String(port) },
		async stop() {
			await stopChild(server);
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

module.exports = { postgresBin, redisServer, startPostgres, startRedis, stopChild };
