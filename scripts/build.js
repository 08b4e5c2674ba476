#!/usr/bin/env node
/* Compiles the package into dist/ and puts the static files where n8n looks for them:
 * the light and dark SVG icons into dist/icons/ (nodes and credential reference them as
 * `file:../../icons/…` and `file:../icons/…`, paths that hold in the sources and in dist/
 * alike), and the codex `<Node>.node.json` files beside their compiled nodes. */
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const root = path.resolve(__dirname, '..');
const final = path.join(root, 'dist');
// Build beside dist/ and swap it in at the end, so a test run that is loading dist/ while
// a build runs never sees a half-written package.
const dist = path.join(root, `.dist-build-${process.pid}`);

fs.rmSync(dist, { recursive: true, force: true });
const tsc = spawnSync(
	process.execPath,
	[require.resolve('typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.json'), '--outDir', dist],
	{ cwd: root, stdio: 'inherit' },
);
if (tsc.status !== 0) {
	fs.rmSync(dist, { recursive: true, force: true });
	process.exit(tsc.status ?? 1);
}

function copy(from, to) {
	fs.mkdirSync(path.dirname(to), { recursive: true });
	fs.copyFileSync(from, to);
}

const icons = fs.readdirSync(path.join(root, 'icons')).filter((f) => f.endsWith('.svg'));
for (const icon of icons) copy(path.join(root, 'icons', icon), path.join(dist, 'icons', icon));

let copied = icons.length;
for (const nodeDir of fs.readdirSync(path.join(root, 'nodes'))) {
	const src = path.join(root, 'nodes', nodeDir);
	if (!fs.statSync(src).isDirectory()) continue;
	const files = fs.readdirSync(src);
	if (!files.some((f) => f.endsWith('.node.ts'))) continue;
	for (const codex of files.filter((f) => f.endsWith('.node.json'))) {
		copy(path.join(src, codex), path.join(dist, 'nodes', nodeDir, codex));
		copied++;
	}
}
const old = path.join(root, `.dist-old-${process.pid}`);
if (fs.existsSync(final)) fs.renameSync(final, old);
fs.renameSync(dist, final);
fs.rmSync(old, { recursive: true, force: true });
console.log(`build: compiled TypeScript into dist/ and copied ${copied} static files`);
