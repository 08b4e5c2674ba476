/**
 * One HTTP exchange with the service or the file host: attempts, each at its turn at the
 * execution's gate, repeated with backoff that never repeats a write the service may have acted on.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { parseHttpDate, pause } from '../helpers/dates';
import type { TransportContext } from '../types';
import { apiError, cancelledError, limitError, safeDetail, type Secrets } from './errors';
import { LimitWaitTooLong, gateFor, type Gate } from './limit';
import { parseLimitHeaders } from './limitHeaders';
import { describeNetworkError, type Attempts } from './messages';
import { RedirectRefused, sendWithinOrigin } from './redirects';
import {
	DEFAULT_RETRY_POLICY,
	type Outcome,
	type RetryPolicy,
	MAX_TIMED_OUT_ATTEMPTS,
	isIdempotent,
	isSafe,
	mayHaveActed,
	networkFailure,
	networkKind,
	nextDelay,
	parseRetryAfter,
	shouldRetry,
} from './retry';

export const CREDENTIAL_TYPE = 'documentGenerationApi';
/** Default of the credential's Request Timeout: how long one request may go unanswered. */
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface RawResponse {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

/** One exchange: the request, where it goes, and the words for its errors. */
export interface Exchange {
	/** n8n's request options; every attempt sends a fresh copy. */
	http: IHttpRequestOptions;
	/** `api`: with the credential, redirects followed within the API's origin; `fileHost`: without. */
	to: 'api' | 'fileHost';
	/** Words for error messages: "… while trying to <what>". */
	what: string;
	/** What no error may show. */
	secret: Secrets;
	itemIndex?: number;
	retry?: Partial<RetryPolicy>;
}

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
function cancelSignal(ctx: TransportContext): AbortSignal | undefined {
	const fn = (ctx as Partial<IExecuteFunctions>).getExecutionCancelSignal;
	return typeof fn === 'function' ? fn.call(ctx) : undefined;
}

/** Where an attempt waits its turn, and what cancels it. */
interface Turn {
	gate: Gate;
	signal?: AbortSignal;
	/** Whether an earlier attempt of this exchange was answered 429 (it goes first). */
	afterLimit: boolean;
}

/** What one attempt gave: an answer, or a network failure. */
interface Attempted {
	response?: IN8nHttpFullResponse;
	outcome: Outcome;
	failure?: { code: string; detail: string | undefined };
	/** The answer's `Retry-After` in ms. */
	retryAfter?: number;
	/** Time that does not count against the retry budget: the wait for the turn, a timeout. */
	excludedMs: number;
	timedOut: boolean;
}

/** Waits for the gate; a wait longer than allowed, or a cancel, ends the exchange. */
async function takeTurn(ctx: TransportContext, call: Exchange, turn: Turn): Promise<number> {
	try {
		return await turn.gate.take(turn.signal, turn.afterLimit);
	} catch (error) {
		if (error instanceof LimitWaitTooLong)
			throw limitError(ctx, {
				what: call.what,
				askedMs: error.askedMs,
				settings: turn.gate.settings,
				secret: call.secret,
				itemIndex: call.itemIndex,
			});
		throw cancelledError(ctx, call.what, call.secret, call.itemIndex);
	}
}

/** Sends the request once. The key goes to the API's origin only: redirects are followed here, within it. */
async function sendOnce(
	ctx: TransportContext,
	call: Exchange,
	signal: AbortSignal | undefined,
): Promise<IN8nHttpFullResponse> {
	// A fresh options object per attempt: n8n writes into it (abort signal, auth headers).
	const send: IHttpRequestOptions = {
		...call.http,
		headers: { ...(call.http.headers ?? {}) },
		abortSignal: signal,
	};
	if (call.to !== 'api') return (await ctx.helpers.httpRequest(send)) as IN8nHttpFullResponse;
	// The credential type's own Bearer header, through n8n's helper.
	const authenticated = async (options: IHttpRequestOptions) =>
		(await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			CREDENTIAL_TYPE,
			options,
		)) as IN8nHttpFullResponse;
	return await sendWithinOrigin(send, call.what, authenticated, discardBody);
}

/** An attempt that got no answer: a refused redirect or a cancel ends the exchange (throws). */
function failedAttempt(
	ctx: TransportContext,
	call: Exchange,
	turn: Turn,
	sent: { error: unknown; startedAt: number; waitedMs: number },
): Attempted {
	const { error, startedAt } = sent;
	if (error instanceof RedirectRefused) {
		turn.gate.done(startedAt, error.status);
		throw apiError(ctx, error.text, call.secret, {
			itemIndex: call.itemIndex,
			httpCode: String(error.status),
		});
	}
	turn.gate.done(startedAt);
	const failure = networkFailure(error);
	if (turn.signal?.aborted || failure.code === 'ERR_CANCELED')
		throw cancelledError(ctx, call.what, call.secret, call.itemIndex);
	// A timed-out attempt is bounded by the timeout: its time does not spend the retry budget.
	const timedOut = networkKind(failure.code) === 'timeout';
	return {
		outcome: { kind: 'network', code: failure.code },
		failure,
		excludedMs: sent.waitedMs + (timedOut ? Date.now() - startedAt : 0),
		timedOut,
	};
}

/** One attempt: its turn at the gate, the request, and the answer told to the gate. */
export async function attemptOnce(
	ctx: TransportContext,
	call: Exchange,
	turn: Turn,
): Promise<Attempted> {
	const queuedAt = Date.now();
	const startedAt = await takeTurn(ctx, call, turn);
	const waitedMs = startedAt - queuedAt;
	let response: IN8nHttpFullResponse;
	try {
		response = await sendOnce(ctx, call, turn.signal);
	} catch (error) {
		return failedAttempt(ctx, call, turn, { error, startedAt, waitedMs });
	}
	const headers = response.headers;
	const retryAfter = parseRetryAfter(headerValue(headers, 'retry-after'), Date.now());
	const dated = parseHttpDate(headerValue(headers, 'date'));
	turn.gate.done(startedAt, response.statusCode, {
		retryAfterMs: response.statusCode === 429 ? retryAfter : undefined,
		reading: parseLimitHeaders((name) => headerValue(headers, name), dated ?? Date.now()),
	});
	return {
		response,
		outcome: { kind: 'status', status: response.statusCode },
		retryAfter,
		excludedMs: waitedMs,
		timedOut: false,
	};
}

export interface Exchanged {
	response: RawResponse;
	/** Attempts made, time spent, and the last Retry-After, for error descriptions. */
	attempts: Attempts;
	/** Whether an earlier attempt may have been acted on (a write answered 5xx or cut off). */
	actedBefore: boolean;
	/** Whether the service may have carried out this write: it, or an earlier attempt, was answered 5xx. */
	outcomeUnknown: boolean;
}

/** Answers of 429 one request takes before it gives up (each waited for, see `Pace`). */
export const MAX_LIMITED_ANSWERS = 30;

/** What one exchange keeps across its attempts. */
interface ExchangeState {
	method: string;
	policy: RetryPolicy;
	startedAt: number;
	signal?: AbortSignal;
	gate: Gate;
	actedBefore: boolean;
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

function startExchange(ctx: TransportContext, call: Exchange): ExchangeState {
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

/** A write sent without a clear answer may have been carried out (`isOutcomeUnknown`). */
function writeMayHaveActed(state: ExchangeState, outcome: Outcome): boolean {
	return !isIdempotent(state.method) && (state.actedBefore || mayHaveActed(outcome));
}

function finished(state: ExchangeState, attempted: Attempted, attempts: Attempts): Step {
	const response = attempted.response!;
	return {
		exchanged: {
			response: {
				statusCode: response.statusCode,
				headers: (response.headers ?? {}) as IDataObject,
				body: response.body,
			},
			attempts,
			actedBefore: state.actedBefore,
			outcomeUnknown: writeMayHaveActed(state, attempted.outcome),
		},
	};
}

/** The wait before trying again, or undefined when the policy allows no more attempts. */
function retryDelay(
	state: ExchangeState,
	attempted: Attempted,
	attempts: Attempts,
): number | undefined {
	if (!shouldRetry(state.method, attempted.outcome) || state.timeouts >= MAX_TIMED_OUT_ATTEMPTS)
		return undefined;
	const budgetFrom = state.startedAt + state.excludedMs;
	const { retryAfter } = attempted;
	attempts.retryAfterMs = retryAfter;
	const delay = nextDelay(state.failures, state.policy, {
		startedAt: budgetFrom,
		now: Date.now(),
		retryAfterMs: retryAfter,
	});
	attempts.retryAfterTooLong =
		delay === undefined &&
		retryAfter !== undefined &&
		state.failures + 1 < state.policy.maxAttempts &&
		nextDelay(state.failures, state.policy, { startedAt: budgetFrom, now: Date.now() }) !==
			undefined;
	return delay;
}

/** The error of a request that got no answer, once retries are over or not allowed. */
function noAnswerError(
	ctx: TransportContext,
	call: Exchange,
	state: ExchangeState,
	attempted: Attempted,
	attempts: Attempts,
) {
	const failure = attempted.failure!;
	const text = describeNetworkError(
		failure.code,
		call.what,
		call.http.timeout ?? DEFAULT_TIMEOUT_MS,
		attempts,
		safeDetail(failure.detail, call.secret),
	);
	return apiError(ctx, text, call.secret, {
		itemIndex: call.itemIndex,
		outcomeUnknown: writeMayHaveActed(state, attempted.outcome),
	});
}

/**
 * What follows an attempt. A 429 was refused before it was processed: any method goes again
 * once the gate's hold is over. Other failures are retried by the policy; an answer that may not
 * be retried is the result, a failure without one throws.
 */
function nextStep(
	ctx: TransportContext,
	call: Exchange,
	state: ExchangeState,
	attempted: Attempted,
	attempts: Attempts,
): Step {
	const { response } = attempted;
	if (response && response.statusCode < 400) return finished(state, attempted, attempts);
	if (response?.statusCode === 429) {
		state.limited++;
		attempts.retryAfterMs = attempted.retryAfter;
		if (state.limited >= MAX_LIMITED_ANSWERS) return finished(state, attempted, attempts);
		discardBody(response.body);
		ctx.logger?.debug?.(
			`Document Generation: ${call.what}: answered 429, held with every request of this execution`,
		);
		return { again: true };
	}
	if (response && !shouldRetry(state.method, attempted.outcome))
		return finished(state, attempted, attempts);
	const delay = retryDelay(state, attempted, attempts);
	if (delay !== undefined) return { delay };
	if (response) return finished(state, attempted, attempts);
	throw noAnswerError(ctx, call, state, attempted, attempts);
}

/** Counts a failed attempt and waits before the next one. */
async function waitToRetry(
	ctx: TransportContext,
	call: Exchange,
	state: ExchangeState,
	attempted: Attempted,
	delay: number,
): Promise<void> {
	state.failures++;
	if (attempted.response) discardBody(attempted.response.body);
	if (!isSafe(state.method) && mayHaveActed(attempted.outcome)) state.actedBefore = true;
	const why = attempted.response ? attempted.response.statusCode : attempted.failure!.code;
	ctx.logger?.debug?.(
		`Document Generation: ${call.what}: attempt ${state.failures} failed (${why}), retrying in ${delay} ms`,
	);
	await pause(delay, state.signal);
}

/**
 * One HTTP exchange with retries: answers with any status are returned, no answer throws once
 * retries are over. A 429 goes again when the gate's hold ends, outside the retry policy.
 */
export async function exchange(ctx: TransportContext, call: Exchange): Promise<Exchanged> {
	const state = startExchange(ctx, call);
	for (;;) {
		if (state.signal?.aborted) throw cancelledError(ctx, call.what, call.secret, call.itemIndex);
		const attempted = await attemptOnce(ctx, call, {
			gate: state.gate,
			signal: state.signal,
			afterLimit: state.limited > 0,
		});
		state.excludedMs += attempted.excludedMs;
		if (attempted.timedOut) state.timeouts++;
		const attempts: Attempts = {
			method: state.method,
			attempts: state.failures + state.limited + 1,
			elapsedMs: Date.now() - state.startedAt,
		};
		const step = nextStep(ctx, call, state, attempted, attempts);
		if ('exchanged' in step) return step.exchanged;
		if ('delay' in step) await waitToRetry(ctx, call, state, attempted, step.delay);
	}
}
