/**
 * Budgets of a whole run, shared by its documents, and bounds of one wait that a run must not
 * add up: the input files one run reads into payloads (256 MB), the hold the service's limit
 * asks for (Max Wait for Rate Limit, per wait) and the Wait Timeout (per document). On the
 * real n8n engine against the sandbox.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness';
import { statusFault } from '../harness/fixtures';
import { creds, op, useResilienceSandbox } from './helpers';

const MB = 1024 * 1024;
const FILE_BYTES = 5 * MB;
const RUN_FILE_BYTES = 256 * MB;
const DOCUMENTS = '/api/v1/documents';

const sb = useResilienceSandbox();
let templateId: string;
beforeAll(() => {
	templateId = sb.templates[0].id;
});
beforeEach(() => {
	sb.resetRequests();
	sb.faults.clear();
});

const creates = () => sb.requests.filter((q) => q.method === 'POST' && q.path === DOCUMENTS);

describe('input files read into payloads: 256 MB for the whole run, spent across its documents', () => {
	// Each 5 MB file is a data URI of `data:image/png;base64,` and 4/3 of its bytes.
	const uriLength = 'data:image/png;base64,'.length + Math.ceil(FILE_BYTES / 3) * 4;
	const fitting = Math.floor(RUN_FILE_BYTES / uriLength);

	test('the document whose file passes the run budget is refused, naming it; nothing is sent', async () => {
		// The same bytes for every item: n8n stores each item's file on its own.
		const base64 = Buffer.alloc(FILE_BYTES, 3).toString('base64');
		const items: IDataObject[] = Array.from({ length: fitting + 1 }, () => ({
			$files: { logo: { base64, mimeType: 'image/png' } },
		}));
		const parameters: INodeParameters = op.create(templateId, {
			payloadFiles: { files: [{ binaryPropertyName: 'logo', path: 'logo' }] },
		});
		const r = await runNode({ parameters, items, credentials: creds(sb) });
		expect(fitting).toBe(38);
		expect(r.error?.message).toMatch(
			new RegExp(
				`^The input files of this run are more than the 256\\.0 MB one run reads into payloads \\(item ${fitting + 1}\\)`,
			),
		);
		expect(creates()).toHaveLength(0);
	}, 120_000);
});

describe('Max Wait for Rate Limit: a bound on each wait, not on the run’s waits added up', () => {
	test('two holds of 2 s each under a Max Wait of 3 s are both waited out; every document is made', async () => {
		// The first create is refused, and the next one after that hold too: two holds in a row.
		sb.faults.add(statusFault(429, 'POST', DOCUMENTS, { retryAfter: '2', times: 1 }));
		sb.faults.add(statusFault(429, 'POST', DOCUMENTS, { retryAfter: '2', times: 1, after: 1 }));
		const started = Date.now();
		const r = await runNode({
			parameters: op.create(templateId, { options: { maxRateLimitWait: 3 } }),
			items: [{}, {}],
			credentials: creds(sb),
		});
		expect(r.error).toBeUndefined();
		expect(r.items).toHaveLength(2);
		expect(creates().filter((q) => q.status === 429)).toHaveLength(2);
		expect(creates().filter((q) => q.status === 201)).toHaveLength(2);
		expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
	}, 60_000);

	test('one hold of 4 s under a Max Wait of 3 s fails the run at once', async () => {
		sb.faults.add(statusFault(429, 'POST', DOCUMENTS, { retryAfter: '4', times: 1 }));
		const started = Date.now();
		const r = await runNode({
			parameters: op.create(templateId, { options: { maxRateLimitWait: 3 } }),
			credentials: creds(sb),
		});
		expect(r.error?.description).toMatch(/Max Wait for Rate Limit .*\(3 s\)/);
		expect(Date.now() - started).toBeLessThan(4000);
	});
});
