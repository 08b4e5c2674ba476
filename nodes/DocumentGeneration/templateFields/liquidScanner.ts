/** The Liquid reader's lexer; every scan is linear, so a hostile template cannot stall it. */

/** An output (`{{ }}`) or a tag (`{% %}`), without its marks. */
export interface LiquidToken {
	kind: 'output' | 'tag';
	content: string;
}

/** The first index of `mark` at or after `from`, remembered: no stretch is searched twice. */
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

/** The tokens of a body, each up to the first close after it; an unclosed mark is plain text. */
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

/** Whitespace as `\s` and `trim` know it; ASCII first, the rest through the pattern. */
function isSpace(char: string | undefined): boolean {
	if (char === undefined) return false;
	const code = char.charCodeAt(0);
	if (code < 128) return code === 32 || (code >= 9 && code <= 13);
	return /\s/.test(char);
}
const isLetter = (code: number) =>
	(code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95;
const isDigitCode = (code: number) => code >= 48 && code <= 57;
/** `[A-Za-z_]`: where a name starts. */
const isWordStart = (char: string | undefined) =>
	char !== undefined && isLetter(char.charCodeAt(0));
/** `[\w-]`: what a name is made of. */
const isWordChar = (char: string | undefined) => {
	if (char === undefined) return false;
	const code = char.charCodeAt(0);
	return isLetter(code) || isDigitCode(code) || code === 45;
};
const isDigit = (char: string | undefined) => char !== undefined && isDigitCode(char.charCodeAt(0));
/** Marks a string literal set aside: `\uE000N\uE000`, N its index. */
export const STRING_MARK = '\uE000';

/** An expression with its string literals set aside, so that nothing in them counts. */
export function withoutStrings(text: string): { text: string; strings: string[] } {
	const strings: string[] = [];
	if (!text.includes('"') && !text.includes("'")) return { text, strings };
	const chunks: string[] = [];
	let copied = 0;
	for (let i = 0; i < text.length; i++) {
		const quote = text[i];
		if (quote !== '"' && quote !== "'") continue;
		const end = text.indexOf(quote, i + 1);
		// No closing quote: no later quote of that kind either, so it stays text.
		if (end < 0) continue;
		strings.push(text.slice(i + 1, end));
		chunks.push(text.slice(copied, i), `${STRING_MARK}${strings.length - 1}${STRING_MARK}`);
		copied = end + 1;
		i = end;
	}
	chunks.push(text.slice(copied));
	return { text: chunks.join(''), strings };
}

/** The end of the run of characters `is` takes, starting at `from`. */
function runEnd(text: string, from: number, is: (char: string | undefined) => boolean): number {
	let end = from;
	while (is(text[end])) end++;
	return end;
}
const wordEnd = (text: string, from: number) => runEnd(text, from, isWordChar);
const spacesEnd = (text: string, from: number) => runEnd(text, from, isSpace);

/** The text with every named argument (`key:`) replaced by a space. */
export function withoutNamedArguments(text: string): string {
	if (!text.includes(':')) return text;
	const chunks: string[] = [];
	let copied = 0;
	let i = 0;
	while (i < text.length) {
		if (!isWordChar(text[i])) {
			i++;
			continue;
		}
		const end = wordEnd(text, i);
		let start = i;
		while (start < end && !isWordStart(text[start])) start++;
		const after = spacesEnd(text, end);
		if (start < end && text[after] === ':') {
			chunks.push(text.slice(copied, start), ' ');
			copied = after + 1;
			i = after + 1;
		} else i = end;
	}
	chunks.push(text.slice(copied));
	return chunks.join('');
}

/** The bracket at `open` (`[0]`, `[key]`, `[\uE000N\uE000]`): its segment and end, if it is one. */
function bracket(
	text: string,
	open: number,
	strings: string[],
): { part: string; end: number } | undefined {
	let at = spacesEnd(text, open + 1);
	let part: string;
	if (isDigit(text[at])) {
		while (isDigit(text[at])) at++;
		part = '[]';
	} else if (isWordStart(text[at])) {
		while (isWordChar(text[at]) || text[at] === '.') at++;
		// A variable index (`lines[i]`) reads an item; `i` itself is read elsewhere.
		part = '[]';
	} else if (text[at] === STRING_MARK && isDigit(text[at + 1])) {
		const start = at + 1;
		at = start;
		while (isDigit(text[at])) at++;
		if (text[at] !== STRING_MARK) return undefined;
		part = strings[Number(text.slice(start, at))];
		at++;
	} else return undefined;
	at = spacesEnd(text, at);
	return text[at] === ']' ? { part, end: at + 1 } : undefined;
}

/** One reference starting at a word: `a.b`, `lines[0].name`, `a["b c"]`, as its segments. */
function reference(
	text: string,
	from: number,
	strings: string[],
): { parts: string[]; end: number } {
	let end = wordEnd(text, from);
	const parts = [text.slice(from, end)];
	for (;;) {
		const at = spacesEnd(text, end);
		if (text[at] === '.') {
			const name = spacesEnd(text, at + 1);
			if (!isWordStart(text[name])) break;
			end = wordEnd(text, name);
			parts.push(text.slice(name, end));
		} else if (text[at] === '[') {
			const found = bracket(text, at, strings);
			if (!found) break;
			parts.push(found.part);
			end = found.end;
		} else break;
	}
	return { parts, end };
}

/** Each reference as segments (`lines[0].name` → lines, [], name); one after a dot is skipped. */
export function eachReference(
	text: string,
	strings: string[],
	take: (parts: string[]) => void,
): void {
	let lastSignificant = '';
	let i = 0;
	while (i < text.length) {
		const char = text[i];
		if (isWordStart(char)) {
			const { parts, end } = reference(text, i, strings);
			if (lastSignificant !== '.') take(parts);
			lastSignificant = text[end - 1];
			i = end;
			continue;
		}
		if (!isSpace(char)) lastSignificant = char;
		i++;
	}
}

/** The range of a `for` over `(a..b)`: its two ends and the rest after `)`, if it is one. */
export function loopRange(source: string): { from: string; to: string; rest: string } | undefined {
	const open = spacesEnd(source, 0);
	if (source[open] !== '(') return undefined;
	const dots = source.indexOf('..', open + 1);
	if (dots < 0) return undefined;
	const close = source.indexOf(')', dots + 2);
	if (close < 0) return undefined;
	return {
		from: source.slice(open + 1, dots),
		to: source.slice(dots + 2, close),
		rest: source.slice(close + 1),
	};
}

const MAKERS = new Set(['assign', 'capture', 'increment', 'decrement']);

/** The names a tag makes: `assign x`, `capture x`… first on any of its lines. */
export function namesMadeIn(tag: string, names: Set<string>): void {
	let lineStart = 0;
	for (;;) {
		const at = spacesEnd(tag, lineStart);
		const keywordEnd = wordEnd(tag, at);
		let resume = keywordEnd;
		if (MAKERS.has(tag.slice(at, Math.min(keywordEnd, at + 10)))) {
			const name = spacesEnd(tag, keywordEnd);
			if (name > keywordEnd && isWordStart(tag[name])) {
				resume = wordEnd(tag, name);
				names.add(tag.slice(name, resume));
			}
		}
		const newline = tag.indexOf('\n', Math.max(resume, lineStart));
		if (newline < 0) return;
		lineStart = newline + 1;
	}
}
