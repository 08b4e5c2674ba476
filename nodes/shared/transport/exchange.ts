/** One HTTP exchange: attempts at the execution's gate, retried unless a write may have acted. */
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
/** Default of the credential's Request Timeout. */
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface RawResponse {
	statusCode: number;
	headers: IDataObject;
	body: unknown;
}

export interface Exchange {
	/** n8n's request options; every attempt sends a fresh copy. */
	http: IHttpRequestOptions;
	/** `api`: with the credential, redirects followed within the API's origin; `fileHost`: without. */
	to: 'api' | 'fileHost';
	/** Words for error messages: "… while trying to <what>". */
	what: string;
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

function cancelSignal(ctx: TransportContext): AbortSignal | undefined {
	const fn = (ctx as Partial<IExecuteFunctions>).getExecutionCancelSignal;
	return typeof fn === 'function' ? fn.call(ctx) : undefined;
}

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
		const { what, secret, itemIndex } = call;
		const { settings } = turn.gate;
		if (error instanceof LimitWaitTooLong)
			throw limitError(ctx, { what, askedMs: error.askedMs, settings, secret, itemIndex });
		throw cancelledError(ctx, what, secret, itemIndex);
	}
}

/** Sends the request once; the key goes only to the API's origin (redirects followed within it). */
async function sendOnce(
	ctx: TransportContext,
	call: Exchange,
	signal: AbortSignal | undefined,
): Promise<IN8nHttpFullResponse> {
	// A fresh options object per attempt: n8n writes into it (abort signal, auth headers).
	const send = { ...call.http, headers: { ...(call.http.headers ?? {}) }, abortSignal: signal };
	if (call.to !== 'api') return (await ctx.helpers.httpRequest(send)) as IN8nHttpFullResponse;
	const withAuth = ctx.helpers.httpRequestWithAuthentication;
	const authenticated = async (options: IHttpRequestOptions) =>
		(await withAuth.call(ctx, CREDENTIAL_TYPE, options)) as IN8nHttpFullResponse;
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
		const httpCode = String(error.status);
		throw apiError(ctx, error.text, call.secret, { itemIndex: call.itemIndex, httpCode });
	}
	turn.gate.done(startedAt);
	const failure = networkFailure(error);
	if (turn.signal?.aborted || failure.code === 'ERR_CANCELED')
		throw cancelledError(ctx, call.what, call.secret, call.itemIndex);
	// A timed-out attempt is bounded by the timeout: its time does not spend the retry budget.
	const timedOut = networkKind(failure.code) === 'timeout';
	const outcome: Outcome = { kind: 'network', code: failure.code };
	const excludedMs = sent.waitedMs + (timedOut ? Date.now() - startedAt : 0);
	return { outcome, failure, excludedMs, timedOut };
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
	const outcome: Outcome = { kind: 'status', status: response.statusCode };
	return { response, outcome, retryAfter, excludedMs: waitedMs, timedOut: false };
}

export interface Exchanged {
	response: RawResponse;
	/** Attempts made, time spent, and the last Retry-After, for error descriptions. */
	attempts: Attempts;
	/** Whether an earlier attempt may have been acted on (a write answered 5xx or cut off). */
	actedBefore: boolean;
	/** Whether the service may have carried out this write (it or an earlier attempt got a 5xx). */
	outcomeUnknown: boolean;
}

/** Answers of 429 one request takes before it gives up (each waited for, see `Pace`). */
export const MAX_LIMITED_ANSWERS = 30;

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
	const { statusCode, headers, body } = attempted.response!;
	return {
		exchanged: {
			response: { statusCode, headers: (headers ?? {}) as IDataObject, body },
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
	const { failures, policy } = state;
	const startedAt = state.startedAt + state.excludedMs;
	const retryAfterMs = attempted.retryAfter;
	attempts.retryAfterMs = retryAfterMs;
	const delay = nextDelay(failures, policy, { startedAt, now: Date.now(), retryAfterMs });
	attempts.retryAfterTooLong =
		delay === undefined &&
		retryAfterMs !== undefined &&
		failures + 1 < policy.maxAttempts &&
		nextDelay(failures, policy, { startedAt, now: Date.now() }) !== undefined;
	return delay;
}

function noAnswerError(
	ctx: TransportContext,
	call: Exchange,
	state: ExchangeState,
	attempted: Attempted,
	attempts: Attempts,
) {
	const { code, detail } = attempted.failure!;
	const timeoutMs = call.http.timeout ?? DEFAULT_TIMEOUT_MS;
	const safe = safeDetail(detail, call.secret);
	const text = describeNetworkError(code, call.what, timeoutMs, attempts, safe);
	return apiError(ctx, text, call.secret, {
		itemIndex: call.itemIndex,
		outcomeUnknown: writeMayHaveActed(state, attempted.outcome),
	});
}

/** After an attempt: a 429 (never processed) goes again after the gate's hold; else the policy. */
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

/** One HTTP exchange with retries: an answer of any status is returned; no answer throws. */
export async function exchange(ctx: TransportContext, call: Exchange): Promise<Exchanged> {
	const state = startExchange(ctx, call);
	const { gate, signal } = state;
	for (;;) {
		if (signal?.aborted) throw cancelledError(ctx, call.what, call.secret, call.itemIndex);
		const attempted = await attemptOnce(ctx, call, { gate, signal, afterLimit: state.limited > 0 });
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
