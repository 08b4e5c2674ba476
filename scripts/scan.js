#!/usr/bin/env node
/* n8n's community-package scanner (`analyzePackage` from @n8n/scan-community-package), run
 * twice: over the sources n8n's gate reads (SOURCE_FILE_PATTERNS) and over the unpacked
 * `npm pack` tarball (its compiled JS and package.json). Also checks that the tarball holds
 * only dist/, package.json and docs. Exits non-zero on any finding. */
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const root = path.resolve(__dirname, '..');

async function main() {
	const scanner = await import('@n8n/scan-community-package/scanner/scanner.mjs');
	let failed = false;

	const sources = await scanner.analyzePackage(root, scanner.SOURCE_FILE_PATTERNS);
	report('sources', sources);
	failed ||= !sources.passed;

	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dg-pack-'));
	try {
		const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', tmp], {
			cwd: root,
			encoding: 'utf8',
		});
		if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr}`);
		const [{ filename, files }] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('[')));
		const allowed = /^(dist\/|package\.json$|README\.md$|LICENSE(\.md)?$|CHANGELOG\.md$)/;
		const stray = files.map((f) => f.path).filter((p) => !allowed.test(p));
		if (stray.length) {
			failed = true;
			console.log(`scan tarball contents: ✗ files outside dist/ and docs: ${stray.join(', ')}`);
		} else {
			console.log(
				`scan tarball contents: ✓ ${files.length} files, only dist/, package.json and docs`,
			);
		}
		// What n8n needs beside the compiled code: every node and credential the manifest lists,
		// a codex file beside each node, and the light and dark icons they name.
		const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).n8n;
		const packed = new Set(files.map((f) => f.path));
		const needed = [...manifest.nodes, ...manifest.credentials];
		for (const node of manifest.nodes) needed.push(node.replace(/\.js$/, '.json'));
		for (const icon of fs.readdirSync(path.join(root, 'icons'))) needed.push(`dist/icons/${icon}`);
		const missing = needed.filter((file) => !packed.has(file));
		if (missing.length) {
			failed = true;
			console.log(`scan tarball completeness: ✗ missing ${missing.join(', ')}`);
		} else {
			console.log(
				`scan tarball completeness: ✓ ${manifest.nodes.length} nodes with codex, ${manifest.credentials.length} credential, icons`,
			);
		}
		const unpacked = path.join(tmp, 'package');
		fs.mkdirSync(unpacked);
		const tar = spawnSync('tar', [
			'-xzf',
			path.join(tmp, filename),
			'-C',
			unpacked,
			'--strip-components=1',
		]);
		if (tar.status !== 0) throw new Error('could not unpack the tarball');
		const tarball = await scanner.analyzePackage(unpacked, ['**/*.js', 'package.json']);
		report('tarball', tarball);
		failed ||= !tarball.passed;
	} finally {
		fs.rmSync(tmp, { recursive: true, force: true });
	}
	process.exit(failed ? 1 : 0);
}

function report(what, result) {
	if (result.passed) console.log(`scan ${what}: ✓ ${result.message ?? 'no violations'}`);
	else console.log(`scan ${what}: ✗ ${result.message}\n${result.details ?? ''}`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
