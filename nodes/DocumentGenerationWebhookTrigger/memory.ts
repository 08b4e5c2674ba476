/**
 * Bounded memories of this n8n process, for the deliveries a trigger has seen. Pure (the
 * clock is passed in). n8n does not keep the static data a webhook function changes when it
 * starts a run (see docs/ARCHITECTURE.md), so what a delivery must leave for the next one
 * lives here: a restart forgets it, and across processes Remove Duplicates on `deliveryId`
 * stays the recipe.
 */

/**
 * At most `max` entries, each forgotten `ttlMs` after it was last set; past `max` the entry
 * set longest ago goes first. Every operation is O(1) but `set`, which evicts in order.
 */
export class Recent<V> {
	private readonly entries = new Map<string, { value: V; until: number }>();

	constructor(
		private readonly max: number,
		private readonly ttlMs: number,
	) {}

	get(key: string, nowMs: number): V | undefined {
		const entry = this.entries.get(key);
		if (!entry) return undefined;
		if (entry.until > nowMs) return entry.value;
		this.entries.delete(key);
		return undefined;
	}

	set(key: string, value: V, nowMs: number): void {
		this.entries.delete(key);
		this.entries.set(key, { value, until: nowMs + this.ttlMs });
		for (const [oldest, entry] of this.entries) {
			if (this.entries.size <= this.max && entry.until > nowMs) break;
			this.entries.delete(oldest);
		}
	}

	delete(key: string): void {
		this.entries.delete(key);
	}

	get size(): number {
		return this.entries.size;
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
