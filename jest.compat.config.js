/**
 * The engine suites on n8n's 1.x line: the same tests, with n8n-core, n8n-workflow and their
 * @n8n/* companions taken from the folder `scripts/compat.js` installs them into
 * (N8N_COMPAT_DIR), for the tests and for the built package alike.
 */
const fs = require('fs');
const path = require('path');
const base = require('./jest.config');

const dir = process.env.N8N_COMPAT_DIR;
if (!dir) throw new Error('N8N_COMPAT_DIR is not set: run `npm run test:compat`');
const modules = path.join(dir, 'node_modules');

// n8n-core before 1.9x keeps its Logger itself: @n8n/backend-common is then a shim over it.
const backendCommon = fs.existsSync(path.join(modules, '@n8n', 'backend-common'))
	? {}
	: { '^@n8n/backend-common$': '<rootDir>/test/harness/compat/backend-common.js' };

module.exports = {
	...base,
	testMatch: ['<rootDir>/test/{nodes,resilience,harness,examples}/**/*.test.ts'],
	// The editor's suites (descriptions and defaults, pickers, Template Fields' resource mapper,
	// the AI agent tool) are claimed on n8n 2.x only, as the package's compatibility table says.
	testPathIgnorePatterns: [
		'/node_modules/',
		'<rootDir>/test/nodes/(description|defaults)\\.test\\.ts$',
		'<rootDir>/test/nodes/DocumentGeneration/agent-tool\\.test\\.ts$',
		'<rootDir>/test/nodes/DocumentGeneration/methods/',
		'<rootDir>/test/nodes/DocumentGeneration/actions/library\\.editor\\.test\\.ts$',
		'<rootDir>/test/nodes/shared/methods/',
		// Execution Logic v2 (a workflow's binaryMode "combined") and the sandboxed expression
		// engine are n8n 2.x's.
		'<rootDir>/test/nodes/execution-logic-v2\\.test\\.ts$',
		// Builds n8n 2.x's NodeApiError by hand; on 1.x the engine suites (faults) cover it.
		'<rootDir>/test/nodes/shared/transport/transport\\.test\\.ts$',
	],
	moduleNameMapper: {
		...backendCommon,
		'^(n8n-core|n8n-workflow|@n8n/di|@n8n/backend-common|@n8n/config|@n8n/errors)(/.*)?$': `${modules}/$1$2`,
	},
};
