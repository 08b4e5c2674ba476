/**
 * The Template Fields reader in bounded time and memory, whatever the template: each hostile
 * body or sample (megabyte scale) answers with the fields it can list or a `TemplateTooLarge`
 * that says which bound it passed. The target is the editor's answer within 1 s: the
 * time each case takes is measured by `npm run bench -- --only fields` (scripts/
 * bench-fields.js), not asserted here, where a busy machine would decide it. These run the
 * pure reader, without the editor's size bound.
 */
import {
	TEMPLATE_BOUNDS,
	TemplateTooLarge,
} from '../../../../nodes/DocumentGeneration/templateFields/bounds';
import { variablesOf } from '../../../../nodes/DocumentGeneration/templateFields/liquid';
import {
	payloadFromMapping,
	templateFields,
} from '../../../../nodes/DocumentGeneration/templateFields/mapping';
import { hostileBodies, hostileSamples, keys } from './pathological-templates';

const MB = 1024 * 1024;

/** What the work answered, or what it threw. */
function outcomeOf<T>(work: () => T): { value?: T; error?: unknown } {
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
const REFUSED_AT_1MB: Record<string, RegExp> = {
	'loops nested ever deeper': /^"b\.b\.b\.b\.b\.b\.b\.b" is nested deeper than 32 levels$/,
	'thousands of variables':
		/^the template reads more than 2,000 fields, more than the field list shows$/,
	'a list read for thousands of item fields':
		/^the list "lines" has more than 2,000 fields, more than the field list shows$/,
};
/** The field list reads 500 KB bodies; that body comes out over 512 KB, refused by size. */
const REFUSED_AT_500KB: Record<string, RegExp> = {
	...REFUSED_AT_1MB,
	'a list read for thousands of item fields':
		/^its body is [\d,]+ KB, over the 512 KB the field list reads$/,
};

/**
 * A refusal naming its bound where one is due, else a list of at least `least` entries read
 * without an error. What is asserted follows from the case, never from what came out.
 */
function expectOutcome(
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

describe('the Liquid reader on hostile bodies of 1 MB', () => {
	test.each(Object.keys(hostileBodies))('%s', (name) => {
		const body = hostileBodies[name](MB);
		expect(body.length).toBeGreaterThan(MB * 0.9);
		const outcome = outcomeOf(() => variablesOf(body));
		// Either what it reads, or a refusal that names the bound: never another failure.
		expectOutcome(outcome, REFUSED_AT_1MB[name]);
	});

	test('the refusals expected are hostile bodies there are', () => {
		const names = Object.keys(hostileBodies);
		expect(names).toEqual(expect.arrayContaining(Object.keys(REFUSED_AT_500KB)));
		expect(names.length).toBeGreaterThan(Object.keys(REFUSED_AT_500KB).length);
	});

	test('what the hostile bodies still read is right', () => {
		const paths = (name: string) =>
			variablesOf(hostileBodies[name](64 * 1024)).map((variable) => variable.path);
		expect(paths('unclosed {{')).toEqual([]);
		expect(paths('unclosed {% if %} blocks, a value printed in each')).toEqual(['a']);
		expect(paths('a long word before a filter argument')).toEqual(['x', 'a'.repeat(64 * 1024)]);
		expect(paths('a long run of .. in a range')).toEqual([]);
		expect(paths('many references in one output')).toEqual(['a']);
		expect(paths('unmatched end tags inside open blocks')).toEqual(['b']);
		// Up to the bound, every variable is read.
		const variables = (count: number) =>
			Array.from({ length: count }, (_, i) => `{{ v${i} }}`).join('');
		expect(variablesOf(variables(TEMPLATE_BOUNDS.fields))).toHaveLength(TEMPLATE_BOUNDS.fields);
		expect(() => variablesOf(variables(TEMPLATE_BOUNDS.fields + 1))).toThrow(TemplateTooLarge);
	});

	test('beyond the bounds: a refusal naming the bound', () => {
		const refusal = (body: string) => {
			try {
				variablesOf(body);
			} catch (error) {
				return (error as TemplateTooLarge).reason;
			}
			return undefined;
		};
		expect(refusal(hostileBodies['thousands of variables'](MB))).toBe(
			'the template reads more than 2,000 fields, more than the field list shows',
		);
		expect(refusal(hostileBodies['loops nested ever deeper'](MB))).toMatch(
			/^"b\.b\.b\.b\.b\.b\.b\.b" is nested deeper than 32 levels$/,
		);
		const deepPath = `{{ ${Array.from({ length: 33 }, (_, i) => `p${i}`).join('.')} }}`;
		expect(refusal(deepPath)).toMatch(/is nested deeper than 32 levels/);
		const atDepth = `{{ ${Array.from({ length: 32 }, (_, i) => `p${i}`).join('.')} }}`;
		expect(refusal(atDepth)).toBeUndefined();
	});
});

describe('the field list on hostile bodies and sample data', () => {
	test.each(Object.keys(hostileSamples))('sample data: %s', (name) => {
		const sample = hostileSamples[name]();
		const { error } = outcomeOf(() => templateFields('', sample));
		expect(error).toBeInstanceOf(TemplateTooLarge);
	});

	test('sample data of 2,000 keys (the bound) is listed', () => {
		const { value } = outcomeOf(() => templateFields('{{ key_1 }}', keys(2000)));
		expect(value).toHaveLength(2000);
		expect(value?.[0]).toMatchObject({ path: 'key_1', type: 'number', sampleOnly: false });
	});

	test('a body of 5 MB and sample data over 512 KB: refused by size before any reading', () => {
		const body = hostileBodies['unclosed {% if %} blocks, a value printed in each'](5 * MB);
		const big = outcomeOf(() => templateFields(body, '{}'));
		expect((big.error as TemplateTooLarge).reason).toBe(
			'its body is 5,120 KB, over the 512 KB the field list reads',
		);
		const hundredThousand = keys(100000);
		const sample = outcomeOf(() => templateFields('', hundredThousand));
		expect((sample.error as TemplateTooLarge).reason).toMatch(
			/^its sample data is [\d,]+ KB, over the 512 KB the field list reads$/,
		);
	});

	test.each(Object.keys(hostileBodies))('body of 500 KB: %s', (name) => {
		const body = hostileBodies[name](500 * 1024);
		const outcome = outcomeOf(() => templateFields(body, keys(1000)));
		// A list it reads holds the sample's 1,000 keys at least.
		expectOutcome(outcome, REFUSED_AT_500KB[name], 1000);
	});
});

describe('at run time, the mapping is bounded the same way', () => {
	test('more than 2,000 mapped fields, or a name deeper than 32 levels: refused, naming the field', () => {
		const many = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`f${i}`, i]));
		expect(() => payloadFromMapping({ mappingMode: 'defineBelow', value: many }, {})).toThrow(
			'Template Fields maps 2,001 fields, more than the 2,000 a document is built from',
		);
		const deep = Array.from({ length: 33 }, (_, i) => `p${i}`).join('.');
		expect(() =>
			payloadFromMapping({ mappingMode: 'defineBelow', value: { [deep]: 1 } }, {}),
		).toThrow(/^The template field "p0\.p1\.p2.*" is nested deeper than 32 levels$/);
		const { value } = outcomeOf(() =>
			payloadFromMapping(
				{
					mappingMode: 'defineBelow',
					value: Object.fromEntries(
						Array.from({ length: 2000 }, (_, i) => [
							`${Array.from({ length: 31 }, (__, d) => `l${d}`).join('.')}.f${i}`,
							i,
						]),
					),
				},
				{},
			),
		);
		expect(Object.keys(value as object)).toEqual(['l0']);
	});
});
