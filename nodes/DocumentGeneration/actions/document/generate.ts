/**
 * What create and update ask of the generation pipeline (`pipeline.ts`): the options that say
 * whether and how long to wait and what to download, and one request per item.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	DEFAULT_MAX_FILE_MB,
	parseBinaryPropertyName,
	parseMaxFileSize,
	parsePositiveInteger,
} from '../../../shared/helpers/parse';
import type { ReuseRequest } from './reuse';

/** The Options collection of create and update (how long to wait). */
export const waitOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Max Wait for Rate Limit (Seconds)',
			name: 'maxRateLimitWait',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 120,
			description:
				"The longest single wait for the service's request limit (429) the batch accepts. Every request of the run waits as long as the service asks, up to this; an item fails only when the service asks for more.",
		},
		{
			displayName: 'Wait Timeout (Seconds)',
			name: 'waitTimeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 300,
			description:
				"How long to wait for each document's generation before its item fails. Time held by the service's request limit does not count.",
		},
	],
};

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
	/**
	 * Sends the write so that the service answers once the file is ready (one round trip);
	 * used instead of `send` when the node runs for a single item and waits.
	 */
	sendSync?: () => Promise<IDataObject>;
	/** Whether the write starts a generation (status pending). */
	generates: boolean;
	templateId?: string;
	/** Create only: how to find a document that exists for the item already. */
	reuse?: ReuseRequest;
}

export const NO_WAIT: GenerationOptions = {
	wait: false,
	download: false,
	binaryPropertyName: 'data',
	timeoutSeconds: 300,
	maxLimitWaitSeconds: 120,
};

/** Wait/download settings common to create and update, read and checked for one item. */
export function readGenerationOptions(ctx: IExecuteFunctions, i: number): GenerationOptions {
	const wait = ctx.getNodeParameter('waitForCompletion', i, true) as boolean;
	const download = wait && (ctx.getNodeParameter('download', i, false) as boolean);
	const binaryPropertyName = download
		? parseBinaryPropertyName(ctx.getNodeParameter('binaryPropertyName', i, 'data'))
		: 'data';
	const maxFileBytes = download
		? parseMaxFileSize(ctx.getNodeParameter('maxFileSize', i, DEFAULT_MAX_FILE_MB))
		: undefined;
	const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
	const timeoutSeconds = wait
		? parsePositiveInteger(
				options.waitTimeout ?? 300,
				'wait timeout',
				'Set Options → Wait Timeout to a number of seconds, e.g. 300',
			)
		: 300;
	const maxLimitWaitSeconds = parsePositiveInteger(
		options.maxRateLimitWait ?? 120,
		'max wait for rate limit',
		'Set Options → Max Wait for Rate Limit to a number of seconds, e.g. 120',
	);
	return {
		wait: !!wait,
		download: !!download,
		binaryPropertyName,
		maxFileBytes,
		timeoutSeconds,
		maxLimitWaitSeconds,
	};
}
