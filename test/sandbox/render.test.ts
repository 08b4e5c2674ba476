/** The sandbox's template rendering (a Liquid subset) and the invoice the demo produces. */
import { buildLayoutPdf } from './pdf';
import { renderTemplate } from './render';
import { INVOICE_BODY } from './seeded';

/** The text a PDF of the sandbox shows, in order (its content streams are not compressed). */
function pdfText(pdf: Buffer): string[] {
	return [...pdf.toString('latin1').matchAll(/\(((?:\\.|[^\\)])*)\) Tj/g)].map((m) =>
		m[1].replace(/\\(.)/g, '$1'),
	);
}

describe('renderTemplate', () => {
	test('values, dotted paths, filters, loops and conditions', () => {
		const data = {
			a: { b: 'x' },
			n: 1234.5,
			list: [
				{ q: 2, p: 3 },
				{ q: 1, p: 10 },
			],
			empty: '',
		};
		expect(renderTemplate('{{ a.b | upcase }} {{ n | money }}', data)).toBe('X 1,234.50');
		expect(renderTemplate('{% for i in list %}[{{ i.q | times: i.p }}]{% endfor %}', data)).toBe(
			'[6][10]',
		);
		expect(
			renderTemplate('{% if empty %}y{% else %}n{% endif %}{% if a %}Y{% endif %}', data),
		).toBe('nY');
		expect(
			renderTemplate('{{ missing }}|{{ missing | default: "d" }}|{{ list | size }}', data),
		).toBe('|d|2');
	});
});

describe('the demo invoice', () => {
	const payload = {
		number: 'INV-1',
		issued_on: '2026-03-02',
		seller: { name: 'Babbage & Co.', address: '5 Dorset Street' },
		customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
		lines: [
			{ description: 'Maintenance', quantity: 2, unit_price: 350 },
			{ description: 'Cards', quantity: 3, unit_price: 24.5 },
		],
		currency: 'EUR',
		total: 773.5,
	};

	test('reads as an invoice: seller, customer, lines with amounts, total; not a dump of keys', () => {
		const text = pdfText(
			buildLayoutPdf({ text: renderTemplate(INVOICE_BODY, payload), title: 'invoice' }),
		);
		expect(text).toEqual(
			expect.arrayContaining([
				'Invoice INV-1',
				'Babbage & Co.',
				'Ada Lovelace',
				'Maintenance',
				'700.00',
				'73.50',
				'Total EUR 773.50',
			]),
		);
		expect(text.join('\n')).not.toMatch(/customer\.name|lines\.0/);
		const rows = text.indexOf('Maintenance');
		expect(text.slice(rows, rows + 4)).toEqual(['Maintenance', '2', '350.00', '700.00']);
	});
});
