/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * Jest `setupFiles` entry: runs in every test worker before any test module (and so
 * before n8n-core) is imported.
 *
 * n8n-core's InstanceSettings reads N8N_USER_FOLDER when first used and writes an
 * encryption key (and binary data, in filesystem mode) below it. Point it at a
 * throwaway folder per worker so tests never touch ~/.n8n.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ownFolder = path.join(os.tmpdir(), `n8n-dg-test-${process.pid}`);
process.env.N8N_USER_FOLDER ??= ownFolder;
// The binary data the engine stored for the test files this worker ran before (filesystem
// mode: `storage` on n8n-core 2.x, `binaryData` on 1.x) is read by none after them: removed
// before each file, so a long run (the mutation tool runs the suites again for every mutant)
// holds one file's data at most instead of filling the disk. The folders of workers that have
// ended are removed after the run (`sweep.js`).
if (process.env.N8N_USER_FOLDER === ownFolder) {
	for (const data of ['storage', 'binaryData']) {
		fs.rmSync(path.join(ownFolder, '.n8n', data), { recursive: true, force: true, maxRetries: 5 });
	}
}
// n8n logs every node error it reports (with stack); tests see those errors anyway, so keep
// the output clean. Run with N8N_LOG_LEVEL=debug (or error) to see the engine's logging.
process.env.N8N_LOG_LEVEL ??= 'silent';
// n8n-workflow is not loaded here: loading it changes globals (it gives BigInt a toJSON) in
// the unit tests that never load it. Its regex budget is handled where the engine is loaded
// (harness/package.ts, see regex-budget.ts).
