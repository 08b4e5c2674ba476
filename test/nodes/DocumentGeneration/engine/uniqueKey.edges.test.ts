/**
 * The Unique Key at its edges, on the real n8n engine against the sandbox: a key of exactly
 * 200 characters marks its document and one more is refused saying the bound, a Reuse Window
 * that is not a number of hours is refused naming the option, and a key spelt "undefined" or
 * "null" is a key like any other: it finds no document that has no mark.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../../../sandbox';
import { apiRequests, createWithOptions, creates, run, templateId, withSandbox } from '../helpers';

/** Create of item `{ n: 1 }` with these Options (a Unique Key, a Reuse Window). */
const keyedRun = async (sb: Sandbox, options: INodeParameters) =>
	await run(sb, createWithOptions(sb, options), [{ n: 1 }]);

/** The mark (`n8n_key`) of the document an output item names, as the service stores it. */
const markOf = (sb: Sandbox, id: unknown) =>
	(JSON.parse(String(sb.documents.get(String(id))!.meta)) as IDataObject).n8n_key;

test('a Unique Key of exactly 200 characters marks its document; 201 are refused before anything is sent, saying the bound', async () => {
	await withSandbox({}, async (sb) => {
		const longest = 'K'.repeat(200);
		const made = await keyedRun(sb, { uniqueKey: longest });
		expect(made.error).toBeUndefined();
		expect(markOf(sb, made.items[0].json.id)).toBe(longest);

		sb.resetRequests();
		const refused = await keyedRun(sb, { uniqueKey: `${longest}K` });
		expect(refused.error).toMatchObject({ name: 'NodeOperationError', itemIndex: 0 });
		expect(refused.error!.message).toBe('The Unique Key is 201 characters long (item 1)');
		expect(refused.error!.description).toBe(
			'Use a short value that names the record (200 characters at most), e.g. {{ $json.invoice_number }}',
		);
		expect(apiRequests(sb)).toEqual([]);
	});
});

test.each([[0], [1.5], ['a day']])(
	'a Reuse Window of %p is refused naming the option and how to set it; nothing is sent',
	async (reuseWindow) => {
		await withSandbox({}, async (sb) => {
			const result = await keyedRun(sb, { uniqueKey: 'INV-1', reuseWindow });
			expect(result.error).toMatchObject({ name: 'NodeOperationError', itemIndex: 0 });
			expect(result.error!.message).toMatch(
				/^The reuse window must be a whole number of at least 1, but it is .+ \(item 1\)$/,
			);
			expect(result.error!.description).toBe(
				'Set Options → Reuse Window to a number of hours, e.g. 24',
			);
			expect(apiRequests(sb)).toEqual([]);
		});
	},
);

test.each([
	['undefined', 'a document of the template without a mark', { order_id: 'O-1' }],
	['null', 'a document whose mark is null', { order_id: 'O-1', n8n_key: null }],
] as Array<[string, string, IDataObject]>)(
	'the Unique Key "%s" does not take %s: its own document is created',
	async (uniqueKey, _what, meta) => {
		await withSandbox({}, async (sb) => {
			const other = sb.createDocument({
				document_template_id: templateId(sb),
				status: 'success',
				meta,
			});
			const result = await keyedRun(sb, { uniqueKey });
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toMatchObject({ status: 'success', origin: 'created' });
			expect(result.items[0].json.id).not.toBe(other.id);
			expect(creates(sb)).toHaveLength(1);
			expect(markOf(sb, result.items[0].json.id)).toBe(uniqueKey);
			expect(markOf(sb, other.id)).toBe(meta.n8n_key);
		});
	},
);
