/**
 * What a Liquid template reads from its data: the variables of a document template's body
 * (`{{ customer.name }}`, `{% for line in lines %}`, `{% if paid %}`), for Create's Template
 * Fields. A reader of the template language, not a renderer. Pure.
 *
 * Left out: a loop's own variable (`line`) and `forloop`/`tablerowloop`, names made by
 * `assign`, `capture`, `increment` and `decrement`, literals, operators and filter names.
 */

export interface LiquidVariable {
	/** The dotted path from the data's root, e.g. `customer.name`. */
	path: string;
	/** Whether a loop runs over it (`lines` in `for line in lines`), or it is read as a list. */
	collection: boolean;
	/** What the template reads of each item of the collection, e.g. `description`. */
	itemFields: string[];
	/** Printed (`{{ }}`, `echo`) at least once without a `default` filter. */
	printed: boolean;
	/** Read with a `default` filter somewhere. */
	defaulted: boolean;
}

/** A loop variable: the collection it walks (a root path) and where in an item it points. */
interface Binding {
	collection?: string;
	prefix: string[];
}

const TOKEN = /\{\{-?([\s\S]*?)-?\}\}|\{%-?([\s\S]*?)-?%\}/g;
/** Operators, literals and loop options: words of the language, not of the data. */
const WORDS = new Set(
	'and or not contains true false nil null empty blank in with as for by limit offset reversed cols else'.split(
		' ',
	),
);
const LOOP_OBJECTS = new Set(['forloop', 'tablerowloop']);
/** Properties Liquid gives arrays and strings; `first`/`last` say the value is a list. */
const LIST_PROPERTIES = new Set(['first', 'last']);
const PROPERTIES = new Set(['size', ...LIST_PROPERTIES]);
const REFERENCE =
	/[A-Za-z_][\w-]*(?:\s*\.\s*[A-Za-z_][\w-]*|\s*\[\s*(?:\d+|[A-Za-z_][\w.-]*|\uE000\d+\uE000)\s*\])*/g;
const STRING = /"[^"]*"|'[^']*'/g;

/** An expression with its string literals set aside (as `\0N\0`), so that nothing in them counts. */
function withoutStrings(text: string): { text: string; strings: string[] } {
	const strings: string[] = [];
	const replaced = text.replace(STRING, (literal) => {
		strings.push(literal.slice(1, -1));
		return `\uE000${strings.length - 1}\uE000`;
	});
	return { text: replaced, strings };
}

/** The segments of a reference: `lines[0].name` → lines, 0, name; `a["b c"]` → a, b c. */
function segments(reference: string, strings: string[]): string[] {
	const parts: string[] = [];
	for (const match of reference.matchAll(/[A-Za-z_][\w-]*|\[\s*([^\]]+?)\s*\]/g)) {
		if (match[1] === undefined) parts.push(match[0]);
		else {
			const inner = match[1];
			const literal = /^\uE000(\d+)\uE000$/.exec(inner);
			if (literal) parts.push(strings[Number(literal[1])]);
			else if (/^\d+$/.test(inner)) parts.push('[]');
			// A variable index (`lines[i]`) reads an item; `i` itself is read elsewhere.
			else parts.push('[]');
		}
	}
	return parts;
}

class Reader {
	private readonly found = new Map<string, LiquidVariable>();
	private readonly scopes: Array<Map<string, Binding>> = [];
	/** Block tags that open a scope, innermost last. */
	private readonly blocks: string[] = [];
	/** Per open block, the paths its condition reads: printed inside, they are optional. */
	private readonly guards: string[][] = [];
	/** The root paths the expression being read reads. */
	private reads: string[] = [];

	constructor(private readonly made: Set<string>) {}

	variables(): LiquidVariable[] {
		return [...this.found.values()];
	}

	private variable(path: string): LiquidVariable {
		let entry = this.found.get(path);
		if (!entry) {
			entry = { path, collection: false, itemFields: [], printed: false, defaulted: false };
			this.found.set(path, entry);
		}
		return entry;
	}

	private binding(name: string): Binding | undefined {
		for (let i = this.scopes.length - 1; i >= 0; i--) {
			const found = this.scopes[i].get(name);
			if (found) return found;
		}
		return undefined;
	}

	/**
	 * Takes in one reference. Answers the collection and item prefix it points into when it
	 * is a loop's item (for a nested loop's binding), or its root path.
	 */
	private reference(parts: string[], how: { printed?: boolean; defaulted?: boolean }): Binding {
		const [root, ...rest] = parts;
		if (root === undefined || LOOP_OBJECTS.has(root) || this.made.has(root)) return { prefix: [] };
		let tail = rest;
		let list = false;
		while (
			tail.length &&
			(PROPERTIES.has(tail[tail.length - 1]) || tail[tail.length - 1] === '[]')
		) {
			if (LIST_PROPERTIES.has(tail[tail.length - 1]) || tail[tail.length - 1] === '[]') list = true;
			tail = tail.slice(0, -1);
		}
		const local = this.binding(root);
		if (local) {
			const within = [...local.prefix, ...tail.filter((p) => p !== '[]')];
			if (local.collection && within.length) {
				const field = within.join('.');
				const entry = this.variable(local.collection);
				if (!entry.itemFields.includes(field)) entry.itemFields.push(field);
			}
			return { collection: local.collection, prefix: within };
		}
		// `lines[0].name`: the list `lines`, whose items have a `name`.
		const index = tail.indexOf('[]');
		const path = [root, ...(index >= 0 ? tail.slice(0, index) : tail)].join('.');
		const entry = this.variable(path);
		this.reads.push(path);
		// A value printed only where a condition on it holds (`{% if vat %}{{ vat }}`) is optional.
		if (how.printed && this.guards.some((guard) => guard.includes(path))) {
			how = { defaulted: true };
		}
		if (index >= 0 || (list && !tail.length)) {
			entry.collection = true;
			const field = tail
				.slice(index + 1)
				.filter((p) => p !== '[]')
				.join('.');
			if (index >= 0 && field && !entry.itemFields.includes(field)) entry.itemFields.push(field);
		} else if (list) entry.collection = true;
		if (how.printed) entry.printed = true;
		if (how.defaulted) entry.defaulted = true;
		return { collection: path, prefix: [] };
	}

	/** Every reference in an expression (filters' names and argument names left out). */
	expression(source: string, how: { printed?: boolean } = {}): Binding | undefined {
		const { text, strings } = withoutStrings(source);
		const [head, ...filters] = text.split('|');
		const defaulted = filters.some((f) => /^\s*default\b/.test(f));
		let first: Binding | undefined;
		const scan = (part: string, printed: boolean) => {
			// Named arguments (`key: value`) and filter names are not variables.
			const cleaned = part.replace(/[A-Za-z_][\w-]*\s*:/g, ' ');
			for (const match of cleaned.matchAll(REFERENCE)) {
				const before = cleaned.slice(0, match.index).trimEnd();
				if (before.endsWith('.')) continue;
				const parts = segments(match[0], strings);
				if (parts.length === 1 && WORDS.has(parts[0])) continue;
				const found = this.reference(parts, {
					printed: printed && !defaulted,
					defaulted: printed && defaulted,
				});
				first ??= found;
			}
		};
		scan(head, !!how.printed);
		for (const filter of filters) scan(filter.replace(/^\s*[A-Za-z_][\w-]*/, ''), false);
		return first;
	}

	tag(source: string): void {
		const trimmed = source.trim();
		const name = /^[A-Za-z_#]\w*/.exec(trimmed)?.[0] ?? '';
		const rest = trimmed.slice(name.length);
		switch (name) {
			case 'if':
			case 'elsif':
			case 'unless':
			case 'case':
			case 'when':
			case 'cycle': {
				this.reads = [];
				this.expression(rest.replace(/==|!=|<>|<=|>=|<|>|,/g, ' '));
				if (name === 'if' || name === 'unless' || name === 'case') this.open(name, this.reads);
				else if (name === 'elsif') this.guards[this.guards.length - 1]?.push(...this.reads);
				return;
			}
			case 'echo':
				this.expression(rest, { printed: true });
				return;
			case 'assign':
				this.expression(rest.replace(/^\s*[\w-]+\s*=/, ''));
				return;
			case 'for':
			case 'tablerow': {
				const loop = /^\s*([\w-]+)\s+in\s+([\s\S]*)$/.exec(rest);
				this.open(name);
				if (!loop) return;
				const range = /^\s*\(([\s\S]*?)\.\.([\s\S]*?)\)/.exec(loop[2]);
				let binding: Binding = { prefix: [] };
				if (range) {
					this.expression(`${range[1]} ${range[2]}`);
					this.expression(loop[2].slice(range[0].length));
				} else {
					const [collection, ...options] = loop[2].trim().split(/\s+/);
					const found = this.expression(collection);
					if (found?.collection) {
						binding = found;
						if (!found.prefix.length) this.variable(found.collection).collection = true;
					}
					this.expression(options.join(' '));
				}
				this.scopes[this.scopes.length - 1].set(loop[1], binding);
				return;
			}
			case 'include':
			case 'render': {
				// `render 'name', key: value` / `with expr` / `for expr as x`: the values are read.
				const args = rest.replace(/^\s*("[^"]*"|'[^']*'|[\w./-]+)\s*,?/, '');
				this.expression(args.replace(/\bas\s+[\w-]+/, ''));
				return;
			}
			case 'liquid':
				for (const line of rest.split('\n')) if (line.trim()) this.tag(line);
				return;
			case 'capture':
			case 'comment':
			case 'raw':
				this.open(name);
				return;
			default:
				if (name.startsWith('end')) this.close(name.slice(3));
		}
	}

	private open(block: string, guard: string[] = []): void {
		this.blocks.push(block);
		this.scopes.push(new Map());
		this.guards.push(block === 'if' ? [...guard] : []);
	}

	private close(block: string): void {
		const at = this.blocks.lastIndexOf(block);
		if (at < 0) return;
		this.blocks.length = at;
		this.scopes.length = at;
		this.guards.length = at;
	}

	/** Whether text inside the current block is not Liquid (comment, raw). */
	skipping(): boolean {
		return this.blocks.includes('comment') || this.blocks.includes('raw');
	}
}

/** Names the template makes itself (`assign`, `capture`, `increment`, `decrement`). */
function madeNames(body: string): Set<string> {
	const names = new Set<string>();
	const made = /(?:^|\n)\s*(?:assign|capture|increment|decrement)\s+([A-Za-z_][\w-]*)/g;
	for (const [, , tag] of body.matchAll(TOKEN))
		if (tag !== undefined) for (const match of tag.matchAll(made)) names.add(match[1]);
	return names;
}

/** The variables a template body reads, in the order they first appear. */
export function variablesOf(body: string): LiquidVariable[] {
	const reader = new Reader(madeNames(body));
	for (const match of body.matchAll(TOKEN)) {
		const [, output, tag] = match;
		if (reader.skipping()) {
			if (tag !== undefined && /^\s*end(comment|raw)\b/.test(tag)) reader.tag(tag);
			continue;
		}
		if (output !== undefined) reader.expression(output, { printed: true });
		else if (tag !== undefined && !tag.trim().startsWith('#')) reader.tag(tag);
	}
	return reader.variables();
}
