/** Tests run the built package on the real n8n engine against the local sandbox. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['<rootDir>/test/**/*.test.ts'],
	setupFiles: ['<rootDir>/test/harness/setup-env.ts'],
	// Removes the n8n user folders (binary data) of the test workers that have ended.
	globalTeardown: '<rootDir>/test/harness/sweep.js',
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
	},
	// A guard against a test that hangs, not a measure: no test asserts how long it takes, and a
	// machine busy with other work (CI beside other jobs) may take many times longer.
	testTimeout: 600_000,
	maxWorkers: 2,
};
