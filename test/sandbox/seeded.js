'use strict';
// The bodies and sample data of the seeded templates that have them (invoice, payslip), and
// payslipData, which builds a payslip's data in the shape its template reads.

/**
 * The body of the seeded "invoice" template: Liquid the sandbox renders (render.js) into the
 * layout lines of pdf.js (# title, ## heading, --- rule, | table row |, >> total).
 */
const INVOICE_BODY = [
	'# Invoice {{ number }}',
	'Issued {{ issued_on | default: "on receipt" }}{% if due_on %} - due {{ due_on }}{% endif %}',
	'---',
	'## From',
	'{{ seller.name | default: "Acme Billing Ltd." }}',
	'{{ seller.address | default: "1 Ledger Lane, Bristol" }}',
	'{% if seller.vat %}VAT {{ seller.vat }}{% endif %}',
	'## Bill to',
	'{{ customer.name }}',
	'{{ customer.address }}',
	'{{ customer.email }}',
	'---',
	'| Description | Qty | Unit price | Amount |',
	'{% for line in lines %}| {{ line.description }} | {{ line.quantity }} | {{ line.unit_price | money }} | {{ line.quantity | times: line.unit_price | money }} |',
	'{% endfor %}---',
	'>> Total {{ currency }} {{ total | money }}',
	'',
	'{{ notes | default: "Thank you for your business." }}',
].join('\n');

/** The invoice's sample data, as the service's editor previews it (a string of JSON). */
const INVOICE_SAMPLE = JSON.stringify({
	number: 'INV-2026-001',
	issued_on: '2026-11-01',
	due_on: '2026-11-30',
	seller: { name: 'Acme Billing Ltd.', address: '1 Ledger Lane, Bristol', vat: 'GB123456789' },
	customer: {
		name: 'Ada Lovelace',
		address: '12 St James Square, London',
		email: 'ada@example.com',
	},
	lines: [
		{ description: 'Analytical engine, design', quantity: 1, unit_price: 1200 },
		{ description: 'Punched cards', quantity: 40, unit_price: 2.5 },
	],
	currency: 'GBP',
	total: 1300,
	notes: 'Thank you for your business.',
});

/**
 * The seeded "payslip": a loop over earnings and one over deductions, conditions, defaults.
 * Its sample data also has `employer.registration`, which the body does not print (as a
 * snippet's variable would be).
 */
const PAYSLIP_BODY = [
	'# Payslip {{ period }}',
	'{{ employer.name | default: "Acme HR Ltd." }}',
	'---',
	'## Employee',
	'{{ employee.name }}',
	'Employee number {{ employee.number }}',
	'{% if employee.department %}Department {{ employee.department }}{% endif %}',
	'---',
	'| Earning | Hours | Rate | Amount |',
	'{% for earning in earnings %}| {{ earning.label }} | {{ earning.hours }} | {{ earning.rate | money }} | {{ earning.hours | times: earning.rate | money }} |',
	'{% endfor %}---',
	'| Deduction | | | Amount |',
	'{% for deduction in deductions %}| {{ deduction.label }} | | | -{{ deduction.amount | money }} |',
	'{% endfor %}---',
	'>> Net pay {{ currency | default: "EUR" }} {{ net_pay | money }}',
	'{% if bonus %}Includes a bonus of {{ bonus | money }}{% else %}No bonus this period{% endif %}',
].join('\n');

/** A payslip's list rows from their labels: earnings { label: [hours, rate] }, deductions { label: amount }. */
const PAYSLIP_ROWS = {
	earnings: ([label, [hours, rate]]) => ({ label, hours, rate }),
	deductions: ([label, amount]) => ({ label, amount }),
};

/**
 * A payslip's data in the shape its template reads (keys in the order given), `earnings` and
 * `deductions` given by label (PAYSLIP_ROWS) and made lists of rows.
 */
function payslipData(data) {
	return Object.fromEntries(
		Object.entries(data).map(([key, value]) => [
			key,
			PAYSLIP_ROWS[key] ? Object.entries(value).map(PAYSLIP_ROWS[key]) : value,
		]),
	);
}

const PAYSLIP_SAMPLE = JSON.stringify(
	payslipData({
		period: 'November 2026',
		employer: { name: 'Acme HR Ltd.', registration: 'HR-2020-77' },
		employee: { name: 'Grace Hopper', number: 1906, department: 'Compilers' },
		earnings: { 'Base salary': [160, 22.5], Overtime: [6, 33.75] },
		deductions: { 'Income tax': 702.4, Pension: 180 },
		currency: 'EUR',
		net_pay: 2920.1,
		bonus: 0,
	}),
);

/** Bodies and sample data of the seeded templates that have them (the others print their name). */
const SEEDED = {
	invoice: { body: INVOICE_BODY, sample_data: INVOICE_SAMPLE },
	payslip: { body: PAYSLIP_BODY, sample_data: PAYSLIP_SAMPLE },
};

module.exports = { INVOICE_BODY, PAYSLIP_BODY, SEEDED, payslipData };
