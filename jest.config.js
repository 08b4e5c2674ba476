/** Tests run the built package on the real n8n engine against the local sandbox. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['<rootDir>/test/**/*.test.ts'],
	setupFiles: ['<rootDir>/test/harness/setup-env.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
	},
	testTimeout: 60000,
	maxWorkers: 2,
};
