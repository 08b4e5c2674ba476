/**
 * The regular expression engine the tests give n8n-workflow (regex-budget.ts): installed, the
 * same answers as the language's own, a runaway pattern still stopped, and a check starved of
 * CPU run again instead of failing.
 */
import * as workflowLib from 'n8n-workflow';

import './package';
import {
	REGEX_BUDGET_MS,
	TIMED_OUT,
	installedRegexEngine,
	tolerantRegexEngine,
} from './regex-budget';

/** A pattern that backtracks for far longer than any budget on this input. */
const RUNAWAY = { pattern: '^(a+)+$', input: `${'a'.repeat(40)}b` };

/** n8n-workflow 2.x has the regex budget and the hook to replace its engine; 1.x has neither. */
const HAS_BUDGET = typeof workflowLib.setSafeRegexEngine === 'function';

test('installed where n8n-workflow has a regex budget, and only there', () => {
	expect(installedRegexEngine() !== undefined).toBe(HAS_BUDGET);
});

(HAS_BUDGET ? test : test.skip)(
	'n8n-workflow checks through it, with the answers of the language',
	() => {
		const engine = installedRegexEngine()!;
		const checked = jest.spyOn(engine, 'test');
		const uuid = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
		const id = '01c26118-efda-4e0f-90e4-ba71294055cf';
		expect(workflowLib.safeRegex.test(uuid, id)).toBe(true);
		expect(workflowLib.safeRegex.test(uuid, `${id}x`)).toBe(false);
		expect(checked).toHaveBeenCalledTimes(2);
		expect(engine.exec('b(.)', 'abcbd')?.[1]).toBe('c');
		expect(engine.replace('b', 'abcb', 'g', '-')).toBe('a-c-');
		expect(engine.matchAll('b(.)', 'abcbd').map((m) => m[1])).toEqual(['c', 'd']);
		expect(engine.split('[,;]', 'a,b;c')).toEqual(['a', 'b', 'c']);
	},
);

test('a runaway pattern that used its CPU budget fails at the first timeout', () => {
	let reads = 0;
	// A clock that says each attempt had its whole budget of CPU.
	const cpuMs = () => REGEX_BUDGET_MS * reads++;
	const engine = tolerantRegexEngine({ cpuMs, maxAttempts: 3 });
	expect(() => engine.test(RUNAWAY.pattern, RUNAWAY.input)).toThrow(TIMED_OUT);
	expect(reads).toBe(2);
});

test('a check starved of CPU is run again, at most maxAttempts times', () => {
	let reads = 0;
	// A clock that says no attempt got any CPU: each timeout was the machine's, not the pattern's.
	const cpuMs = () => (reads++, 0);
	const engine = tolerantRegexEngine({ cpuMs, maxAttempts: 3 });
	const started = Date.now();
	expect(() => engine.test(RUNAWAY.pattern, RUNAWAY.input)).toThrow(TIMED_OUT);
	expect(reads).toBe(6);
	expect(Date.now() - started).toBeGreaterThanOrEqual(3 * REGEX_BUDGET_MS - 50);
});
