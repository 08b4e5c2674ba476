'use strict';
/* Lets plain Node scripts require the TypeScript test harness (test/harness, test/examples):
 * every `.ts` file required after this is compiled on the fly with TypeScript's
 * transpileModule (types are not checked here; `npx tsc -p tsconfig.test.json` does that).
 * Also gives the scripts a runner and a request classifier, and points n8n at a throwaway user folder and silences its logging, as the jest setup
 * (test/harness/setup-env.ts) does, before n8n-core is loaded. */
const fs = require('fs');
const os = require('os');
const path = require('path');
const ts = require('typescript');

process.env.N8N_USER_FOLDER ??= path.join(os.tmpdir(), `n8n-dg-script-${process.pid}`);
process.env.N8N_LOG_LEVEL ??= 'silent';

const compilerOptions = {
	module: ts.ModuleKind.CommonJS,
	target: ts.ScriptTarget.ES2021,
	esModuleInterop: true,
	resolveJsonModule: true,
	sourceMap: false,
	inlineSourceMap: true,
};

require.extensions['.ts'] = function compileTypeScript(module, filename) {
	const source = fs.readFileSync(filename, 'utf8');
	const { outputText } = ts.transpileModule(source, { compilerOptions, fileName: filename });
	module._compile(outputText, filename);
};

/** Removes the throwaway n8n user folder (binary data of the runs) when the script ends. */
function cleanUserFolder() {
	const folder = process.env.N8N_USER_FOLDER;
	if (
		folder &&
		folder.startsWith(os.tmpdir()) &&
		path.basename(folder).startsWith('n8n-dg-script-')
	) {
		fs.rmSync(folder, { recursive: true, force: true, maxRetries: 5 });
	}
}

/** What a sandbox request was, for the request counts the scripts print. */
function requestKind(request) {
	if (request.path.startsWith('/files/')) return 'file';
	if (request.method === 'POST' && request.path === '/api/v1/documents') return 'create';
	if (request.method === 'POST' && request.path === '/api/v1/documents/sync')
		return 'create (sync)';
	if (request.method === 'GET' && request.path === '/api/v1/document_cards') return 'poll (list)';
	if (request.method === 'GET' && request.path.startsWith('/api/v1/document_cards/'))
		return 'poll (get)';
	return 'other';
}

/** Runs a script's async main: exit 0 when it resolves, 1 with the error when it fails. */
function runScript(name, main) {
	main()
		.then(() => {
			cleanUserFolder();
			process.exit(0);
		})
		.catch((error) => {
			console.error(`${name} failed: ${error && error.stack ? error.stack : error}`);
			cleanUserFolder();
			process.exit(1);
		});
}

/** The value after `--name` on the command line, or the fallback. */
function cliOption(name, fallback) {
	const args = process.argv.slice(2);
	const i = args.indexOf(name);
	return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
}

module.exports = { cleanUserFolder, cliOption, requestKind, runScript };
