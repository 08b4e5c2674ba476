/**
 * Image Options on Create and Update, on the real n8n engine against the sandbox: sent as the
 * service's meta keys, numbers as numbers, each checked before anything is sent, and winning
 * over the same key in Meta (JSON).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../../../harness/use-sandbox';
import { byId, creates, onDocument, run, templateId, writes } from '../helpers';

const sb = useSandbox({ pendingMs: 10, generatingMs: 30 });

function badge(imageOptions: INodeParameters, extra: INodeParameters = {}): INodeParameters {
	return {
		resource: 'document',
		operation: 'create',
		templateId: byId(templateId(sb, 'badge')),
		payload: '{"name": "Ada"}',
		waitForCompletion: false,
		imageOptions,
		...extra,
	};
}

const storedMeta = (id: unknown) =>
	JSON.parse(sb.documents.get(String(id))!.meta ?? 'null') as IDataObject | null;

test('format, width, height and quality go out as _type, _width, _height and _quality (numbers)', async () => {
	const result = await run(sb, badge({ format: 'webp', width: 1200, height: '630', quality: 80 }));
	expect(result.error).toBeUndefined();
	const sent = creates(sb)[0].body as { document: IDataObject };
	expect(sent.document.meta).toEqual({ _type: 'webp', _width: 1200, _height: 630, _quality: 80 });
});

test('an option wins over the same key in Meta (JSON); other meta keys stay', async () => {
	const result = await run(
		sb,
		badge(
			{ format: 'png', width: 400 },
			{ additionalFields: { meta: '{"_type": "jpg", "_width": 10, "ref": "B-1"}' } },
		),
	);
	expect(result.error).toBeUndefined();
	expect(storedMeta(result.items[0].json.id)).toEqual({ _type: 'png', _width: 400, ref: 'B-1' });
});

test.each([
	[{ width: 0 }, /Width \(Pixels\) must be a whole number from 1 to 10000, not 0/],
	[{ height: 12.5 }, /Height \(Pixels\) must be a whole number from 1 to 10000, not 12\.5/],
	[{ width: 10_001 }, /Width \(Pixels\) must be a whole number/],
	[{ quality: 101 }, /Quality must be a whole number from 1 to 100, not 101/],
	[{ quality: 0 }, /Quality must be a whole number from 1 to 100/],
	[{ format: 'gif' }, /Format must be webp, png or jpg, not "?gif"?/],
	[{ format: 'png', quality: 80 }, /Quality applies to WebP only, but the format is PNG/],
	[{ width: '0x4B0' }, /Width \(Pixels\) must be a whole number from 1 to 10000, not "?0x4B0"?/],
	[{ height: '1e3' }, /Height \(Pixels\) must be a whole number/],
])('%j is refused, naming the option and the item; nothing is sent', async (options, message) => {
	// Item 1 is valid, item 2 gives the bad value: the refusal names item 2 and nothing is sent.
	const valid: IDataObject = { format: 'webp', width: 100, height: 100, quality: 50 };
	const perItem = Object.fromEntries(
		Object.keys(options).map((key) => [key, `={{ $json.o.${key} }}`]),
	);
	const bad = await run(sb, badge(perItem), [{ o: valid }, { o: options }]);
	expect(bad.error?.message).toMatch(message);
	expect(bad.error?.message).toMatch(/\(item 2\)/);
	expect(bad.error?.description).toMatch(/Image Options/);
	expect(creates(sb)).toHaveLength(0);
});

test('Quality with a _type in Meta (JSON) other than webp is refused too; nothing is sent', async () => {
	const result = await run(
		sb,
		badge({ quality: 70 }, { additionalFields: { meta: '{"_type": "jpg"}' } }),
	);
	expect(result.error?.message).toMatch(
		/Quality applies to WebP only, but the format is JPG \(item 1\)/,
	);
	expect(result.error?.description).toMatch(/_type in Meta/);
	expect(creates(sb)).toHaveLength(0);
});

test('Update: Image Options alone are merged into the current meta; with Meta they are merged into it', async () => {
	const made = await run(
		sb,
		badge({}, { additionalFields: { meta: '{"ref": "B-2"}' }, status: 'draft' }),
	);
	const id = String(made.items[0].json.id);
	const alone = await run(
		sb,
		onDocument('update', id, { imageOptions: { width: 800 }, waitForCompletion: false }),
	);
	expect(alone.error).toBeUndefined();
	expect(storedMeta(id)).toEqual({ ref: 'B-2', _width: 800 });
	const withMeta = await run(
		sb,
		onDocument('update', id, {
			updateFields: { meta: '{"ref": "B-3", "_type": "png"}' },
			imageOptions: { format: 'jpg' },
			waitForCompletion: false,
		}),
	);
	expect(withMeta.error).toBeUndefined();
	expect(storedMeta(id)).toEqual({ ref: 'B-3', _type: 'jpg' });
	expect(writes(sb).filter((r) => r.method === 'PUT')).toHaveLength(2);
});
