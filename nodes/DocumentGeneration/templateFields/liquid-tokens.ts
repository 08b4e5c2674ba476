/**
 * A template body cut into its Liquid tokens (`{{ }}`, `{% %}`), for the Liquid reader. In
 * time linear in the body: each closing mark is searched for once (indexOf), so a hostile or
 * broken template cannot stall the process that reads it. Pure.
 */

/** One token of a template body: an output (`{{ }}`) or a tag (`{% %}`), without its marks. */
export interface LiquidToken {
	kind: 'output' | 'tag';
	content: string;
}

/** The first index of `mark` at or after `from`, remembered so that no stretch is searched twice. */
class CloseFinder {
	private found: number | undefined;

	constructor(
		private readonly text: string,
		private readonly mark: string,
	) {}

	at(from: number): number {
		if (this.found === undefined || (this.found !== -1 && this.found < from))
			this.found = this.text.indexOf(this.mark, from);
		return this.found;
	}
}

/** A token's content without the whitespace-control dashes (`{{-`, `-%}`). */
function content(body: string, start: number, end: number): string {
	let from = start;
	let to = end;
	if (body[from] === '-' && from < to) from++;
	if (to > from && body[to - 1] === '-') to--;
	return body.slice(from, to);
}

/**
 * The tokens of a body, in order: at each `{{` or `{%`, the text up to the first `}}` or `%}`
 * after it. An opening mark that is never closed is plain text.
 */
export function* tokens(body: string): Generator<LiquidToken> {
	const outputClose = new CloseFinder(body, '}}');
	const tagClose = new CloseFinder(body, '%}');
	let position = 0;
	while (position < body.length) {
		const open = body.indexOf('{', position);
		if (open < 0 || open + 1 >= body.length) return;
		const next = body[open + 1];
		const finder = next === '{' ? outputClose : next === '%' ? tagClose : undefined;
		const close = finder?.at(open + 2) ?? -1;
		if (close < 0) {
			position = open + 1;
			continue;
		}
		yield {
			kind: next === '{' ? 'output' : 'tag',
			content: content(body, open + 2, close),
		};
		position = close + 2;
	}
}
