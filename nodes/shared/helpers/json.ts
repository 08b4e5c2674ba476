/** Reading JSON text the user wrote, saying what is wrong with it, and how deep it nests. Pure. */
export function tryParseJson(text: string): { value: unknown } | { problem: string } {
	try {
		return { value: JSON.parse(text) };
	} catch (error) {
		return { problem: jsonProblem(String((error as Error).message ?? ''), text) };
	}
}

/** "line 2, column 5" for a position in a text of several lines, "character 9" otherwise. */
function place(text: string, position: number): string {
	const lines = text.slice(0, position).split('\n');
	if (!text.includes('\n')) return `character ${position + 1}`;
	return `line ${lines.length}, column ${lines[lines.length - 1].length + 1}`;
}

/** A common mistake outside strings: a trailing comma, an unquoted name, a single quote. */
function commonMistake(
	text: string,
): { position: number; problem: (at: string) => string } | undefined {
	let inString = false;
	let lastSignificant = '';
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		if (inString) {
			if (char === '\\') i++;
			else if (char === '"') inString = false;
			continue;
		}
		if (/\s/.test(char)) continue;
		if (char === '"') inString = true;
		else if ((char === '}' || char === ']') && lastSignificant === ',')
			return {
				position: i,
				problem: (at) => `a comma comes right before "${char}"${at}: remove that last comma`,
			};
		else if (char === "'")
			return {
				position: i,
				problem: (at) => `texts and names need double quotes ("), not single quotes (')${at}`,
			};
		else if (/[A-Za-z_$]/.test(char) && (lastSignificant === '{' || lastSignificant === ',')) {
			const name = /^[A-Za-z_$][\w$-]*/.exec(text.slice(i))?.[0] ?? char;
			return {
				position: i,
				problem: (at) => `the name ${name} needs double quotes, e.g. "${name}"${at}`,
			};
		}
		lastSignificant = char;
	}
	return undefined;
}

/** The parser's complaint in plain words, and where; `text` is the JSON that failed, if known. */
export function jsonProblem(parserMessage: string, text?: string): string {
	const match = /at position (\d+)/.exec(parserMessage);
	const position = match ? Number(match[1]) : undefined;
	const where = (p: number | undefined) =>
		p === undefined ? '' : ` at ${text ? place(text, p) : `character ${p + 1}`}`;
	const at = where(position);
	if (text !== undefined) {
		const mistake = commonMistake(text);
		if (mistake) return mistake.problem(where(mistake.position));
	}
	if (/Unexpected end of JSON input/i.test(parserMessage))
		return 'it ends too early: a closing bracket or quote may be missing';
	if (/Unterminated string/i.test(parserMessage)) return `a text in quotes is not closed${at}`;
	if (/Bad control character/i.test(parserMessage))
		return `a text in quotes is not closed before the end of its line${at}`;
	if (/property name/i.test(parserMessage) && /Expected ':'/.test(parserMessage))
		return `a ":" is missing after a name${at}`;
	if (/property name/i.test(parserMessage))
		return `names need double quotes, and no comma may come before "}"${at}`;
	if (/after JSON/i.test(parserMessage))
		return `there is more text after the end of the object${at}`;
	const token = /Unexpected token '?(.)'?/.exec(parserMessage);
	if (token) return `unexpected "${token[1]}"${at}; check quotes, commas and brackets`;
	return `check quotes, commas and brackets${at}`;
}

/** Parses a JSON string into a value; anything that is not valid JSON is returned unchanged. */
export function parseJsonLoose(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	try {
		return JSON.parse(value);
	} catch {
		return value;
	}
}

/** Deepest nesting accepted in payload, meta and sample data (deeper fails JSON.stringify). */
export const MAX_JSON_DEPTH = 1000;

/** How deep objects and lists nest (a scalar is 0), without recursion; stops past `limit`. */
export function jsonDepth(value: unknown, limit = MAX_JSON_DEPTH): number {
	let deepest = 0;
	const seen = new Set<object>();
	const stack: Array<[unknown, number]> = [[value, 1]];
	while (stack.length) {
		const [current, depth] = stack.pop()!;
		if (!current || typeof current !== 'object' || seen.has(current)) continue;
		seen.add(current);
		if (depth > deepest) deepest = depth;
		if (deepest > limit) return deepest;
		for (const child of Object.values(current)) stack.push([child, depth + 1]);
	}
	return deepest;
}
