/**
 * How much of a template Create's Template Fields reads, in the editor and at run time. The
 * editor lists fields in n8n's main process, so a template or sample data beyond these bounds
 * is answered with a one-line notice instead of being worked on. Pure.
 */

export const TEMPLATE_BOUNDS = {
	/** A template body, in characters (512 KB). */
	bodyChars: 512 * 1024,
	/** A template's sample data as JSON text, in characters (512 KB). */
	sampleChars: 512 * 1024,
	/** Fields of one template (variables and sample-data paths), and item fields of one list. */
	fields: 2000,
	/** Parts of one field's path (`a.b.c` has 3), and levels of nesting in the sample data. */
	depth: 32,
} as const;

/** A template beyond a bound: `reason` says which, in words the editor's notice can show. */
export class TemplateTooLarge extends Error {
	constructor(readonly reason: string) {
		super(`The template's fields cannot be listed: ${reason}`);
		this.name = 'TemplateTooLarge';
	}
}

const kilobytes = (chars: number) => `${Math.ceil(chars / 1024).toLocaleString('en-US')} KB`;

/** Refuses a text (body or sample data) longer than its bound. */
export function checkSize(what: 'body' | 'sample data', text: string, bound: number): void {
	if (text.length > bound)
		throw new TemplateTooLarge(
			`its ${what} is ${kilobytes(text.length)}, over the ${kilobytes(bound)} the field list reads`,
		);
}

export const tooManyFields = (what: string) =>
	new TemplateTooLarge(
		`${what} more than ${TEMPLATE_BOUNDS.fields.toLocaleString('en-US')} fields, more than the field list shows`,
	);

export const tooDeep = (path: string) =>
	new TemplateTooLarge(
		`"${path.slice(0, 40)}${path.length > 40 ? '…' : ''}" is nested deeper than ${TEMPLATE_BOUNDS.depth} levels`,
	);
