/** Template → Preview on the engine against the sandbox: the draft's debug URL handed on. */
import { useSandbox } from '../../../../harness/use-sandbox';
import { byId, run, templateId } from '../../helpers';

const sb = useSandbox({ pendingMs: 20, generatingMs: 150 });

describe('template preview', () => {
	test('Preview hands on the debug URL and the template’s preview URL, each item its own', async () => {
		const [invoice, receipt] = [templateId(sb), templateId(sb, 'receipt')];
		const result = await run(
			sb,
			{ resource: 'template', operation: 'preview', templateId: byId('={{ $json.id }}') },
			[{ id: invoice }, { id: receipt }],
		);
		expect(result.error).toBeUndefined();
		const debugPaths = sb.requests
			.filter((r) => r.path.startsWith('/api/v1/document_template_debugs/'))
			.map((r) => r.path);
		expect(debugPaths.sort()).toEqual(
			[invoice, receipt].map((id) => `/api/v1/document_template_debugs/${id}`).sort(),
		);
		expect(result.items.map((item) => item.json.identifier)).toEqual(['invoice', 'receipt']);
		for (const item of result.items) {
			expect(item.json.draft_preview_url).toEqual(expect.stringMatching(/^https?:\/\//));
			expect(item.json).toHaveProperty('preview_url');
		}
	});
});
