/** What a call of the service is: its request, its answer, the credential type, the timeouts. */
import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';

import type { CallOptions } from '../types';
import type { Secrets } from './redact';
import type { RetryPolicy } from './retry';

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
