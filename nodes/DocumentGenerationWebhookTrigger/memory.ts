/**
 * Bounded memories of this n8n process, for the deliveries a trigger has seen. Pure (the
 * clock is passed in). n8n does not keep the static data a webhook function changes when it
 * starts a run (see docs/ARCHITECTURE.md), so what a delivery must leave for the next one
 * lives here: a restart forgets it, and across processes Remove Duplicates on `deliveryId`
 * stays the recipe.
 */

/**
 * At most `max` entries, each forgotten `ttlMs` after it was last set, or once `max / 2` newer
 * entries were set since (two generations: when the young one is full, it becomes the old one
 * and the old one is dropped). Every operation is O(1), whatever was set or deleted before.
 */
export class Recent<V> {
	private young = new Map<string, { value: V; until: number }>();
	private old = new Map<string, { value: V; until: number }>();

	constructor(
		private readonly max: number,
		private readonly ttlMs: number,
	) {}

	get(key: string, nowMs: number): V | undefined {
		const entry = this.young.get(key) ?? this.old.get(key);
		return entry && entry.until > nowMs ? entry.value : undefined;
	}

	set(key: string, value: V, nowMs: number): void {
		this.old.delete(key);
		this.young.set(key, { value, until: nowMs + this.ttlMs });
		if (this.young.size >= Math.ceil(this.max / 2)) {
			this.old = this.young;
			this.young = new Map();
		}
	}

	delete(key: string): void {
		this.young.delete(key);
		this.old.delete(key);
	}

	/** Entries held (expired ones included until their generation is dropped). */
	get size(): number {
		return this.young.size + this.old.size;
	}
}

/**
 * At most `max` events per sliding `windowMs`: `take` answers whether one more may happen
 * now, and counts it when it may. Memory: `max` timestamps.
 */
export class Budget {
	private readonly times: number[] = [];

	constructor(
		private readonly max: number,
		private readonly windowMs: number,
	) {}

	take(nowMs: number): boolean {
		while (this.times.length && this.times[0] <= nowMs - this.windowMs) this.times.shift();
		if (this.times.length >= this.max) return false;
		this.times.push(nowMs);
		return true;
	}
}
