// The variables a Liquid body reads from its data, and the bounds of Template Fields.
import {
	eachReference,
	loopRange,
	namesMadeIn,
	tokens,
	withoutNamedArguments,
	withoutStrings,
} from './liquidScanner';

/** How much of a template Template Fields reads, in the editor and at run time. */
export const TEMPLATE_BOUNDS = {
	/** In characters; the sample data as JSON text. */
	bodyChars: 512 * 1024,
	sampleChars: 512 * 1024,
	/** Fields of one template, and item fields of one list. */
	fields: 2000,
	/** Parts of one field's path (`a.b.c` has 3), and levels of nesting in the sample data. */
	depth: 32,
} as const;

/** A template beyond a bound; `reason` says which, in the editor notice's words. */
export class TemplateTooLarge extends Error {
	constructor(readonly reason: string) {
		super(`The template's fields cannot be listed: ${reason}`);
		this.name = 'TemplateTooLarge';
	}
}

const kilobytes = (chars: number) => `${Math.ceil(chars / 1024).toLocaleString('en-US')} KB`;

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

export interface LiquidVariable {
	/** The dotted path from the data's root, e.g. `customer.name`. */
	path: string;
	/** A loop runs over it, or it is read as a list. */
	collection: boolean;
	/** What the template reads of each item of the collection. */
	itemFields: string[];
	/** Printed (`{{ }}`, `echo`) at least once without a `default` filter. */
	printed: boolean;
	defaulted: boolean;
}

/** A loop variable: the collection it walks (a root path) and where in an item it points. */
interface Binding {
	collection?: string;
	prefix: string[];
}

function pushAt<V>(map: Map<string, V[]>, key: string, value: V): void {
	const list = map.get(key);
	if (list) list.push(value);
	else map.set(key, [value]);
}

/** One open block tag, the loop variables it set and the paths its condition reads. */
interface OpenBlock {
	name: string;
	names?: string[];
	guard?: string[];
}

/** Open block tags and their scopes, every look-up in constant time. */
class Blocks {
	private readonly open: OpenBlock[] = [];
	/** Where each block name is open (indexes into `open`), and each loop variable's bindings. */
	private readonly where = new Map<string, number[]>();
	private readonly bindings = new Map<string, Binding[]>();
	/** How many open conditions read a path: printed inside, it is optional. */
	private readonly guarded = new Map<string, number>();

	push(name: string, guard: string[]): void {
		pushAt(this.where, name, this.open.length);
		this.open.push({ name });
		this.guard(guard);
	}

	/** Adds paths to the innermost block's condition (`elsif`). */
	guard(paths: string[]): void {
		const top = this.open[this.open.length - 1];
		if (!top || !paths.length) return;
		top.guard ??= [];
		for (const path of paths) {
			top.guard.push(path);
			this.guarded.set(path, (this.guarded.get(path) ?? 0) + 1);
		}
	}

	/** Closes the innermost open block of this name, and every block opened inside it. */
	close(name: string): void {
		const at = this.where.get(name)?.at(-1);
		if (at === undefined) return;
		while (this.open.length > at) {
			const block = this.open.pop() as OpenBlock;
			this.where.get(block.name)?.pop();
			for (const bound of block.names ?? []) this.bindings.get(bound)?.pop();
			for (const path of block.guard ?? [])
				this.guarded.set(path, (this.guarded.get(path) as number) - 1);
		}
	}

	bind(name: string, binding: Binding): void {
		const top = this.open[this.open.length - 1];
		if (!top) return;
		(top.names ??= []).push(name);
		pushAt(this.bindings, name, binding);
	}

	binding(name: string): Binding | undefined {
		return this.bindings.get(name)?.at(-1);
	}

	isGuarded(path: string): boolean {
		return (this.guarded.get(path) ?? 0) > 0;
	}

	isOpen(name: string): boolean {
		return (this.where.get(name)?.length ?? 0) > 0;
	}
}

/** The variables found so far, each item field once. */
class Variables {
	private readonly found = new Map<string, LiquidVariable>();
	private readonly itemFieldSets = new Map<string, Set<string>>();

	list(): LiquidVariable[] {
		return [...this.found.values()];
	}

	get(path: string): LiquidVariable {
		let entry = this.found.get(path);
		if (!entry) {
			if (this.found.size >= TEMPLATE_BOUNDS.fields) throw tooManyFields('the template reads');
			entry = { path, collection: false, itemFields: [], printed: false, defaulted: false };
			this.found.set(path, entry);
		}
		return entry;
	}

	addItemField(path: string, field: string): void {
		const entry = this.get(path);
		let fields = this.itemFieldSets.get(path);
		if (!fields) this.itemFieldSets.set(path, (fields = new Set()));
		if (fields.has(field)) return;
		if (fields.size >= TEMPLATE_BOUNDS.fields) throw tooManyFields(`the list "${path}" has`);
		fields.add(field);
		entry.itemFields.push(field);
	}
}

function checkDepth(parts: string[]): void {
	if (parts.length > TEMPLATE_BOUNDS.depth) throw tooDeep(parts.slice(0, 8).join('.'));
}

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

/** A reference's tail without trailing list properties and indexes, and whether one said list. */
function withoutListTail(rest: string[]): { tail: string[]; list: boolean } {
	let end = rest.length;
	let list = false;
	while (end && (PROPERTIES.has(rest[end - 1]) || rest[end - 1] === '[]')) {
		if (LIST_PROPERTIES.has(rest[end - 1]) || rest[end - 1] === '[]') list = true;
		end--;
	}
	return { tail: rest.slice(0, end), list };
}

class Reader {
	private readonly variables = new Variables();
	private readonly blocks = new Blocks();
	/** The root paths the condition being read reads; undefined outside a condition. */
	private reads: string[] | undefined;

	constructor(private readonly made: Set<string>) {}

	list(): LiquidVariable[] {
		return this.variables.list();
	}

	/** Records one reference; answers the collection and item prefix it points into. */
	private reference(parts: string[], how: { printed?: boolean; defaulted?: boolean }): Binding {
		const [root, ...rest] = parts;
		if (root === undefined || LOOP_OBJECTS.has(root) || this.made.has(root)) return { prefix: [] };
		checkDepth(parts);
		const { tail, list } = withoutListTail(rest);
		const local = this.blocks.binding(root);
		if (local) {
			const within = [...local.prefix, ...tail.filter((p) => p !== '[]')];
			checkDepth(within);
			if (local.collection && within.length)
				this.variables.addItemField(local.collection, within.join('.'));
			return { collection: local.collection, prefix: within };
		}
		// `lines[0].name`: the list `lines`, whose items have a `name`.
		const index = tail.indexOf('[]');
		const path = [root, ...(index >= 0 ? tail.slice(0, index) : tail)].join('.');
		const entry = this.variables.get(path);
		this.reads?.push(path);
		// A value printed only where a condition on it holds (`{% if vat %}{{ vat }}`) is optional.
		if (how.printed && this.blocks.isGuarded(path)) how = { defaulted: true };
		if (index >= 0 || (list && !tail.length)) {
			entry.collection = true;
			const field = tail
				.slice(index + 1)
				.filter((p) => p !== '[]')
				.join('.');
			if (index >= 0 && field) this.variables.addItemField(path, field);
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
			const how = { printed: printed && !defaulted, defaulted: printed && defaulted };
			eachReference(withoutNamedArguments(part), strings, (parts) => {
				if (parts.length === 1 && WORDS.has(parts[0])) return;
				const found = this.reference(parts, how);
				first ??= found;
			});
		};
		scan(head, !!how.printed);
		for (const filter of filters) scan(filter.replace(/^\s*[A-Za-z_][\w-]*/, ''), false);
		return first;
	}

	/** A `for` or `tablerow` tag's loop: its collection read, its variable bound. */
	private loop(rest: string): void {
		const loop = /^\s*([\w-]+)\s+in\s+([\s\S]*)$/.exec(rest);
		if (!loop) return;
		const range = loopRange(loop[2]);
		let binding: Binding = { prefix: [] };
		if (range) {
			this.expression(`${range.from} ${range.to}`);
			this.expression(range.rest);
		} else {
			const [collection, ...options] = loop[2].trim().split(/\s+/);
			const found = this.expression(collection);
			if (found?.collection) {
				binding = found;
				if (!found.prefix.length) this.variables.get(found.collection).collection = true;
			}
			this.expression(options.join(' '));
		}
		this.blocks.bind(loop[1], binding);
	}

	/** A tag that tests or picks: what it reads, and the block or guard it adds. */
	private condition(name: string, rest: string): void {
		const reads: string[] = [];
		this.reads = reads;
		this.expression(rest.replace(/==|!=|<>|<=|>=|<|>|,/g, ' '));
		this.reads = undefined;
		if (name === 'if' || name === 'unless' || name === 'case')
			this.blocks.push(name, name === 'if' ? reads : []);
		else if (name === 'elsif') this.blocks.guard(reads);
	}

	/** One tag's content (`{% ... %}` without its marks); `inLiquid` inside a `liquid` tag. */
	tag(source: string, inLiquid = false): void {
		const trimmed = source.trim();
		const name = /^[A-Za-z_#]\w*/.exec(trimmed)?.[0] ?? '';
		const rest = trimmed.slice(name.length);
		switch (name) {
			case 'if':
			case 'elsif':
			case 'unless':
			case 'case':
			case 'when':
			case 'cycle':
				this.condition(name, rest);
				return;
			case 'echo':
				this.expression(rest, { printed: true });
				return;
			case 'assign':
				this.expression(rest.replace(/^\s*[\w-]+\s*=/, ''));
				return;
			case 'for':
			case 'tablerow':
				this.blocks.push(name, []);
				this.loop(rest);
				return;
			case 'include':
			case 'render': {
				// `render 'name', key: value` / `with expr` / `for expr as x`: the values are read.
				const args = rest.replace(/^\s*("[^"]*"|'[^']*'|[\w./-]+)\s*,?/, '');
				this.expression(args.replace(/\bas\s+[\w-]+/, ''));
				return;
			}
			case 'liquid':
				// Each line a tag; a `liquid` line inside one is not read again.
				if (!inLiquid) for (const line of rest.split('\n')) if (line.trim()) this.tag(line, true);
				return;
			case 'capture':
			case 'comment':
			case 'raw':
				this.blocks.push(name, []);
				return;
			default:
				if (name.startsWith('end')) this.blocks.close(name.slice(3));
		}
	}

	/** Whether text inside the current block is not Liquid (comment, raw). */
	skipping(): boolean {
		return this.blocks.isOpen('comment') || this.blocks.isOpen('raw');
	}
}

/** Names the template makes itself (`assign`, `capture`, `increment`, `decrement`). */
function madeNames(body: string): Set<string> {
	const names = new Set<string>();
	for (const token of tokens(body)) if (token.kind === 'tag') namesMadeIn(token.content, names);
	return names;
}

/** The variables a body reads, in order of first appearance, within `TEMPLATE_BOUNDS`. */
export function variablesOf(body: string): LiquidVariable[] {
	const reader = new Reader(madeNames(body));
	for (const { kind, content } of tokens(body)) {
		if (reader.skipping()) {
			if (kind === 'tag' && /^\s*end(comment|raw)\b/.test(content)) reader.tag(content);
			continue;
		}
		if (kind === 'output') reader.expression(content, { printed: true });
		else if (!content.trim().startsWith('#')) reader.tag(content);
	}
	return reader.list();
}
