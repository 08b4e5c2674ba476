/** Unit tests of the pure naming/matching rules of the editor's lists (methods/labels.ts). */
import {
	documentLabel,
	shortDate,
	templateLabel,
	templateMatches,
	uuidIn,
	workspaceNames,
} from '../../../../nodes/shared/methods/labels';

const ID = '1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d';

describe('uuidIn', () => {
	test('finds a UUID alone, padded, upper-case or inside a URL; lower-cases it', () => {
		expect(uuidIn(ID)).toBe(ID);
		expect(uuidIn(`  ${ID.toUpperCase()}\n`)).toBe(ID);
		expect(uuidIn(`https://dashboard.example.com/documents/${ID}/edit?x=1`)).toBe(ID);
	});

	test('nothing for text without a full UUID', () => {
		expect(uuidIn(undefined)).toBeUndefined();
		expect(uuidIn('')).toBeUndefined();
		expect(uuidIn('invoice')).toBeUndefined();
		expect(uuidIn('1b2c3d4e-5f60-4a7b-8c9d')).toBeUndefined();
	});
});

describe('templateLabel and templateMatches', () => {
	const invoice = {
		id: ID,
		identifier: 'invoice',
		template_folder_identifier: 'Billing',
		output_type: 'pdf',
	};

	test('label: folder / identifier (workspace, non-PDF output type)', () => {
		expect(templateLabel(invoice, 'Acme Billing')).toBe('Billing / invoice (Acme Billing)');
		expect(templateLabel(invoice)).toBe('Billing / invoice');
		expect(templateLabel({ id: ID, identifier: 'badge', output_type: 'image' }, 'HR')).toBe(
			'badge (HR, image)',
		);
		expect(templateLabel({ id: ID, identifier: '  ', template_folder_identifier: null })).toBe(ID);
	});

	test('matching: empty filter, words anywhere, pasted id', () => {
		expect(templateMatches(invoice, 'Acme Billing', undefined)).toBe(true);
		expect(templateMatches(invoice, 'Acme Billing', '   ')).toBe(true);
		expect(templateMatches(invoice, 'Acme Billing', 'INVO')).toBe(true);
		expect(templateMatches(invoice, 'Acme Billing', 'acme inv')).toBe(true);
		expect(templateMatches(invoice, 'Acme Billing', 'acme receipt')).toBe(false);
		expect(templateMatches(invoice, undefined, 'acme')).toBe(false);
		expect(templateMatches(invoice, 'Acme Billing', ID.slice(0, 8))).toBe(true);
		expect(templateMatches(invoice, 'Acme Billing', `x/${ID.toUpperCase()}`)).toBe(true);
		expect(templateMatches(invoice, 'Acme Billing', '00000000-0000-4000-8000-000000000000')).toBe(
			false,
		);
	});

	test('workspace names fall back to the id', () => {
		expect([
			...workspaceNames([
				{ id: 'a', identifier: 'Acme' },
				{ id: 'b', identifier: null },
			]),
		]).toEqual([
			['a', 'Acme'],
			['b', 'b'],
		]);
	});
});

describe('documentLabel', () => {
	test('file name, status, template and UTC date', () => {
		expect(
			documentLabel({
				id: ID,
				filename: 'invoice-1.pdf',
				status: 'success',
				document_template_identifier: 'invoice',
				updated_at: '2026-01-31T10:00:00.123+01:00',
			}),
		).toBe('invoice-1.pdf (success · invoice · 2026-01-31 09:00 UTC)');
	});

	test('without a file: meta._filename (string or object meta), else the id', () => {
		const base = { id: ID, filename: null, status: 'draft', document_template_identifier: 'quote' };
		expect(documentLabel({ ...base, meta: '{"_filename":"quote-7.pdf"}' })).toBe(
			'quote-7.pdf (draft · quote)',
		);
		expect(documentLabel({ ...base, meta: { _filename: 'quote-8.pdf' } })).toBe(
			'quote-8.pdf (draft · quote)',
		);
		expect(documentLabel({ ...base, meta: 'not json' })).toBe(`${ID} (draft · quote)`);
		expect(documentLabel({ ...base, meta: null })).toBe(`${ID} (draft · quote)`);
	});

	test('a file name before success is not taken as the file (generating, a quota failure)', () => {
		const early = { id: ID, filename: 'invoice-1.pdf', document_template_identifier: 'invoice' };
		expect(documentLabel({ ...early, status: 'generating' })).toBe(`${ID} (generating · invoice)`);
		expect(
			documentLabel({ ...early, status: 'failure', meta: { _filename: 'asked-for.pdf' } }),
		).toBe('asked-for.pdf (failure · invoice)');
	});

	test('missing status and unreadable dates still give a label', () => {
		expect(documentLabel({ id: ID, updated_at: 'yesterday' })).toBe(
			`${ID} (unknown status · yesterday)`,
		);
		expect(shortDate('')).toBeUndefined();
		expect(shortDate(42)).toBeUndefined();
	});
});
