/**
 * One HTTP exchange with the service or the file host: n8n's HTTP helpers underneath, each
 * attempt waiting its turn at the execution's gate (the request limit's pace), retries with
 * backoff that never repeat a write the service may have acted on, and cancellation.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { parseHttpDate } from '../helpers/dates';
import type { CallOptions, TransportContext } from '../types';
import { LimitWaitTooLong, gateFor } from './gate';
import { apiError, limitError } from './failures';
import { networkFailure } from './network';
import { parseLimitHeaders } from './pace';
import { RedirectRefused, sendWithinOrigin } from './redirects';
import type { Attempts, Secrets } from './errors';
import { describeNetworkError, safeDetail } from './errors';
import type { Outcome, RetryPolicy } from './retry';
import {
	DEFAULT_RETRY_POLICY,
	MAX_TIMED_OUT_ATTEMPTS,
	isIdempotent,
	isSafe,
	mayHaveActed,
	networkKind,
	nextDelay,
	parseRetryAfter,
	shouldRetry,
} from './retry';

export const CREDENTIAL_TYPE = 'documentGenerationApi';
/** Default of the credential's Request Timeout: how long one request may go unanswered. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Upper bound of the Request Timeout (seconds). */
export const MAX_TIMEOUT_S = 600;

export type Query = Array<[string, string | number | undefined]>;

export interface ApiRequest extends CallOptions {
	method: IHttpRequestMethods;
	/** Path under the host root, e.g. `/api/v1/documents`. */
	path: string;
	query?: Query;
	body?: IDataObject;
	/** Words for error messages: "… while trying to <what>". */
	what?: string;
	retry?: Partial<RetryPolicy>;
}

export interface RawResponse {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

function cancelSignal(ctx: TransportContext): AbortSignal | undefined {
	const fn = (ctx as Partial<IExecuteFunctions>).getExecutionCancelSignal;
	return typeof fn === 'function' ? fn.call(ctx) : undefined;
}

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

function hostOf(url: string | undefined, authenticated: boolean): string {
	if (authenticated) return 'api';
	try {
		return new URL(url ?? '').origin;
	} catch {
		return 'files';
	}
}

/** One authenticated request through n8n's helper (the credential type's own Bearer header). */
function authenticatedCall(ctx: TransportContext) {
	return async (options: IHttpRequestOptions) =>
		(await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			CREDENTIAL_TYPE,
			options,
		)) as IN8nHttpFullResponse;
}

/** A body still streaming (a download) is dropped when its answer is not used. */
export function discardBody(body: unknown): void {
	const stream = body as { destroy?: unknown; pipe?: unknown } | null | undefined;
	if (stream && typeof stream.destroy === 'function' && typeof stream.pipe === 'function')
		(stream.destroy as () => void).call(stream);
}

/**
 * One HTTP exchange with retries. Answers with any status are returned (the caller decides);
 * requests that get no answer throw a NodeApiError once retries are over or not allowed.
 *
 * Every attempt waits for its turn at the execution's gate (`gate.ts`): a 429 holds every
 * request of the execution, and is tried again when the hold ends, without counting against
 * the attempts or the time budget of the retry policy (which are for failures); only a wait
 * longer than the execution allows ends it.
 */
export async function exchange(
	ctx: TransportContext,
	options: IHttpRequestOptions,
	authenticated: boolean,
	what: string,
	secret: Secrets,
	request: Pick<ApiRequest, 'itemIndex' | 'retry'>,
): Promise<Exchanged> {
	const policy = { ...DEFAULT_RETRY_POLICY, ...request.retry };
	const method = (options.method ?? 'GET').toUpperCase();
	const startedAt = Date.now();
	const signal = cancelSignal(ctx);
	const gate = gateFor(ctx, hostOf(options.url, authenticated));
	let actedBefore = false;
	// A write that was sent and got no clear answer may have been carried out: the one rule
	// behind `isOutcomeUnknown`, for answers and for cut-off requests alike.
	const writeMayHaveActed = (outcome: Outcome) =>
		!isIdempotent(method) && (actedBefore || mayHaveActed(outcome));
	// Time that does not count against the retry budget: waits for the limit, and attempts
	// that timed out (each is already bounded by the timeout; only MAX_TIMED_OUT_ATTEMPTS of
	// them are made).
	let excludedMs = 0;
	let timeouts = 0;
	let failures = 0;
	let limited = 0;
	const cancelled = () =>
		apiError(
			ctx,
			{
				message: `The execution was cancelled while trying to ${what}`,
				description: 'Nothing more was sent.',
			},
			secret,
			{
				itemIndex: request.itemIndex,
			},
		);
	for (;;) {
		if (signal?.aborted) throw cancelled();
		const queuedAt = Date.now();
		let attemptStarted: number;
		try {
			attemptStarted = await gate.take(signal, limited > 0);
		} catch (error) {
			if (error instanceof LimitWaitTooLong)
				throw limitError(ctx, what, error.askedMs, gate.settings, secret, request.itemIndex);
			throw cancelled();
		}
		excludedMs += attemptStarted - queuedAt;
		let response: IN8nHttpFullResponse | undefined;
		let outcome: Outcome;
		let failure: { code: string; detail: string | undefined } | undefined;
		try {
			// A fresh options object per attempt: n8n writes into it (abort signal, auth headers).
			const send: IHttpRequestOptions = {
				...options,
				headers: { ...(options.headers ?? {}) },
				abortSignal: signal,
			};
			// The key goes to the API's origin only: redirects are followed here, within it.
			response = authenticated
				? await sendWithinOrigin(send, what, authenticatedCall(ctx), discardBody)
				: ((await ctx.helpers.httpRequest(send)) as IN8nHttpFullResponse);
			outcome = { kind: 'status', status: response.statusCode };
		} catch (error) {
			if (error instanceof RedirectRefused) {
				gate.done(attemptStarted, error.status);
				throw apiError(ctx, error.text, secret, {
					itemIndex: request.itemIndex,
					httpCode: String(error.status),
				});
			}
			gate.done(attemptStarted);
			failure = networkFailure(error);
			if (signal?.aborted || failure.code === 'ERR_CANCELED') throw cancelled();
			outcome = { kind: 'network', code: failure.code };
			if (networkKind(failure.code) === 'timeout') {
				timeouts++;
				excludedMs += Date.now() - attemptStarted;
			}
		}
		const retryAfter = response
			? parseRetryAfter(headerValue(response.headers, 'retry-after'), Date.now())
			: undefined;
		if (response) {
			const headers = response.headers;
			const serverNow = parseHttpDate(headerValue(headers, 'date')) ?? Date.now();
			gate.done(
				attemptStarted,
				response.statusCode,
				response.statusCode === 429 ? retryAfter : undefined,
				parseLimitHeaders((name) => headerValue(headers, name), serverNow),
			);
		}
		const attempts: Attempts = {
			method,
			attempts: failures + limited + 1,
			elapsedMs: Date.now() - startedAt,
		};
		const done = () => ({
			response: {
				statusCode: response!.statusCode,
				headers: (response!.headers ?? {}) as IDataObject,
				body: response!.body,
			},
			attempts,
			actedBefore,
			outcomeUnknown: writeMayHaveActed(outcome),
		});
		if (response && response.statusCode < 400) return done();
		if (response?.statusCode === 429) {
			// Refused before it was processed: any method may go again once the hold is over.
			// The gate now holds every request, this one first; a wait longer than the run
			// accepts makes it refuse them all at once (LimitWaitTooLong above).
			limited++;
			attempts.retryAfterMs = retryAfter;
			if (limited >= MAX_LIMITED_ANSWERS) return done();
			discardBody(response.body);
			ctx.logger?.debug?.(
				`Document Generation: ${what}: answered 429, held with every request of this execution`,
			);
			continue;
		}
		if (response && !shouldRetry(method, outcome)) return done();
		let delay: number | undefined;
		if (shouldRetry(method, outcome) && timeouts < MAX_TIMED_OUT_ATTEMPTS) {
			const budgetFrom = startedAt + excludedMs;
			attempts.retryAfterMs = retryAfter;
			delay = nextDelay(failures, budgetFrom, Date.now(), policy, retryAfter);
			attempts.retryAfterTooLong =
				delay === undefined &&
				retryAfter !== undefined &&
				failures + 1 < policy.maxAttempts &&
				nextDelay(failures, budgetFrom, Date.now(), policy) !== undefined;
		}
		if (delay === undefined) {
			if (response) return done();
			const text = describeNetworkError(
				failure!.code,
				what,
				options.timeout ?? DEFAULT_TIMEOUT_MS,
				attempts,
				safeDetail(failure!.detail, secret),
			);
			throw apiError(ctx, text, secret, {
				itemIndex: request.itemIndex,
				outcomeUnknown: writeMayHaveActed(outcome),
			});
		}
		failures++;
		if (response) discardBody(response.body);
		if (!isSafe(method) && mayHaveActed(outcome)) actedBefore = true;
		ctx.logger?.debug?.(
			`Document Generation: ${what}: attempt ${failures} failed (${response ? response.statusCode : failure!.code}), retrying in ${delay} ms`,
		);
		await pause(delay, signal);
	}
}

/** A header of an answer by its lower-case name, whatever the case it came in. */
export function headerValue(headers: unknown, name: string): unknown {
	if (!headers || typeof headers !== 'object') return undefined;
	const record = headers as Record<string, unknown>;
	if (name in record) return record[name];
	const key = Object.keys(record).find((k) => k.toLowerCase() === name);
	return key === undefined ? undefined : record[key];
}

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
