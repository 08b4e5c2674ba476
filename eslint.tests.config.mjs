// Lints what does not ship: tests, the sandbox, scripts and config files, with TypeScript's
// and ESLint's recommended rules and Node/jest globals. What ships (nodes/, credentials/,
// package.json) is linted by `n8n-node lint` with the CLI's own eslint.config.mjs, untouched.
//
// `n8n-node lint` lints test/ too. Test code runs in Node under jest, never inside n8n, so a
// test file that needs Node itself (process, fs, timers, console) says so in one
// `eslint-disable` line at its top naming those rules. The same n8n rules are on here, so
// such a line must name rules that really fire: a stale one is an error.
import eslint from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{
		ignores: [
			'dist/**',
			'node_modules/**',
			'coverage/**',
			'demo-output/**',
			'.cache/**',
			'.stryker-tmp/**',
			'reports/**',
			'nodes/**',
			'credentials/**',
		],
	},
	{ linterOptions: { reportUnusedDisableDirectives: 'error' } },
	{
		files: ['**/*.ts'],
		extends: [
			eslint.configs.recommended,
			tseslint.configs.recommended,
			n8nCommunityNodesPlugin.configs.recommended,
		],
		languageOptions: { globals: { ...globals.node, ...globals.jest } },
		rules: {
			'prefer-spread': 'off',
			'no-console': 'error',
			'@typescript-eslint/no-require-imports': 'off',
		},
	},
	{
		files: ['**/*.js', '**/*.cjs'],
		extends: [eslint.configs.recommended],
		languageOptions: { globals: { ...globals.node }, sourceType: 'commonjs' },
	},
	{
		files: ['**/*.mjs'],
		extends: [eslint.configs.recommended],
		languageOptions: { globals: { ...globals.node }, sourceType: 'module' },
	},
);
