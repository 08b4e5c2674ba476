/** Small readings of HTTP answers and of the calling context, used inside the transport. */
import type { IExecuteFunctions } from 'n8n-workflow';

import type { TransportContext } from '../types';

/** A header of an answer by its lower-case name, whatever the case it came in. */
export function headerValue(headers: unknown, name: string): unknown {
	if (!headers || typeof headers !== 'object') return undefined;
	const record = headers as Record<string, unknown>;
	if (name in record) return record[name];
	const key = Object.keys(record).find((k) => k.toLowerCase() === name);
	return key === undefined ? undefined : record[key];
}

/** A body still streaming (a download) is dropped when its answer is not used. */
export function discardBody(body: unknown): void {
	const stream = body as { destroy?: unknown; pipe?: unknown } | null | undefined;
	if (stream && typeof stream.destroy === 'function' && typeof stream.pipe === 'function')
		(stream.destroy as () => void).call(stream);
}

/** The execution's cancel signal, when the context has one. */
export function cancelSignal(ctx: TransportContext): AbortSignal | undefined {
	const fn = (ctx as Partial<IExecuteFunctions>).getExecutionCancelSignal;
	return typeof fn === 'function' ? fn.call(ctx) : undefined;
}
