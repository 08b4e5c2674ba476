#!/usr/bin/env node
/* Completes package-lock.json with the optional per-platform builds that this machine's
 * registry does not serve (e.g. @unrs/resolver-binding-darwin-arm64, pulled in by
 * @n8n/node-cli's eslint resolver). `npm install` leaves them out of the lockfile when it
 * cannot fetch them, and `npm ci` then refuses the lockfile as out of sync. Each missing
 * entry gets what npm needs to skip it on other platforms: version, cpu, os (and libc),
 * optional and dev. Run it after any `npm install` that changes the dev toolchain:
 *   node scripts/lockfile-platforms.js            (writes package-lock.json)
 *   node scripts/lockfile-platforms.js --check    (exit 1 when an entry is missing) */
'use strict';
const fs = require('fs');
const path = require('path');

const file = path.resolve(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const check = process.argv.includes('--check');

const CPUS = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'ppc64', 'riscv64', 's390x', 'wasm32'];
const OSES = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openharmony'];
const LIBCS = { gnu: 'glibc', gnueabihf: 'glibc', musl: 'musl', musleabihf: 'musl' };

/** cpu/os/libc of a platform package from its name, e.g. `resolver-binding-linux-x64-musl`. */
function platformOf(name) {
	const parts = name.split('/').pop().split('-');
	const cpu = parts.find((part) => CPUS.includes(part));
	const os = parts.find((part) => OSES.includes(part));
	const libc = parts.map((part) => LIBCS[part]).find(Boolean);
	if (!cpu && !os) return undefined;
	return { ...(cpu && { cpu: [cpu] }), ...(os && { os: [os] }), ...(libc && { libc: [libc] }) };
}

/** Whether `name` is found from the package at `where`, the way node looks up the tree. */
function resolves(where, name) {
	for (let dir = where; ; ) {
		if (lock.packages[`${dir ? `${dir}/` : ''}node_modules/${name}`]) return true;
		const cut = dir.lastIndexOf('/node_modules/');
		if (dir === '') return false;
		dir = cut < 0 ? '' : dir.slice(0, cut);
	}
}

const added = [];
for (const [where, pkg] of Object.entries(lock.packages)) {
	if (!pkg.optionalDependencies) continue;
	for (const [name, version] of Object.entries(pkg.optionalDependencies)) {
		if (resolves(where, name)) continue;
		const key = `${where.slice(0, where.lastIndexOf('node_modules/'))}node_modules/${name}`;
		const platform = platformOf(name);
		if (!platform) continue;
		added.push(key);
		lock.packages[key] = {
			version: String(version).replace(/^[\^~=]/, ''),
			...platform,
			dev: pkg.dev === true || undefined,
			optional: true,
		};
		if (!lock.packages[key].dev) delete lock.packages[key].dev;
	}
}

if (check) {
	if (added.length)
		console.log(
			`lockfile: ${added.length} optional platform entries missing (run node scripts/lockfile-platforms.js)`,
		);
	else console.log('lockfile: every optional platform entry is present');
	process.exit(added.length ? 1 : 0);
}
// The order npm itself writes: the root first, then by path as npm compares them.
lock.packages = Object.fromEntries(
	Object.entries(lock.packages).sort(([a], [b]) => a.localeCompare(b, 'en')),
);
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(
	`lockfile: added ${added.length} optional platform entries${added.length ? `:\n  ${added.join('\n  ')}` : ''}`,
);
