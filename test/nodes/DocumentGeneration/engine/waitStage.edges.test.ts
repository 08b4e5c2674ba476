/**
 * Stage 4 at its edges, on the real n8n engine against the sandbox: once a file is refused
 * (larger than Max File Size) without Continue On Fail, the run stops, and the downloads
 * still queued behind the ones under way (a few at a time) are never started; a generation
 * that fails for another cause than the quota is not counted in the quota's hint; updates
 * waited for together are looked for in a list narrowed to their documents' template (an
 * update names none).
 */
import { CONCURRENCY } from '../../../../nodes/shared/helpers/items';
import {
	CONTINUE,
	byId,
	fileRequests,
	listRequests,
	numbered,
	numberedCreate,
	onDocument,
	run,
	templateId,
	withSandbox,
} from '../helpers';

const MB = 1024 * 1024;

test('a refused file stops the run: no download queued behind the first ones is started', async () => {
	// Files of 3 MB, Max File Size 1 MB: every download is refused, from its announced size.
	await withSandbox({ fileSizeBytes: 3 * MB }, async (sb) => {
		const n = CONCURRENCY + 2;
		const result = await run(
			sb,
			numberedCreate(sb, { download: true, maxFileSize: 1 }),
			numbered(n),
		);
		expect(result.error).toMatchObject({ name: 'NodeOperationError' });
		expect(result.error!.message).toMatch(
			/^The file of document [0-9a-f-]{36} is larger than the Max File Size \(1 MB\)/,
		);
		// Every document finished before the first look: all were handed on together, and only
		// the downloads started at once (CONCURRENCY) reached the file host.
		expect(sb.documents.size).toBe(n);
		expect(fileRequests(sb).length).toBeGreaterThan(0);
		expect(fileRequests(sb).length).toBeLessThanOrEqual(CONCURRENCY);
	});
});

test('a generation that fails for another cause than the quota gives no quota hint', async () => {
	await withSandbox({}, async (sb) => {
		const fails = templateId(sb, 'always-fails');
		const result = await run(
			sb,
			numberedCreate(sb, { templateId: byId('={{ $json.t }}') }),
			[
				{ n: 1, t: fails },
				{ n: 2, t: templateId(sb) },
			],
			CONTINUE,
		);
		expect(result.items[0].json.error).toMatch(/failed to generate/);
		expect(result.items[1].json.status).toBe('success');
		const hints = result.runData['Document Generation'][0].hints ?? [];
		expect(hints.map((hint) => hint.message)).toEqual([]);
	});
});

test("updates to Pending waited for together: the list is narrowed to their documents' template", async () => {
	await withSandbox({}, async (sb) => {
		const docs = [1, 2, 3].map((v) =>
			sb.createDocument({
				document_template_id: templateId(sb),
				payload: { v },
				status: 'success',
			}),
		);
		const result = await run(
			sb,
			onDocument('update', '={{ $json.id }}', { updateFields: { status: 'pending' } }),
			docs.map((doc) => ({ id: doc.id })),
		);
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.json.id, item.json.status])).toEqual(
			docs.map((doc) => [doc.id, 'success']),
		);
		expect(listRequests(sb).length).toBeGreaterThan(0);
		for (const list of listRequests(sb))
			expect(list.query['q[document_template_id]']).toBe(templateId(sb));
	});
});
