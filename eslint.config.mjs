// Lint like n8n's community-package gate: the rule sets n8n's own node scaffold applies
// (eslint-plugin-n8n-nodes-base: community, credentials, nodes) plus
// @n8n/eslint-plugin-community-nodes' recommended set, on what ships (nodes/, credentials/,
// package.json). Tests, the sandbox and scripts are ordinary Node code with the TS/JS basics.
import eslint from '@eslint/js';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesPlugin from 'eslint-plugin-n8n-nodes-base';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'demo-output/**'] },
	{
		files: ['**/*.ts'],
		extends: [eslint.configs.recommended, tseslint.configs.recommended],
		rules: { 'prefer-spread': 'off' },
	},
	{
		files: ['**/*.js', '**/*.mjs'],
		extends: [eslint.configs.recommended],
		languageOptions: { globals: { ...globals.node }, sourceType: 'commonjs' },
	},
	{ files: ['**/*.mjs'], languageOptions: { sourceType: 'module' } },
	{
		files: ['test/**/*.ts'],
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
	{ plugins: { 'n8n-nodes-base': n8nNodesPlugin } },
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
		...n8nCommunityNodesPlugin.configs.recommended,
		ignores: [],
	},
	{
		files: ['package.json'],
		languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
		rules: { ...n8nNodesPlugin.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesPlugin.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesPlugin.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		rules: { 'no-console': 'error' },
	},
);
