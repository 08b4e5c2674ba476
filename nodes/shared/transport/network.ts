/** What a failed request's error says about the network: its code and its own words. Pure. */

/** What one level of an error chain may carry. */
interface ErrorLevel {
	code?: unknown;
	httpCode?: unknown;
	message?: unknown;
	messages?: unknown[];
	name?: unknown;
}

const CODE = /^(E[A-Z0-9_]{2,}|ERR_[A-Z0-9_]+|UND_ERR_[A-Z_]+)$/;

/**
 * The network error code of a failed request, and the innermost error's own text. n8n wraps
 * the axios error in a NodeApiError whose message it rewrites (e.g. "The connection was
 * aborted, perhaps the server is offline" for a timeout), so the chain of causes is searched
 * for a real code first, and messages only as a fallback.
 */
export function networkFailure(error: unknown): { code: string; detail: string | undefined } {
	const chain: ErrorLevel[] = [];
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (current && typeof current === 'object' && !seen.has(current) && chain.length < 10) {
		seen.add(current);
		chain.push(current as ErrorLevel);
		current = (current as { cause?: unknown }).cause;
	}
	const innermost = chain[chain.length - 1];
	const detail = typeof innermost?.message === 'string' ? innermost.message : undefined;
	for (const level of chain) {
		// n8n 2.x keeps the axios error as the cause, with its `code`; n8n 1.x keeps no cause
		// and puts the code into the wrapper's `httpCode` (and the original text into `messages`).
		for (const code of [level.code, level.httpCode]) {
			if (typeof code === 'string' && CODE.test(code)) return { code, detail };
		}
		if (level.name === 'CanceledError') return { code: 'ERR_CANCELED', detail };
	}
	const texts = chain
		.slice(1)
		.concat(chain.slice(0, 1))
		.flatMap((level) => [level.message, ...(Array.isArray(level.messages) ? level.messages : [])]);
	for (const text of texts) {
		if (typeof text !== 'string') continue;
		if (/timeout of \d+ms exceeded/i.test(text)) return { code: 'ECONNABORTED', detail };
		if (/socket hang up/i.test(text)) return { code: 'ECONNRESET', detail };
		// One quantifier that can give back (so linear), over a bounded piece of the text.
		const m = /\b(E[A-Z]{3}[A-Z_]*)\b/.exec(text.slice(0, 2000));
		if (m && m[1] !== 'ERROR') return { code: m[1], detail };
	}
	return { code: 'EUNKNOWN', detail };
}
