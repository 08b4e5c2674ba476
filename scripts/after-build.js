#!/usr/bin/env node
/* Second step of `npm run build`, after `n8n-node build` (which compiles with tsc and copies
 * every .png/.svg of the tree into dist/ under the same path):
 * - puts the codex files (`<Node>.node.json`: categories, aliases, links) beside their
 *   compiled nodes, which `n8n-node build` leaves out;
 * - keeps in dist/ only what ships (nodes/, credentials/, icons/), so pictures elsewhere in
 *   the repository (docs/ screenshots, test fixtures) never reach the published tarball. */
'use strict';
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');
const SHIPPED = new Set(['nodes', 'credentials', 'icons']);

if (!fs.existsSync(path.join(dist, 'nodes'))) {
	console.error(
		'after-build: dist/nodes is missing; run `n8n-node build` first (npm run build does both)',
	);
	process.exit(1);
}
let removed = 0;
for (const entry of fs.readdirSync(dist)) {
	if (SHIPPED.has(entry)) continue;
	fs.rmSync(path.join(dist, entry), { recursive: true, force: true });
	removed++;
}

let codex = 0;
for (const nodeDir of fs.readdirSync(path.join(root, 'nodes'))) {
	const src = path.join(root, 'nodes', nodeDir);
	if (!fs.statSync(src).isDirectory()) continue;
	for (const file of fs.readdirSync(src).filter((f) => f.endsWith('.node.json'))) {
		fs.copyFileSync(path.join(src, file), path.join(dist, 'nodes', nodeDir, file));
		codex++;
	}
}
const icons = fs.existsSync(path.join(dist, 'icons'))
	? fs.readdirSync(path.join(dist, 'icons')).length
	: 0;
console.log(
	`after-build: ${codex} codex files beside the nodes, ${icons} icons, ${removed} stray entries removed from dist/`,
);
