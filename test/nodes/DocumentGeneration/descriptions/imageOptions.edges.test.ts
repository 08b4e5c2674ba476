/**
 * The edges of Image Options that mutation testing found unpinned: a Format written by an
 * expression in any case (engine, against the sandbox), and the exact bounds of each option
 * and of Quality's format check (the pure readers, quick to run for every value).
 */
import type { IDataObject } from 'n8n-workflow';

import {
	checkImageMeta,
	readImageMeta,
} from '../../../../nodes/DocumentGeneration/descriptions/imageOptions';
import { useSandbox } from '../../../harness/use-sandbox';
import { byId, creates, run, templateId } from '../helpers';

const sb = useSandbox({ pendingMs: 10, generatingMs: 30 });

test.each([['PNG'], [' Png '], ['JPG']])(
	'a Format of %j from an expression is the service’s lower-case type',
	async (format) => {
		const result = await run(sb, {
			resource: 'document',
			operation: 'create',
			templateId: byId(templateId(sb, 'badge')),
			payload: '{"name": "Ada"}',
			waitForCompletion: false,
			imageOptions: { format: `={{ ${JSON.stringify(format)} }}` },
		});
		expect(result.error).toBeUndefined();
		const sent = creates(sb)[0].body as { document: IDataObject };
		expect(sent.document.meta).toEqual({ _type: format.trim().toLowerCase() });
	},
);

describe('readImageMeta', () => {
	test('no options (or not an object) give no meta keys', () => {
		expect(readImageMeta(undefined)).toEqual({});
		expect(readImageMeta('webp')).toEqual({});
		expect(readImageMeta({})).toEqual({});
	});

	test('each option alone gives only its own key', () => {
		expect(readImageMeta({ format: 'jpg' })).toEqual({ _type: 'jpg' });
		expect(readImageMeta({ width: 5 })).toEqual({ _width: 5 });
		expect(readImageMeta({ height: 6 })).toEqual({ _height: 6 });
		expect(readImageMeta({ quality: 7 })).toEqual({ _quality: 7 });
	});

	test('the bounds are inclusive: 1 and 10000 pixels, quality 1 and 100', () => {
		expect(readImageMeta({ width: 1, height: 10_000, quality: 1 })).toEqual({
			_width: 1,
			_height: 10_000,
			_quality: 1,
		});
		expect(readImageMeta({ width: 10_000, height: 1, quality: 100 })).toEqual({
			_width: 10_000,
			_height: 1,
			_quality: 100,
		});
	});

	test('digits as text, spaces around them, are numbers; six digits at most', () => {
		expect(readImageMeta({ width: ' 640 ', quality: '80' })).toEqual({
			_width: 640,
			_quality: 80,
		});
		expect(readImageMeta({ height: '001200' })).toEqual({ _height: 1200 });
		expect(() => readImageMeta({ height: '0001200' })).toThrow(
			/Height \(Pixels\) must be a whole number from 1 to 10000, not "?0001200"?/,
		);
	});

	test.each([
		[{ width: 10_001 }, /Width \(Pixels\) must be a whole number from 1 to 10000, not 10001/],
		[{ height: 0 }, /Height \(Pixels\) must be a whole number from 1 to 10000, not 0/],
		[{ height: 10_001 }, /Height \(Pixels\) must be a whole number from 1 to 10000/],
		[{ quality: 100.5 }, /Quality must be a whole number from 1 to 100, not 100\.5/],
		[{ width: '12 px' }, /Width \(Pixels\) must be a whole number/],
		[{ width: 'x640' }, /Width \(Pixels\) must be a whole number/],
		[{ width: '640x' }, /Width \(Pixels\) must be a whole number/],
		[{ width: null }, /Width \(Pixels\) must be a whole number/],
		[{ width: true }, /Width \(Pixels\) must be a whole number/],
		[{ format: 7 }, /Format must be webp, png or jpg, not 7/],
		[{ format: '' }, /Format must be webp, png or jpg/],
	])('%j is refused', (options, message) => {
		expect(() => readImageMeta(options)).toThrow(message);
	});

	test('the hint suggests a number fit for the option', () => {
		const hint = (options: IDataObject) => {
			try {
				readImageMeta(options);
			} catch (error) {
				return (error as { hint?: string }).hint;
			}
			throw new Error('not refused');
		};
		expect(hint({ quality: 0 })).toMatch(/Quality to a number such as 80/);
		expect(hint({ width: 0 })).toMatch(/Width \(Pixels\) to a number such as 1200/);
		expect(hint({ format: 'gif' })).toMatch(/Pick WebP, PNG or JPG/);
	});
});

describe('checkImageMeta', () => {
	test.each([
		[undefined],
		[{}],
		[{ _quality: 80 }],
		[{ _type: 'png' }],
		[{ _type: 'webp', _quality: 80 }],
	])('%j passes', (meta) => {
		expect(() => checkImageMeta(meta)).not.toThrow();
	});

	test.each([
		[{ _type: 'png', _quality: 80 }, /but the format is PNG/],
		[{ _type: 'jpg', _quality: 1 }, /but the format is JPG/],
	])('%j is refused: Quality is for WebP only', (meta, message) => {
		expect(() => checkImageMeta(meta)).toThrow(message);
	});
});
