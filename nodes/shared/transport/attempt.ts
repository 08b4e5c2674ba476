/**
 * One attempt of an exchange: its turn at the execution's gate (the request limit's pace),
 * the request sent once (the key only within the API's origin), and what the gate learns
 * from the answer. Whether to try again is the exchange's decision (`exchange.ts`).
 */
import type { IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { parseHttpDate } from '../helpers/dates';
import type { TransportContext } from '../types';
import { apiError, cancelledError, limitError } from './apiErrors';
import { CREDENTIAL_TYPE, type Exchange } from './calls';

import type { Gate } from './limit';
import { LimitWaitTooLong } from './limit';
import { networkFailure } from './network';
import { parseLimitHeaders } from './limitHeaders';
import { RedirectRefused, sendWithinOrigin } from './redirects';
import type { Outcome } from './retry';
import { networkKind, parseRetryAfter } from './retry';
import { discardBody, headerValue } from './wire';

/** Where an attempt waits its turn, and what cancels it. */
export interface Turn {
	gate: Gate;
	signal?: AbortSignal;
	/** Whether an earlier attempt of this exchange was answered 429 (it goes first). */
	afterLimit: boolean;
}

/** What one attempt gave: an answer, or a network failure. */
export interface Attempted {
	response?: IN8nHttpFullResponse;
	outcome: Outcome;
	failure?: { code: string; detail: string | undefined };
	/** The answer's `Retry-After` in ms. */
	retryAfter?: number;
	/** Time that does not count against the retry budget: the wait for the turn, a timeout. */
	excludedMs: number;
	timedOut: boolean;
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
	return call.to === 'api'
		? await sendWithinOrigin(send, call.what, authenticatedCall(ctx), discardBody)
		: ((await ctx.helpers.httpRequest(send)) as IN8nHttpFullResponse);
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
	// An attempt that timed out is already bounded by the timeout (and only
	// MAX_TIMED_OUT_ATTEMPTS of them are made): its time does not spend the retry budget.
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
