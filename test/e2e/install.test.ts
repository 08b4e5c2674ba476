/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
/**
 * scripts/e2e/install.js never deletes an install another run is still making: each run
 * installs into a folder of its own (`<dir>.installing-<pid>`) and renames it into place;
 * a run that finds the same install placed first drops its own; folders of runs that died
 * are removed. Checked on temporary folders (no npm).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

import * as install from '../../scripts/e2e/install.js';

let root: string;
let dir: string;
beforeEach(() => {
	root = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-install-'));
	dir = path.join(root, '2.41.1');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** A finished install in `folder`: its marker and one file to tell it by. */
function madeInstall(folder: string, marker: string, by: string): string {
	fs.mkdirSync(folder, { recursive: true });
	fs.writeFileSync(path.join(folder, '.installed'), marker);
	fs.writeFileSync(path.join(folder, 'made-by'), by);
	return folder;
}
const madeBy = (folder: string) => fs.readFileSync(path.join(folder, 'made-by'), 'utf8');

test('the first finished install is renamed into place', () => {
	const staged = madeInstall(install.stagingFor(dir, 101), 'v1', 'run 101');
	install.placeInstall(staged, dir, 'v1');
	expect(madeBy(dir)).toBe('run 101');
	expect(fs.existsSync(staged)).toBe(false);
});

test('a second run that finishes later keeps the install placed first and drops its own', () => {
	install.placeInstall(madeInstall(install.stagingFor(dir, 101), 'v1', 'run 101'), dir, 'v1');
	const second = madeInstall(install.stagingFor(dir, 102), 'v1', 'run 102');
	install.placeInstall(second, dir, 'v1');
	expect(madeBy(dir)).toBe('run 101');
	expect(fs.existsSync(second)).toBe(false);
});

test('an install of an older lockfile is replaced whole, its leftovers removed', () => {
	madeInstall(dir, 'v0', 'an older lockfile');
	install.placeInstall(madeInstall(install.stagingFor(dir, 103), 'v1', 'run 103'), dir, 'v1');
	expect(madeBy(dir)).toBe('run 103');
	expect(fs.readdirSync(root)).toEqual(['2.41.1']);
});

test('the folder of a run that died is removed; a running one’s is left alone', () => {
	// Linux hands out process ids below pid_max: no process ever has that one.
	const neverRunning = Number(fs.readFileSync('/proc/sys/kernel/pid_max', 'utf8'));
	const dead = madeInstall(install.stagingFor(dir, neverRunning), 'v1', 'a dead run');
	const running = madeInstall(install.stagingFor(dir, process.pid), 'v1', 'this run');
	install.removeAbandoned(dir);
	expect(fs.existsSync(dead)).toBe(false);
	expect(madeBy(running)).toBe('this run');
});
