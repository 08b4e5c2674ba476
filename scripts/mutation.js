#!/usr/bin/env node
/* `npm run test:mutation`: mutation testing with StrykerJS (stryker.config.mjs) on the files
 * named, or on those under nodes/ and credentials/ that changed since a commit.
 *   npm run test:mutation -- nodes/shared/helpers/linkExpiry.ts nodes/a.ts
 *   npm run test:mutation -- --since 6e6068b
 *   npm run test:mutation -- --since 6e6068b --exclude nodes/shared/transport/pace.ts
 *   npm run test:mutation -- nodes/a.ts --tests test/nodes/DocumentGeneration/descriptions
 * `--exclude <file>` leaves a file out of the list; `--tests <folder or file>` (repeatable)
 * runs only those tests: quicker to look at one file's survivors, but a mutant only other
 * tests kill shows as surviving, so the score to report comes from a run with every test.
 * `--force` (every mutant again, not only those new tests reach) and any other
 * `--option value` go to stryker as they are (`--concurrency 2`). The report is in
 * reports/mutation/ (index.html, mutation.json). */
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync, execFileSync } = require('child_process');

const root = path.resolve(__dirname, '..');
const MUTABLE = /^(nodes|credentials)\/.+\.ts$/;

function usage(message) {
	console.error(`test:mutation: ${message}`);
	console.error(
		'usage: npm run test:mutation -- <file.ts>... | --since <commit> [--exclude <file>]',
	);
	process.exit(2);
}

const files = [];
const excluded = new Set();
const tests = [];
const passThrough = [];
let since;
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
	const arg = args[i];
	const value = () => {
		if (i + 1 >= args.length) usage(`${arg} needs a value`);
		return args[++i];
	};
	if (arg === '--since') since = value();
	else if (arg === '--exclude') excluded.add(path.normalize(value()));
	else if (arg === '--tests') tests.push(path.normalize(value()));
	else if (arg === '--force') passThrough.push(arg);
	else if (arg.startsWith('--')) passThrough.push(arg, value());
	else files.push(path.normalize(arg));
}

if (since !== undefined) {
	const changed = execFileSync(
		'git',
		['diff', '--name-only', '--diff-filter=d', since, '--', 'nodes', 'credentials'],
		{ cwd: root, encoding: 'utf8' },
	);
	files.push(...changed.split('\n').filter(Boolean));
}

const mutate = [...new Set(files)].filter((file) => !excluded.has(path.normalize(file)));
if (mutate.length === 0) usage('no files to mutate');
for (const file of mutate) {
	if (!MUTABLE.test(file.split(path.sep).join('/'))) {
		usage(`${file}: only TypeScript files under nodes/ or credentials/ are mutated`);
	}
	if (!fs.existsSync(path.join(root, file))) usage(`${file}: no such file`);
}

console.log(`test:mutation: ${mutate.length} file(s)\n  ${mutate.join('\n  ')}`);
const env = { ...process.env };
if (tests.length > 0) env.STRYKER_TESTS = tests.join(',');
const stryker = path.join(root, 'node_modules', '.bin', 'stryker');
const result = spawnSync(stryker, ['run', '--mutate', mutate.join(','), ...passThrough], {
	cwd: root,
	env,
	stdio: 'inherit',
});
process.exit(result.status ?? 1);
