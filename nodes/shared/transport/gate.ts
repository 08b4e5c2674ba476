/**
 * Where requests wait for their pace: one gate per execution (n8n context) and host, shared
 * by every request made in it (all items, creates, polls, file downloads, template calls).
 * Requests start in the order they asked, a retry of a refused one first; the timing is the
 * pure `Pace`'s. When the service asks for a wait longer than the execution allows, every
 * request waiting for it is refused at once with `LimitWaitTooLong`.
 */
import { sleep } from 'n8n-workflow';

import { CONCURRENCY } from '../helpers/items';
import { WAKE_SPREAD } from './fleet';
import type { LimitReading } from './limitHeaders';
import type { PaceStats } from './pace';
import { Pace } from './pace';

/** How long one wait the service asks for may be, unless the node says otherwise. */
export const DEFAULT_MAX_LIMIT_WAIT_MS = 120_000;

/** What the caller may wait for the limit, and what to say when the service asks more. */
export interface LimitSettings {
	maxWaitMs: number;
	/** Where the user changes it, e.g. "Options → Max Wait for Rate Limit". */
	option?: string;
	/** What to do instead, where there is no option (a trigger). */
	advice?: string;
}

/** The service asked for a wait longer than `LimitSettings.maxWaitMs`. */
export class LimitWaitTooLong extends Error {
	constructor(readonly askedMs: number) {
		super(`The service asked to wait ${askedMs} ms`);
	}
}

/** What an answer says of the limit: its Retry-After (ms), limit headers and `Date` (ms). */
export interface LimitAnswer {
	retryAfterMs?: number;
	reading?: LimitReading;
	serverNow?: number;
}

/** A wait that ended because the execution was cancelled. */
export class GateCancelled extends Error {}

interface Waiter {
	resolve: (startedAt: number) => void;
	reject: (error: Error) => void;
}

export class Gate {
	/** Paces of other processes or executions may share the account: their wakes are spread. */
	readonly pace = new Pace(CONCURRENCY, Math.random, WAKE_SPREAD);

	private readonly queue: Waiter[] = [];

	private sleeping = false;

	constructor(readonly settings: LimitSettings) {}

	/** Waits for this request's turn; answers the instant it started. */
	async take(signal?: AbortSignal, first = false): Promise<number> {
		if (signal?.aborted) throw new GateCancelled();
		return await new Promise<number>((resolve, reject) => {
			const onAbort = () => {
				const at = this.queue.indexOf(waiter);
				if (at >= 0) this.queue.splice(at, 1);
				reject(new GateCancelled());
			};
			const waiter: Waiter = {
				resolve: (startedAt) => {
					signal?.removeEventListener('abort', onAbort);
					resolve(startedAt);
				},
				reject: (error) => {
					signal?.removeEventListener('abort', onAbort);
					reject(error);
				},
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			if (first) this.queue.unshift(waiter);
			else this.queue.push(waiter);
			this.pump();
		});
	}

	/**
	 * The request that started at `startedAt` ended (see `Pace.finish`); `answer`: what its
	 * answer said of the limit, and the service's clock (its `Date`, when it had one).
	 */
	done(startedAt: number, status?: number, answer: LimitAnswer = {}): void {
		const now = Date.now();
		if (answer.serverNow !== undefined) this.pace.clock.heard(now, answer.serverNow);
		this.pace.finish(now, startedAt, status, answer.retryAfterMs, answer.reading);
		this.pump();
	}

	report(): PaceStats {
		return this.pace.report(Date.now());
	}

	private pump(): void {
		while (this.queue.length) {
			const now = Date.now();
			const asked = this.pace.askedWait(now);
			if (asked && asked.left > this.settings.maxWaitMs) {
				for (const waiter of this.queue.splice(0)) waiter.reject(new LimitWaitTooLong(asked.asked));
				return;
			}
			const wait = this.pace.readyIn(now);
			if (wait === Infinity) return; // an answer will call again
			if (wait > 0) {
				if (this.sleeping) return;
				this.sleeping = true;
				// In slices, so a later answer or a cancellation is seen soon.
				void sleep(Math.min(wait, 1000)).then(() => {
					this.sleeping = false;
					this.pump();
				});
				return;
			}
			this.pace.start(now);
			this.queue.shift()!.resolve(now);
		}
	}
}

const gates = new WeakMap<object, Map<string, Gate>>();
const settingsOf = new WeakMap<object, LimitSettings>();

/** The gate of this execution for `host` ('api', or a file host's origin). */
export function gateFor(ctx: object, host: string): Gate {
	let byHost = gates.get(ctx);
	if (!byHost) gates.set(ctx, (byHost = new Map()));
	let gate = byHost.get(host);
	if (!gate) {
		gate = new Gate({ ...(settingsOf.get(ctx) ?? { maxWaitMs: DEFAULT_MAX_LIMIT_WAIT_MS }) });
		byHost.set(host, gate);
	}
	return gate;
}

/** Sets how long this execution's requests may wait for the limit (before its first request). */
export function limitRequestsTo(ctx: object, settings: LimitSettings): void {
	settingsOf.set(ctx, settings);
	for (const gate of gates.get(ctx)?.values() ?? []) Object.assign(gate.settings, settings);
}

/** Time this execution's API requests were held by the limit so far (ms). */
export function heldByLimit(ctx: object): number {
	return gateFor(ctx, 'api').pace.heldMs(Date.now());
}

/** What the limit did to this execution's API requests. */
export function limitReport(ctx: object): PaceStats {
	return gateFor(ctx, 'api').report();
}
