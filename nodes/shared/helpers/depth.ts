/** How deep outside data nests, measured without recursion. Pure. */

/**
 * Deepest nesting of objects and lists accepted in payload, meta and sample data. Real
 * document data has a few levels; far deeper data cannot even be turned into the request's
 * JSON (JavaScript's own serializer fails on it), so it is refused before anything is sent.
 */
export const MAX_JSON_DEPTH = 1000;

/**
 * How deep objects and lists nest in a value (a scalar is 0), walked with an explicit stack
 * (no recursion, so any depth is measured); stops as soon as it passes `limit`.
 */
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
