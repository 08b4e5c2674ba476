/**
 * The state the Liquid reader keeps while it reads a body: the block tags open, the loop
 * variables they bind, the conditions around the text, and the variables found. Every look-up
 * in constant time (maps and counters, no scan of the open blocks), and no more variables,
 * item fields or path parts than `TEMPLATE_BOUNDS` allows. Pure.
 */
import { TEMPLATE_BOUNDS, tooDeep, tooManyFields } from './bounds';

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
export interface Binding {
	collection?: string;
	prefix: string[];
}

/** Pushes onto the list a map holds for a key. */
function pushAt<V>(map: Map<string, V[]>, key: string, value: V): void {
	const list = map.get(key);
	if (list) list.push(value);
	else map.set(key, [value]);
}

/** One open block tag: its name, the loop variables it set, the paths its condition reads. */
interface OpenBlock {
	name: string;
	names?: string[];
	guard?: string[];
}

/** Block tags open and their scopes, with every look-up in constant time. */
export class Blocks {
	/** Block tags that open a scope, innermost last. */
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

	/** Binds a loop variable in the innermost block. */
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
export class Variables {
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

/** Refuses a path of more parts than the bound (before anything is joined). */
export function checkDepth(parts: string[]): void {
	if (parts.length > TEMPLATE_BOUNDS.depth) throw tooDeep(parts.slice(0, 8).join('.'));
}
