/**
 * One HTTP exchange with the service or the file host: n8n's HTTP helpers underneath, retries
 * with backoff that never repeat a write the service may have acted on, cancellation, and the
 * one constructor of the errors the transport throws (never carrying the API key or the
 * request options).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import type { CallOptions, TransportContext } from '../types';
import { networkFailure } from './network';
import type { Attempts } from './errors';
import { describeNetworkError, redact, safeDetail } from './errors';
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

const MAX_ERROR_BODY = 2000;

export function apiError(
	ctx: TransportContext,
	text: { message: string; description: string },
	secret: string | undefined,
	extra: { itemIndex?: number; httpCode?: string; body?: unknown; outcomeUnknown?: boolean },
) {
	const message = redact(text.message, secret);
	const description = redact(text.description, secret);
	// What NodeApiError keeps as the error response holds only what is safe to show: never
	// the request options or the axios error (they carry the Authorization header).
	const response: JsonObject = { message };
	if (extra.httpCode) response.httpCode = extra.httpCode;
	if (extra.body !== undefined && extra.body !== '') {
		const raw =
			typeof extra.body === 'string'
				? extra.body
				: Buffer.isBuffer(extra.body)
					? extra.body.toString('utf8')
					: undefined;
		if (raw !== undefined) {
			response.body = redact(
				raw.length > MAX_ERROR_BODY ? `${raw.slice(0, MAX_ERROR_BODY)}…` : raw,
				secret,
			);
		} else {
			try {
				const json = redact(JSON.stringify(extra.body), secret);
				response.body =
					json.length > MAX_ERROR_BODY
						? `${json.slice(0, MAX_ERROR_BODY)}…`
						: (JSON.parse(json) as JsonObject);
			} catch {
				response.body = '(unreadable body)';
			}
		}
	}
	const error = new NodeApiError(ctx.getNode(), response, {
		message,
		description,
		httpCode: extra.httpCode,
		itemIndex: extra.itemIndex,
	});
	// NodeApiError swaps a message that mentions a network error code for a generic one;
	// ours says more, so it is put back.
	error.message = message;
	error.description = description;
	if (extra.outcomeUnknown) error.context.outcomeUnknown = true;
	return error;
}

/**
 * Whether a write that failed with this error may have been carried out by the service: it
 * was sent, and then the connection broke, timed out, or the service answered 5xx.
 */
export function isOutcomeUnknown(error: unknown): boolean {
	return (
		error instanceof NodeApiError &&
		(error.context as { outcomeUnknown?: unknown }).outcomeUnknown === true
	);
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

/**
 * One HTTP exchange with retries. Answers with any status are returned (the caller decides);
 * requests that get no answer throw a NodeApiError once retries are over or not allowed.
 */
export async function exchange(
	ctx: TransportContext,
	options: IHttpRequestOptions,
	authenticated: boolean,
	what: string,
	secret: string | undefined,
	request: Pick<ApiRequest, 'itemIndex' | 'retry'>,
): Promise<Exchanged> {
	const policy = { ...DEFAULT_RETRY_POLICY, ...request.retry };
	const method = (options.method ?? 'GET').toUpperCase();
	const startedAt = Date.now();
	const signal = cancelSignal(ctx);
	let actedBefore = false;
	// A write that was sent and got no clear answer may have been carried out: the one rule
	// behind `isOutcomeUnknown`, for answers and for cut-off requests alike.
	const writeMayHaveActed = (outcome: Outcome) =>
		!isIdempotent(method) && (actedBefore || mayHaveActed(outcome));
	// Time spent in attempts that timed out does not count against the retry budget (each is
	// already bounded by the timeout), but only MAX_TIMED_OUT_ATTEMPTS of them are made.
	let timedOutMs = 0;
	let timeouts = 0;
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
	for (let attempt = 0; ; attempt++) {
		if (signal?.aborted) throw cancelled();
		let response: IN8nHttpFullResponse | undefined;
		let outcome: Outcome;
		let failure: { code: string; detail: string | undefined } | undefined;
		const attemptStarted = Date.now();
		try {
			// A fresh options object per attempt: n8n writes into it (abort signal, auth headers).
			const send: IHttpRequestOptions = {
				...options,
				headers: { ...(options.headers ?? {}) },
				abortSignal: signal,
			};
			response = (
				authenticated
					? await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, send)
					: await ctx.helpers.httpRequest(send)
			) as IN8nHttpFullResponse;
			outcome = { kind: 'status', status: response.statusCode };
		} catch (error) {
			failure = networkFailure(error);
			if (signal?.aborted || failure.code === 'ERR_CANCELED') throw cancelled();
			outcome = { kind: 'network', code: failure.code };
			if (networkKind(failure.code) === 'timeout') {
				timeouts++;
				timedOutMs += Date.now() - attemptStarted;
			}
		}
		const attempts: Attempts = { method, attempts: attempt + 1, elapsedMs: Date.now() - startedAt };
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
		if (response && (response.statusCode < 400 || !shouldRetry(method, outcome))) return done();
		let delay: number | undefined;
		if (shouldRetry(method, outcome) && timeouts < MAX_TIMED_OUT_ATTEMPTS) {
			const budgetFrom = startedAt + timedOutMs;
			const retryAfter = response
				? parseRetryAfter(headerValue(response.headers, 'retry-after'), Date.now())
				: undefined;
			attempts.retryAfterMs = retryAfter;
			delay = nextDelay(attempt, budgetFrom, Date.now(), policy, retryAfter);
			attempts.retryAfterTooLong =
				delay === undefined &&
				retryAfter !== undefined &&
				attempt + 1 < policy.maxAttempts &&
				nextDelay(attempt, budgetFrom, Date.now(), policy) !== undefined;
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
		if (!isSafe(method) && mayHaveActed(outcome)) actedBefore = true;
		ctx.logger?.debug?.(
			`Document Generation: ${what}: attempt ${attempt + 1} failed (${response ? response.statusCode : failure!.code}), retrying in ${delay} ms`,
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
