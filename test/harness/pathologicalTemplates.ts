/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node under jest, never inside n8n */
import { TemplateTooLarge } from '../../nodes/DocumentGeneration/templateFields/liquidReader';

/**
 * Templates and sample data that made the Template Fields reader slow (a backtracking pattern,
 * a nested scan): each built at the size asked, in characters. Shared by the reader's unit
 * test, the editor test through the engine, and the benchmark of their time
 * (scripts/bench-fields.js, with the budget and the stopwatch below).
 */

/** `text` repeated until the result has about `size` characters. */
const fill = (text: string, size: number) =>
	text.repeat(Math.max(1, Math.floor(size / text.length)));

/** Template bodies, by what makes them hard. */
export const hostileBodies: Record<string, (size: number) => string> = {
	'unclosed {{': (size) => fill('{{', size),
	'unclosed {% if (no %})': (size) => fill('{% if a ', size),
	'unclosed {% if %} blocks, a value printed in each': (size) => fill('{% if a %}{{ a }}', size),
	'a long word before a filter argument': (size) => `{{ x | f: ${fill('a', size)} }}`,
	'a long word where a named argument could start': (size) => `{{ ${fill('a', size)} }}`,
	'many line breaks inside a tag': (size) => `{% ${fill('\n', size)} %}`,
	'many line breaks inside a liquid tag': (size) => `{% liquid ${fill('\n  ', size)} %}`,
	'a long run of .. in a range': (size) => `{% for i in (${fill('..', size)} %}`,
	'many references in one output': (size) => `{{ ${fill('a ', size)}}}`,
	'many spaces after a name and no dot': (size) => `{{ a${fill(' ', size)}! }}`,
	'an unclosed bracket after a name': (size) => `{{ a[${fill('b', size)} }}`,
	'unclosed quotes': (size) => `{{ ${fill('a "', size)} }}`,
	'liquid in liquid': (size) => `{% ${fill('liquid ', size)}%}`,
	'unmatched end tags inside open blocks': (size) =>
		`${fill('{% for a in b %}', size / 2)}${fill('{% endx %}', size / 2)}`,
	'loops nested ever deeper': (size) => fill('{% for a in a.b %}', size),
	'thousands of variables': (size) =>
		Array.from({ length: Math.floor(size / 12) }, (_, i) => `{{ v${i} }}`).join(''),
	'a list read for thousands of item fields': (size) =>
		`{% for l in lines %}${Array.from({ length: Math.floor(size / 12) }, (_, i) => `{{ l.f${i} }}`).join('')}`,
};

/** Sample data (JSON text), by what makes it hard. */
export const hostileSamples: Record<string, () => string> = {
	'8,000 keys': () => keys(8000),
	'100,000 keys': () => keys(100000),
	'nested 50,000 levels deep': () => `${'{"a":'.repeat(50000)}1${'}'.repeat(50000)}`,
	'a list whose first item has 8,000 keys': () => `{"lines":[${keys(8000)}]}`,
	'8,000 keys nested under one another in pairs': () =>
		JSON.stringify(Object.fromEntries(Array.from({ length: 8000 }, (_, i) => [`k${i}`, { v: i }]))),
};

/** Sample data of `count` top-level keys (8,000: about 100 KB). */
export function keys(count: number): string {
	return JSON.stringify(
		Object.fromEntries(Array.from({ length: count }, (_, i) => [`key_${i}`, i])),
	);
}

/**
 * The target: each case answers within 1 s. Measured (scripts/bench-fields.js) on the
 * CPU time the process spent (what the reader costs, whatever else the machine runs), with a
 * generous bound on the time on the clock too; both printed.
 */
export const LIMIT = { cpuMs: 1000, wallMs: 5000 };

export interface Timing {
	wallMs: number;
	cpuMs: number;
}

/** Starts measuring: the answer gives the time on the clock and the CPU time since. */
export function stopwatch(): () => Timing {
	const wall = performance.now();
	const cpu = process.cpuUsage();
	return () => {
		const spent = process.cpuUsage(cpu);
		return { wallMs: performance.now() - wall, cpuMs: (spent.user + spent.system) / 1000 };
	};
}

/** A figure as printed: CPU and clock time, then the case. */
export const figure = (timing: Timing, name: string) =>
	`  ${timing.cpuMs.toFixed(0).padStart(5)} ms CPU ${timing.wallMs.toFixed(0).padStart(5)} ms clock  ${name}`;

/** How long `work` takes, with what it answered or threw. */
export function timed<T>(work: () => T): { timing: Timing; value?: T; error?: unknown } {
	const stop = stopwatch();
	try {
		const value = work();
		return { timing: stop(), value };
	} catch (error) {
		return { timing: stop(), error };
	}
}

/** What the work answered, or what it threw. */
export function outcomeOf<T>(work: () => T): { value?: T; error?: unknown } {
	try {
		return { value: work() };
	} catch (error) {
		return { error };
	}
}

/**
 * The hostile bodies the reader refuses, each with the bound it names; it reads every other
 * one. Each case asserts its own outcome: a refusal where one is due, a reading elsewhere.
 */
export const REFUSED_AT_1MB: Record<string, RegExp> = {
	'loops nested ever deeper': /^"b\.b\.b\.b\.b\.b\.b\.b" is nested deeper than 32 levels$/,
	'thousands of variables':
		/^the template reads more than 2,000 fields, more than the field list shows$/,
	'a list read for thousands of item fields':
		/^the list "lines" has more than 2,000 fields, more than the field list shows$/,
};

/** The field list reads 500 KB bodies; that body comes out over 512 KB, refused by size. */
export const REFUSED_AT_500KB: Record<string, RegExp> = {
	...REFUSED_AT_1MB,
	'a list read for thousands of item fields':
		/^its body is [\d,]+ KB, over the 512 KB the field list reads$/,
};

/**
 * A refusal naming its bound where one is due, else a list of at least `least` entries read
 * without an error. What is asserted follows from the case, never from what came out.
 */
export function expectOutcome(
	outcome: { value?: unknown; error?: unknown },
	refusal: RegExp | undefined,
	least = 0,
) {
	if (refusal === undefined) {
		expect(outcome.error).toBeUndefined();
		expect(Array.isArray(outcome.value)).toBe(true);
		expect((outcome.value as unknown[]).length).toBeGreaterThanOrEqual(least);
		return;
	}
	expect(outcome.error).toBeInstanceOf(TemplateTooLarge);
	expect((outcome.error as TemplateTooLarge).reason).toMatch(refusal);
}
