/** What Create and Update ask of the engine: whether and how long to wait, what to download. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	DEFAULT_MAX_FILE_MB,
	parseBinaryPropertyName,
	parseMaxFileSize,
	parsePositiveInteger,
} from '../../shared/helpers/parse';
import type { ReuseRequest } from './plan';

export interface GenerationOptions {
	wait: boolean;
	download: boolean;
	binaryPropertyName: string;
	/** Max File Size in bytes (undefined: no limit). */
	maxFileBytes?: number;
	timeoutSeconds: number;
	/** The longest single wait for the request limit (429) the run accepts. */
	maxLimitWaitSeconds: number;
}

export interface GenerationRequest extends GenerationOptions {
	/** Sends the write for this item and returns the API document. */
	send: () => Promise<IDataObject>;
	/** The write answered once the file is ready: for a single item that waits. */
	sendSync?: () => Promise<IDataObject>;
	/** Whether the write starts a generation (status pending). */
	generates: boolean;
	templateId?: string;
	/** Create only: how to find a document that exists for the item already. */
	reuse?: ReuseRequest;
}

// Stryker disable BooleanLiteral: set at module load, before any mutant is switched on
export const NO_WAIT: GenerationOptions = {
	wait: false,
	download: false,
	// Stryker disable next-line StringLiteral: equivalent, a write without a download fills no field
	binaryPropertyName: 'data',
	timeoutSeconds: 300,
	maxLimitWaitSeconds: 120,
};
// Stryker restore BooleanLiteral

/** An item's wait and download settings; a write without generation waits for nothing. */
export function readGenerationOptions(
	ctx: IExecuteFunctions,
	i: number,
	generates = true,
): GenerationOptions {
	const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
	const maxLimitWaitSeconds = readMaxLimitWait(options);
	if (!generates) return { ...NO_WAIT, maxLimitWaitSeconds };
	const wait = ctx.getNodeParameter('waitForCompletion', i, true) as boolean;
	const download = wait && (ctx.getNodeParameter('download', i, false) as boolean);
	// Read only when it shows, so n8n has filled in its default: no fallback of our own.
	const binaryPropertyName = download
		? parseBinaryPropertyName(ctx.getNodeParameter('binaryPropertyName', i))
		: // Stryker disable next-line StringLiteral: equivalent, no file is downloaded into it
			'data';
	const maxFileBytes = download
		? parseMaxFileSize(ctx.getNodeParameter('maxFileSize', i, DEFAULT_MAX_FILE_MB))
		: undefined;
	const timeoutSeconds = wait
		? parsePositiveInteger(
				options.waitTimeout ?? NO_WAIT.timeoutSeconds,
				'wait timeout',
				'Set Options → Wait Timeout to a number of seconds, e.g. 300',
			)
		: NO_WAIT.timeoutSeconds;
	return {
		wait: !!wait,
		download: !!download,
		binaryPropertyName,
		maxFileBytes,
		timeoutSeconds,
		maxLimitWaitSeconds,
	};
}

/** Options → Max Wait for Rate Limit, checked: the longest single 429 wait the run accepts. */
function readMaxLimitWait(options: IDataObject): number {
	return parsePositiveInteger(
		options.maxRateLimitWait ?? NO_WAIT.maxLimitWaitSeconds,
		'max wait for rate limit',
		'Set Options → Max Wait for Rate Limit to a number of seconds, e.g. 120',
	);
}
