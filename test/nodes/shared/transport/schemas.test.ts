/**
 * The shapes the node checks answers against, where they do more than check: a document read
 * gets the end of its download link, a sync answer needs its card (or a document), and a
 * failed check is said in words.
 */
import { z } from 'zod';

import { LINK_LIFE_MS } from '../../../../nodes/shared/helpers/linkExpiry';
import { describeShape } from '../../../../nodes/shared/transport/messages';
import { documentCardEnvelope, syncEnvelope } from '../../../../nodes/shared/transport/schemas';

const DOC = { id: 'doc-1', status: 'success' };
const SIGNED =
	'https://bucket.s3.amazonaws.com/doc.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20300601T120000Z&X-Amz-Expires=900&X-Amz-Signature=ab';

describe('a document as read', () => {
	afterEach(() => jest.useRealTimers());

	test("its download link's end, from the link's own signature times", () => {
		const { document_card } = documentCardEnvelope.parse({
			document_card: { ...DOC, download_url: SIGNED },
		});
		expect(document_card.download_url_expires_at).toBe('2030-06-01T12:15:00.000Z');
	});

	test('a link without signature times ends a while after it was read (on a fixed clock)', () => {
		jest.useFakeTimers({ now: Date.UTC(2030, 5, 1, 12, 0, 0) });
		const { document_card } = documentCardEnvelope.parse({
			document_card: { ...DOC, download_url: 'https://files.example/doc.pdf' },
		});
		expect(document_card.download_url_expires_at).toBe(
			new Date(Date.UTC(2030, 5, 1, 12, 0, 0) + LINK_LIFE_MS).toISOString(),
		);
	});

	test('no link: its end is null', () => {
		const { document_card } = documentCardEnvelope.parse({
			document_card: { ...DOC, download_url: null },
		});
		expect(document_card.download_url_expires_at).toBeNull();
	});
});

describe('the answer of a sync create', () => {
	test('a card, or a document, is accepted', () => {
		expect(syncEnvelope.parse({ document_card: DOC }).document_card).toMatchObject(DOC);
		expect(syncEnvelope.parse({ document: DOC }).document).toMatchObject(DOC);
	});

	test('neither: refused, saying the card is missing', () => {
		const body = { status: 'ok' };
		const parsed = syncEnvelope.safeParse(body);
		expect(parsed.success).toBe(false);
		expect(describeShape(body, parsed.error!)).toBe('document_card: Required');
	});
});

describe('a failed check in words', () => {
	const schema = z.object({ document: z.object({ id: z.string() }) });
	const words = (body: unknown) => describeShape(body, schema.safeParse(body).error!);

	test('null is an empty answer', () => {
		expect(words(null)).toBe('an empty answer');
	});

	test('an HTML page after blank lines is still an HTML page', () => {
		expect(words('\n  <!DOCTYPE html><html></html>')).toBe('an HTML page instead of JSON');
	});

	test('text with markup further on is text', () => {
		expect(words('Service unavailable <retry later>')).toBe('text instead of JSON');
	});

	test('a top-level problem is named as such', () => {
		expect(describeShape(5, z.object({}).safeParse(5).error!)).toBe(
			'(top level): Expected object, received number',
		);
	});
});
