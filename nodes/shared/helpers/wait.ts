/** Waiting inside a node without holding up a cancelled execution. */
import { sleep } from 'n8n-workflow';

/**
 * Waits `ms` in slices of at most a second, so a cancelled execution stops waiting soon.
 * Resolves early (without throwing) when the signal aborts; callers check the signal.
 */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
	const until = Date.now() + ms;
	while (!signal?.aborted) {
		const left = until - Date.now();
		if (left <= 0) return;
		await sleep(Math.min(left, 1000));
	}
}
