/**
 * The options of a write (engine/options.ts), on the real n8n engine against the sandbox: a draft
 * reads Max Wait for Rate Limit only, a write that does not wait reads no Wait Timeout, one that
 * waits without Download File gets no file, and each refused option says how to set it.
 */
import type { IExecuteFunctions, INodeParameters } from 'n8n-workflow';
import { readGenerationOptions } from '../../../../nodes/DocumentGeneration/engine/options';
import { useSandbox } from '../../../harness/use-sandbox';
import { CONTINUE, apiRequests, fileRequests, invoiceCreate, run } from '../helpers';

const sb = useSandbox({ pendingMs: 10, generatingMs: 40 });

const create = (extra: INodeParameters) => invoiceCreate(sb, '{"a": 1}', extra);

// The wait and file fields are hidden for a draft, and for a write that does not download:
// n8n hands the node their defaults whatever was saved, so only Options can show what is read.

test('a draft reads only Max Wait for Rate Limit: a Wait Timeout of 0 is not checked, nothing is waited for', async () => {
	const result = await run(
		sb,
		create({
			status: 'draft',
			options: { waitTimeout: '={{ 0 }}', maxRateLimitWait: 30 },
		}),
	);
	expect(result.error).toBeUndefined();
	expect(apiRequests(sb).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/v1/documents']);
	expect(result.items[0].json.status).toBe('draft');
	expect(result.items[0].binary).toBeUndefined();
});

test('a draft with Max Wait for Rate Limit below 1 is refused, saying how to set it; nothing is sent', async () => {
	const result = await run(sb, create({ status: 'draft', options: { maxRateLimitWait: 0 } }));
	expect(result.error?.message).toMatch(
		/^The max wait for rate limit must be a whole number of at least 1, but it is 0/,
	);
	expect(result.error?.description).toBe(
		'Set Options → Max Wait for Rate Limit to a number of seconds, e.g. 120',
	);
	expect(apiRequests(sb)).toEqual([]);
});

test('a write that does not wait reads no Wait Timeout; one that waits refuses 0, saying how to set it', async () => {
	const unread = await run(
		sb,
		create({ waitForCompletion: false, options: { waitTimeout: '={{ 0 }}' } }),
	);
	expect(unread.error).toBeUndefined();
	expect(unread.items[0].json.status).toBe('pending');
	sb.resetRequests();
	const refused = await run(sb, create({ options: { waitTimeout: 0 } }));
	expect(refused.error?.message).toMatch(
		/^The wait timeout must be a whole number of at least 1, but it is 0/,
	);
	expect(refused.error?.description).toBe(
		'Set Options → Wait Timeout to a number of seconds, e.g. 300',
	);
	expect(apiRequests(sb)).toEqual([]);
});

test('waiting without Download File gets no file', async () => {
	const result = await run(sb, create({ download: false }));
	expect(result.error).toBeUndefined();
	expect(result.items[0].json.status).toBe('success');
	expect(result.items[0].binary).toBeUndefined();
	expect(fileRequests(sb)).toEqual([]);
});

// Each item's own options: the values below come from each item's data, so an option read for
// the first item only would give every document the first one's.

const numberedCreate = (extra: INodeParameters) =>
	invoiceCreate(sb, '={{ { "n": $json.n } }}', extra);

const binaryFields = (items: Array<{ binary?: object }>) =>
	items.map((item) => Object.keys(item.binary ?? {}));

test('Wait for Completion from an expression is read for each item: only the item that asks is waited for', async () => {
	const result = await run(
		sb,
		numberedCreate({ waitForCompletion: '={{ $json.wait }}', download: false }),
		[
			{ n: 1, wait: false },
			{ n: 2, wait: true },
		],
	);
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.json.status)).toEqual(['pending', 'success']);
});

test('Download File from an expression is read for each item: only the items that ask for a file get one', async () => {
	const result = await run(sb, numberedCreate({ download: '={{ $json.download }}' }), [
		{ n: 1, download: true },
		{ n: 2, download: false },
		{ n: 3, download: true },
	]);
	expect(result.error).toBeUndefined();
	expect(binaryFields(result.items)).toEqual([['data'], [], ['data']]);
	expect(fileRequests(sb)).toHaveLength(2);
});

test('Put Output File in Field from an expression is read for each item: each file goes in the field its own data names', async () => {
	const result = await run(
		sb,
		numberedCreate({ download: true, binaryPropertyName: '={{ $json.field }}' }),
		[
			{ n: 1, field: 'first' },
			{ n: 2, field: 'second' },
		],
	);
	expect(result.error).toBeUndefined();
	expect(binaryFields(result.items)).toEqual([['first'], ['second']]);
});

test('a Max File Size from an expression is read for each item: a 3 MB file taken at 5 MB, refused at 1 MB', async () => {
	sb.setOptions({ fileSizeBytes: 3 * 1024 * 1024 });
	try {
		const result = await run(
			sb,
			numberedCreate({ download: true, maxFileSize: '={{ $json.max }}' }),
			[
				{ n: 1, max: 5 },
				{ n: 2, max: 1 },
			],
			CONTINUE,
		);
		expect(binaryFields(result.items)).toEqual([['data'], []]);
		expect(result.items[1].json.error).toMatch(/is larger than the Max File Size \(1 MB\)/);
	} finally {
		// The sandbox serves every test of this file: its files go back to their own size.
		sb.setOptions({ fileSizeBytes: 0 });
	}
});

test('a Wait Timeout from an expression is read for each item: only the item whose own value is 0 is refused', async () => {
	const result = await run(
		sb,
		numberedCreate({ options: { waitTimeout: '={{ $json.timeout }}' } }),
		[
			{ n: 1, timeout: 300 },
			{ n: 2, timeout: 0 },
		],
		CONTINUE,
	);
	expect(result.items[0].json).toMatchObject({ status: 'success' });
	expect(result.items[1].json.error).toMatch(
		/^The wait timeout must be a whole number of at least 1, but it is 0/,
	);
});

// The record a draft hands the engine, read with a stand-in for n8n's parameter reader: the
// engine must not depend on its own check of `generates` to keep a draft from waiting.

test('a draft’s options wait for nothing and download nothing, whatever its hidden fields hold', () => {
	const saved: Record<string, unknown> = {
		waitForCompletion: true,
		download: true,
		binaryPropertyName: 'pdf',
		options: { maxRateLimitWait: 30 },
	};
	const ctx = {
		getNodeParameter: (name: string, _i: number, fallback: unknown) => saved[name] ?? fallback,
	} as unknown as IExecuteFunctions;
	const draft = readGenerationOptions(ctx, 0, false);
	expect(draft).toMatchObject({
		wait: false,
		download: false,
		timeoutSeconds: 300,
		maxLimitWaitSeconds: 30,
	});
	expect(draft.maxFileBytes).toBeUndefined();
	expect(readGenerationOptions(ctx, 0)).toMatchObject({
		wait: true,
		download: true,
		binaryPropertyName: 'pdf',
	});
});
