/** Unit tests of merging a template's draft settings (nodes/DocumentGeneration/descriptions/templateSettings.ts). */
import { mergeSettings } from '../../../../nodes/DocumentGeneration/descriptions/templateSettings';

const DRAFT = {
	paper_format: 'a4',
	margin: { top: 10, right: 10, bottom: 10, left: 10 },
	footer: { center: 'Page [page] of [topage]' },
};

test('the given settings go in; margin, header and footer are merged key by key', () => {
	expect(mergeSettings(DRAFT, { margin: { top: 25 }, orientation: 'landscape' })).toEqual({
		paper_format: 'a4',
		orientation: 'landscape',
		margin: { top: 25, right: 10, bottom: 10, left: 10 },
		footer: { center: 'Page [page] of [topage]' },
	});
});

test('draft settings kept as a string of JSON are read as the object they hold', () => {
	expect(mergeSettings(JSON.stringify(DRAFT), { footer: { left: 'ACME' } }).footer).toEqual({
		center: 'Page [page] of [topage]',
		left: 'ACME',
	});
});

test('no draft settings yet: the given ones alone', () => {
	expect(mergeSettings(null, { paper_format: 'letter' })).toEqual({ paper_format: 'letter' });
	expect(mergeSettings('', { paper_format: 'letter' })).toEqual({ paper_format: 'letter' });
});

test.each(['not json', '[1, 2]', '"a4"'])(
	'draft settings %j are refused, not overwritten',
	(text) => {
		expect(() => mergeSettings(text, { paper_format: 'a4' })).toThrow(
			'The template keeps its draft settings in a form this node cannot change',
		);
	},
);
