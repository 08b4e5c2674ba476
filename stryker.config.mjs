// Mutation testing with StrykerJS: `npm run test:mutation -- <files>` or `-- --since <commit>`
// (scripts/mutation.js builds the list of files to mutate and calls stryker with it).
//
// The engine tests load the BUILT package (dist/, through n8n's PackageDirectoryLoader; see
// test/harness/package.ts), not the TypeScript sources. So Stryker builds the package inside
// its sandbox after placing the mutants in the sources (`buildCommand`): every mutant is in
// dist/ behind a switch, and the jest runner turns one on per run. The unit tests that import
// the sources directly see the same mutants through ts-jest.
import { createRequire } from 'module';

const require = createRequire(import.meta.url);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	packageManager: 'npm',
	testRunner: 'jest',
	jest: {
		projectType: 'custom',
		configFile: 'jest.config.js',
		// The engine tests reach the code through dist/, which no test imports: jest's
		// "related tests" would leave them out. Per-test coverage picks the tests instead.
		enableFindRelatedTests: false,
		// `--tests <path>` of scripts/mutation.js: only those test files run.
		...(process.env.STRYKER_TESTS && {
			config: {
				...require('./jest.config.js'),
				testMatch: process.env.STRYKER_TESTS.split(',').map((test) =>
					test.endsWith('.ts') ? `<rootDir>/${test}` : `<rootDir>/${test}/**/*.test.ts`,
				),
			},
		}),
	},
	coverageAnalysis: 'perTest',
	checkers: ['typescript'],
	tsconfigFile: 'tsconfig.json',
	buildCommand: 'npm run build',
	// The instrumented sources do not type-check; tsc still has to emit them (n8n-node build
	// fails on a type error).
	disableTypeChecks: '{nodes,credentials}/**/*.ts',
	// Mutants in code that runs only when a module loads (a node's properties, constants)
	// would each need the whole suite (~3 minutes): they are reported as ignored, not run.
	ignoreStatic: true,
	concurrency: 1,
	// Generous: engine tests wait for the sandbox's documents; a mutant that loops is
	// stopped by this and counted as a timeout (killed).
	timeoutMS: 20000,
	// The first run, every test with coverage and one at a time, takes 5 to 15 minutes here.
	dryRunTimeoutMinutes: 40,
	ignorePatterns: [
		'dist',
		'.cache',
		'coverage',
		'reports',
		'.n8n-test',
		'demo-output',
		'.dist-build-*',
		'.dist-old-*',
		'.jest-results.json',
		'.jest-compat-*.json',
	],
	tempDirName: '.stryker-tmp',
	// A run again after adding tests reruns only the mutants those tests reach (and those whose
	// code or tests changed); `--force` runs every mutant.
	incremental: true,
	incrementalFile: 'reports/mutation/stryker-incremental.json',
	reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
	htmlReporter: { fileName: 'reports/mutation/index.html' },
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
	thresholds: { high: 90, low: 80, break: null },
};
