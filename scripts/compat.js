#!/usr/bin/env node
/* `npm run test:compat`: runs the engine suites (test/nodes, resilience, examples,
 * harness) on n8n's 1.x line. Installs n8n-core of each version (and the n8n-workflow it
 * depends on) into .cache/n8n-compat/<version>/ on first use, then runs jest with
 * jest.compat.config.js, which maps those packages to that folder for the tests and for the
 * built package; the versions run at once, each one's output shown when it ends.
 *   npm run test:compat        n8n-core 1.84.0 (n8n 1.85, the oldest the package runs on) and
 *                              1.122.48 (the last of the 1.x line)
 *   COMPAT_VERSIONS="1.87.0 1.122.48" npm run test:compat
 *   npm run test:compat -- test/resilience/bounded.test.ts     only the suites named
 * Ends with one line "N passed, N failed" over all versions. */
'use strict';
const fs = require('fs');
const path = require('path');
const { spawn, spawnSync } = require('child_process');

const root = path.resolve(__dirname, '..');
const versions = (process.env.COMPAT_VERSIONS || '1.84.0 1.122.48').split(/[\s,]+/).filter(Boolean);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function install(version) {
	const dir = path.join(root, '.cache', 'n8n-compat', version);
	const marker = path.join(dir, 'node_modules', 'n8n-core', 'package.json');
	if (fs.existsSync(marker) && JSON.parse(fs.readFileSync(marker, 'utf8')).version === version)
		return dir;
	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify({ name: 'n8n-compat', private: true }),
	);
	console.log(
		`compat: installing n8n-core ${version} into ${path.relative(root, dir)}/ (first use only)`,
	);
	const started = Date.now();
	const result = spawnSync(
		npm,
		[
			'install',
			'--ignore-scripts',
			'--no-audit',
			'--no-fund',
			'--no-package-lock',
			'--loglevel=error',
			`n8n-core@${version}`,
		],
		{ cwd: dir, stdio: 'inherit' },
	);
	if (result.status !== 0) throw new Error(`npm install n8n-core@${version} failed`);
	console.log(`compat: installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
	return dir;
}

/**
 * With one worker jest runs the tests in its own process, which does not end while a timer or
 * socket is left open (it would wait for ever). Once jest has written its results, it has
 * EXIT_GRACE_S to end; then it is stopped and the version fails, saying why.
 */
const EXIT_GRACE_S = 60;
function exitWatchdog(child, resultsFile, report) {
	let resultsSeen = 0;
	const watchdog = setInterval(() => {
		if (!resultsSeen) {
			if (fs.existsSync(resultsFile)) resultsSeen = Date.now();
			return;
		}
		if (Date.now() - resultsSeen < EXIT_GRACE_S * 1000) return;
		clearInterval(watchdog);
		report(
			`\ncompat: jest did not end ${EXIT_GRACE_S} s after its tests did: a timer or socket ` +
				'was left open (find it with --detectOpenHandles); stopped, counted as a failure\n',
		);
		child.kill('SIGKILL');
	}, 1000);
	return watchdog;
}

/** Runs the engine suites on one installed version; resolves with jest's results and output. */
function runVersion(version, dir) {
	const out = path.join(root, `.jest-compat-${version}.json`);
	// A results file left by a run that was stopped would start the exit watchdog at once.
	fs.rmSync(out, { force: true });
	const child = spawn(
		process.execPath,
		[
			require.resolve('jest/bin/jest'),
			'-c',
			'jest.compat.config.js',
			// One worker each: the versions side by side use the two workers one run used.
			'--maxWorkers=1',
			'--json',
			`--outputFile=${out}`,
			// `npm run test:compat -- PATH…` runs only those suites.
			...process.argv.slice(2),
		],
		{ cwd: root, env: { ...process.env, N8N_COMPAT_DIR: dir } },
	);
	const chunks = [];
	child.stdout.on('data', (chunk) => chunks.push(chunk));
	child.stderr.on('data', (chunk) => chunks.push(chunk));
	let hung = false;
	const watchdog = exitWatchdog(child, out, (message) => {
		hung = true;
		chunks.push(Buffer.from(message));
	});
	return new Promise((resolve) => {
		child.on('close', (status) => {
			clearInterval(watchdog);
			const results = fs.existsSync(out) ? JSON.parse(fs.readFileSync(out, 'utf8')) : undefined;
			fs.rmSync(out, { force: true });
			resolve({ version, status, hung, results, output: Buffer.concat(chunks).toString('utf8') });
		});
	});
}

async function main() {
	const runs = versions.map((version) => {
		const dir = install(version);
		const workflow = JSON.parse(
			fs.readFileSync(path.join(dir, 'node_modules', 'n8n-workflow', 'package.json'), 'utf8'),
		).version;
		console.log(`compat: engine suites on n8n-core ${version} with n8n-workflow ${workflow}`);
		return { version, dir };
	});
	// The versions run at once: most of the suites' time is spent waiting on the sandbox's
	// limits and timers, so two runs side by side take little longer than one. Each one's
	// output is shown when it ends.
	const done = await Promise.all(runs.map(({ version, dir }) => runVersion(version, dir)));
	let passed = 0;
	let failed = 0;
	let ok = true;
	for (const { version, status, hung, results, output } of done) {
		console.log(`\ncompat: ---- n8n-core ${version} ----`);
		process.stdout.write(output);
		if (!results) {
			ok = false;
			console.log(`compat: n8n-core ${version}: jest gave no results (exit ${status})`);
			continue;
		}
		// A jest that did not end counts as one failure more (the watchdog said why).
		const versionFailed = results.numFailedTests + (hung ? 1 : 0);
		passed += results.numPassedTests;
		failed += versionFailed;
		ok &&= results.success && status === 0 && !hung;
		console.log(
			`compat: n8n-core ${version}: ${results.numPassedTests} passed, ${versionFailed} failed`,
		);
	}
	console.log(`${passed} passed, ${failed} failed`);
	process.exit(ok ? 0 : 1);
}

main().catch((error) => {
	console.error(error);
	console.log('0 passed, 1 failed');
	process.exit(1);
});
