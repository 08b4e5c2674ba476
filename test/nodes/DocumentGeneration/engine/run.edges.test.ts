/**
 * The engine's run at its edges, on the real n8n engine against the sandbox, through Update
 * (whose check of an item may read its document): a refused first item stops the check, so no
 * later item's document is read; every item refused under Continue On Fail gives an error item
 * each and sends nothing; Update's items say nothing of where their document came from
 * (`origin` is Create's, for its Unique Key and retries).
 */
import type { IDataObject } from 'n8n-workflow';

import { useSandbox } from '../../../harness/use-sandbox';
import { CONTINUE, onDocument, pairs, run } from '../helpers';

const sb = useSandbox({ pendingMs: 10, generatingMs: 40 });

const LOGO = Buffer.from('\x89PNG\r\n\x1a\n-run-edges-logo-', 'binary');
/** An item for the update of document `id`, with the logo file when `logo` is set. */
const itemFor = (id: string, logo: boolean): IDataObject => ({
	id,
	...(logo ? { $files: { logo: { base64: LOGO.toString('base64'), mimeType: 'image/png' } } } : {}),
});
/** Update of the document of each item's `id`: its logo file into the stored payload. */
const logoUpdate = onDocument('update', '={{ $json.id }}', {
	payloadFiles: { files: [{ binaryPropertyName: 'logo', path: 'brand.logo' }] },
	waitForCompletion: false,
});
const NO_LOGO = 'The input item has no file "logo" for Files Into Payload';

/** Two drafts in the sandbox, each with a payload of its own. */
const twoDrafts = () => [1, 2].map((v) => sb.createDocument({ payload: { v }, status: 'draft' }));

test("a refused first item stops the check: the next item's document is not read for its file", async () => {
	const docs = twoDrafts();
	const result = await run(sb, logoUpdate, [itemFor(docs[0].id, false), itemFor(docs[1].id, true)]);
	expect(result.error).toMatchObject({ name: 'NodeOperationError', itemIndex: 0 });
	expect(result.error!.message).toBe(`${NO_LOGO} (item 1)`);
	expect(sb.requests).toEqual([]);
});

test('every item refused under Continue On Fail: an error item each, paired, nothing sent', async () => {
	const docs = twoDrafts();
	const result = await run(
		sb,
		logoUpdate,
		docs.map((doc) => itemFor(doc.id, false)),
		CONTINUE,
	);
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.json.error)).toEqual([
		`${NO_LOGO} (item 1)`,
		`${NO_LOGO} (item 2)`,
	]);
	expect(pairs(result)).toEqual([0, 1]);
	expect(sb.requests).toEqual([]);
});

test("Update's items are the documents as updated, with no origin (only Create's items have one)", async () => {
	const docs = twoDrafts();
	const result = await run(
		sb,
		logoUpdate,
		docs.map((doc) => itemFor(doc.id, true)),
	);
	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => [item.json.id, item.json.status])).toEqual(
		docs.map((doc) => [doc.id, 'draft']),
	);
	for (const item of result.items) expect(item.json).not.toHaveProperty('origin');
});
