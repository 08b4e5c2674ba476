/**
 * One HTTP exchange with the service or the file host: attempts (`attempt.ts`: n8n's HTTP
 * helpers underneath, each waiting its turn at the execution's gate) repeated with backoff
 * that never repeats a write the service may have acted on, and cancellation.
 */
import type { IDataObject } from 'n8n-workflow';

import { pause } from '../helpers/wait';
import type { TransportContext } from '../types';
import { apiError, cancelledError } from './apiErrors';
import type { Attempted } from './attempt';
import { attemptOnce } from './attempt';
import type { Exchange, RawResponse } from './calls';
import { DEFAULT_TIMEOUT_MS } from './calls';
import type { Gate } from './limit';
import { gateFor } from './limit';
import type { Attempts } from './messages';
import { describeNetworkError, safeDetail } from './messages';
import type { Outcome, RetryPolicy } from './retry';
import {
	DEFAULT_RETRY_POLICY,
	MAX_TIMED_OUT_ATTEMPTS,
	isIdempotent,
	isSafe,
	mayHaveActed,
	nextDelay,
	shouldRetry,
} from './retry';
import { cancelSignal, discardBody } from './wire';

export interface Exchanged {
	response: RawResponse;
	/** Attempts made, time spent, and the last Retry-After, for error descriptions. */
	attempts: Attempts;
	/** Whether an earlier attempt may have been acted on (a write answered 5xx or cut off). */
	actedBefore: boolean;
	/**
	 * Whether the service may have carried out this write although it did not say so: a
	 * non-idempotent request answered 5xx, or an earlier attempt of it was. (A write cut off
	 * without an answer throws an error that says the same, see `isOutcomeUnknown`.)
	 */
	outcomeUnknown: boolean;
}

/** Answers of 429 one request takes before it gives up (each waited for, see `Pace`). */
export const MAX_LIMITED_ANSWERS = 30;

/** What one exchange keeps across its attempts. */
interface Run {
	method: string;
	policy: RetryPolicy;
	startedAt: number;
	signal?: AbortSignal;
	gate: Gate;
	/** Whether an earlier attempt may have been acted on (a write answered 5xx or cut off). */
	actedBefore: boolean;
	/** Time that does not count against the retry budget: waits for the limit, timeouts. */
	excludedMs: number;
	timeouts: number;
	failures: number;
	limited: number;
}

/** After an attempt: the exchange's result, the same request again at once, or after a wait. */
type Step = { exchanged: Exchanged } | { again: true } | { delay: number };

function gateHost(call: Exchange): string {
	if (call.to === 'api') return 'api';
	try {
		return new URL(call.http.url ?? '').origin;
	} catch {
		return 'files';
	}
}

function startRun(ctx: TransportContext, call: Exchange): Run {
	return {
		method: (call.http.method ?? 'GET').toUpperCase(),
		policy: { ...DEFAULT_RETRY_POLICY, ...call.retry },
		startedAt: Date.now(),
		signal: cancelSignal(ctx),
		gate: gateFor(ctx, gateHost(call)),
		actedBefore: false,
		excludedMs: 0,
		timeouts: 0,
		failures: 0,
		limited: 0,
	};
}

/**
 * A write that was sent and got no clear answer may have been carried out: the one rule
 * behind `isOutcomeUnknown`, for answers and for cut-off requests alike.
 */
function writeMayHaveActed(run: Run, outcome: Outcome): boolean {
	return !isIdempotent(run.method) && (run.actedBefore || mayHaveActed(outcome));
}

function finished(run: Run, tried: Attempted, attempts: Attempts): Step {
	const response = tried.response!;
	return {
		exchanged: {
			response: {
				statusCode: response.statusCode,
				headers: (response.headers ?? {}) as IDataObject,
				body: response.body,
			},
			attempts,
			actedBefore: run.actedBefore,
			outcomeUnknown: writeMayHaveActed(run, tried.outcome),
		},
	};
}

/** The wait before trying again, or undefined when the policy allows no more attempts. */
function retryDelay(run: Run, tried: Attempted, attempts: Attempts): number | undefined {
	if (!shouldRetry(run.method, tried.outcome) || run.timeouts >= MAX_TIMED_OUT_ATTEMPTS)
		return undefined;
	const budgetFrom = run.startedAt + run.excludedMs;
	const { retryAfter } = tried;
	attempts.retryAfterMs = retryAfter;
	const delay = nextDelay(run.failures, run.policy, {
		startedAt: budgetFrom,
		now: Date.now(),
		retryAfterMs: retryAfter,
	});
	attempts.retryAfterTooLong =
		delay === undefined &&
		retryAfter !== undefined &&
		run.failures + 1 < run.policy.maxAttempts &&
		nextDelay(run.failures, run.policy, { startedAt: budgetFrom, now: Date.now() }) !== undefined;
	return delay;
}

/** The error of a request that got no answer, once retries are over or not allowed. */
function noAnswerError(
	ctx: TransportContext,
	call: Exchange,
	run: Run,
	tried: Attempted,
	attempts: Attempts,
) {
	const failure = tried.failure!;
	const text = describeNetworkError(
		failure.code,
		call.what,
		call.http.timeout ?? DEFAULT_TIMEOUT_MS,
		attempts,
		safeDetail(failure.detail, call.secret),
	);
	return apiError(ctx, text, call.secret, {
		itemIndex: call.itemIndex,
		outcomeUnknown: writeMayHaveActed(run, tried.outcome),
	});
}

/**
 * What follows an attempt. A 429 was refused before it was processed: any method may go
 * again once the hold is over (the gate now holds every request, this one first; a wait
 * longer than the run accepts makes it refuse them all at once). Other failures are retried
 * by the policy; an answer that may not be retried is the result, a failure without one throws.
 */
function nextStep(
	ctx: TransportContext,
	call: Exchange,
	run: Run,
	tried: Attempted,
	attempts: Attempts,
): Step {
	const { response } = tried;
	if (response && response.statusCode < 400) return finished(run, tried, attempts);
	if (response?.statusCode === 429) {
		run.limited++;
		attempts.retryAfterMs = tried.retryAfter;
		if (run.limited >= MAX_LIMITED_ANSWERS) return finished(run, tried, attempts);
		discardBody(response.body);
		ctx.logger?.debug?.(
			`Document Generation: ${call.what}: answered 429, held with every request of this execution`,
		);
		return { again: true };
	}
	if (response && !shouldRetry(run.method, tried.outcome)) return finished(run, tried, attempts);
	const delay = retryDelay(run, tried, attempts);
	if (delay !== undefined) return { delay };
	if (response) return finished(run, tried, attempts);
	throw noAnswerError(ctx, call, run, tried, attempts);
}

/** Counts a failed attempt and waits before the next one. */
async function waitToRetry(
	ctx: TransportContext,
	call: Exchange,
	run: Run,
	tried: Attempted,
	delay: number,
): Promise<void> {
	run.failures++;
	if (tried.response) discardBody(tried.response.body);
	if (!isSafe(run.method) && mayHaveActed(tried.outcome)) run.actedBefore = true;
	const why = tried.response ? tried.response.statusCode : tried.failure!.code;
	ctx.logger?.debug?.(
		`Document Generation: ${call.what}: attempt ${run.failures} failed (${why}), retrying in ${delay} ms`,
	);
	await pause(delay, run.signal);
}

/**
 * One HTTP exchange with retries. Answers with any status are returned (the caller decides);
 * requests that get no answer throw a NodeApiError once retries are over or not allowed.
 *
 * Every attempt waits for its turn at the execution's gate (`gate.ts`): a 429 holds every
 * request of the execution, and is tried again when the hold ends, without counting against
 * the attempts or the time budget of the retry policy (which are for failures); only a wait
 * longer than the execution allows ends it. The loop is bounded by the policy's attempts,
 * MAX_TIMED_OUT_ATTEMPTS and MAX_LIMITED_ANSWERS.
 */
export async function exchange(ctx: TransportContext, call: Exchange): Promise<Exchanged> {
	const run = startRun(ctx, call);
	for (;;) {
		if (run.signal?.aborted) throw cancelledError(ctx, call.what, call.secret, call.itemIndex);
		const tried = await attemptOnce(ctx, call, {
			gate: run.gate,
			signal: run.signal,
			afterLimit: run.limited > 0,
		});
		run.excludedMs += tried.excludedMs;
		if (tried.timedOut) run.timeouts++;
		const attempts: Attempts = {
			method: run.method,
			attempts: run.failures + run.limited + 1,
			elapsedMs: Date.now() - run.startedAt,
		};
		const step = nextStep(ctx, call, run, tried, attempts);
		if ('exchanged' in step) return step.exchanged;
		if ('delay' in step) await waitToRetry(ctx, call, run, tried, step.delay);
	}
}
