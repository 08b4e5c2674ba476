/** Types the transport, the helpers and the nodes all speak. */
import type {
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

/** Every n8n context the transport is called from. */
export type TransportContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IHookFunctions
	| IWebhookFunctions;

/** Filters of the document list (`GET /api/v1/document_cards`). */
export interface ListFilters {
	templateIds?: string[];
	status?: string;
	/** Several statuses at once (with `status`, any of them). */
	statuses?: string[];
	workspaceId?: string;
	/** Unix seconds. */
	updatedSince?: number;
	search?: string;
}

/** Options every call of the service takes. */
export interface CallOptions {
	itemIndex?: number;
	/** Overrides the credential's Request Timeout for this call. */
	timeoutMs?: number;
}
