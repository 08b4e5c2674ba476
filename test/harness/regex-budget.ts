/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/require-node-api-error -- test code: runs in Node under jest, never inside n8n */
/**
 * n8n-workflow (2.x) runs the regular expressions of parameter checks (a resource locator's
 * `validation`, a `regex` display condition) in a VM with a budget of 250 ms, measured on the
 * clock. On a busy machine a check of microseconds can spend that waiting for a core, and the
 * run then fails with "Regular expression execution timed out" for no fault of the package.
 *
 * The harness (package.ts, which every run on the engine loads) installs, through
 * n8n-workflow's own `setSafeRegexEngine`, an engine that checks the same patterns the same way
 * (in a VM, with the same 250 ms budget per attempt) and tells the two kinds of timeout apart
 * by the process's CPU time: an attempt that got less than the budget of CPU was starved, not
 * slow, and is run again; one that used the budget is a real timeout, and fails as n8n's does. A pattern that never ends still fails, after at most
 * `MAX_ATTEMPTS` attempts. What n8n checks, and what a check answers, is unchanged.
 *
 * n8n-workflow 1.x (`npm run test:compat`) has no such budget: nothing is installed there.
 */
import * as vm from 'vm';
import * as workflowLib from 'n8n-workflow';

/** n8n-workflow's budget per regular expression (`REGEX_TIMEOUT_MS` in its safe-regex.js). */
export const REGEX_BUDGET_MS = 250;
/** Attempts of one starved check before its timeout stands anyway. */
export const MAX_ATTEMPTS = 20;
/** n8n's message for a regular expression that ran out of time. */
export const TIMED_OUT = 'Regular expression execution timed out';

type Operation = 'exec' | 'test' | 'replace' | 'matchAll' | 'split';

/** What each operation evaluates in the VM, from the context's pattern, flags and input. */
const SCRIPT_TEXT: Record<Operation, string> = {
	exec: 'new RegExp(pattern, flags).exec(input)',
	test: 'new RegExp(pattern, flags).test(input)',
	replace: 'input.replace(new RegExp(pattern, flags), replacement)',
	matchAll: 'Array.from(input.matchAll(new RegExp(pattern, flags)))',
	split: 'input.split(new RegExp(pattern, flags))',
};

interface Call {
	pattern: string;
	input: string;
	flags: string;
	replacement?: string;
}

/** CPU time of this process so far, in milliseconds (every thread: at least the main one's). */
function processCpuMs(): number {
	const { user, system } = process.cpuUsage();
	return (user + system) / 1000;
}

function isVmTimeout(error: unknown): boolean {
	return (error as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}

/** How the engine reads the CPU time and how often it runs a starved check (tests vary them). */
export interface TolerantEngineOptions {
	cpuMs?: () => number;
	maxAttempts?: number;
}

/** An engine with n8n's budget per attempt that runs a starved attempt again. */
export function tolerantRegexEngine({
	cpuMs = processCpuMs,
	maxAttempts = MAX_ATTEMPTS,
}: TolerantEngineOptions = {}) {
	const context = vm.createContext({ pattern: '', input: '', flags: '', replacement: '' });
	const scripts = Object.fromEntries(
		Object.entries(SCRIPT_TEXT).map(([name, text]) => [name, new vm.Script(`result = ${text}`)]),
	) as Record<Operation, vm.Script>;

	const run = (operation: Operation, call: Call): unknown => {
		Object.assign(context, { replacement: '', ...call, result: undefined });
		for (let attempt = 1; ; attempt++) {
			const cpuBefore = cpuMs();
			try {
				scripts[operation].runInContext(context, { timeout: REGEX_BUDGET_MS });
				return (context as { result?: unknown }).result;
			} catch (error) {
				if (!isVmTimeout(error)) throw error;
				const starved = cpuMs() - cpuBefore < REGEX_BUDGET_MS;
				if (!starved || attempt >= maxAttempts) throw new Error(TIMED_OUT);
			}
		}
	};
	// matchAll needs the global flag, which n8n adds when it is missing.
	const global = (flags = '') => (flags.includes('g') ? flags : `${flags}g`);
	return {
		exec: (pattern: string, input: string, flags = '') =>
			run('exec', { pattern, input, flags }) as RegExpExecArray | null,
		test: (pattern: string, input: string, flags = '') =>
			run('test', { pattern, input, flags }) as boolean,
		replace: (pattern: string, input: string, flags: string | undefined, replacement: string) =>
			run('replace', { pattern, input, flags: flags ?? '', replacement }) as string,
		matchAll: (pattern: string, input: string, flags?: string) =>
			run('matchAll', { pattern, input, flags: global(flags) }) as RegExpMatchArray[],
		split: (pattern: string, input: string, flags = '') =>
			run('split', { pattern, input, flags }) as string[],
	};
}

type TolerantEngine = ReturnType<typeof tolerantRegexEngine>;
type SetEngine = (engine: TolerantEngine) => void;

let installed: TolerantEngine | undefined;

/** The engine installed in n8n-workflow for this test file by the harness, if any. */
export function installedRegexEngine(): TolerantEngine | undefined {
	return installed;
}

/** Installs the engine where n8n-workflow has a regex budget; true when it did. */
export function tolerateStarvedRegexChecks(): boolean {
	const setEngine = (workflowLib as unknown as { setSafeRegexEngine?: SetEngine })
		.setSafeRegexEngine;
	if (typeof setEngine !== 'function') return false;
	installed = tolerantRegexEngine();
	setEngine(installed);
	return true;
}
