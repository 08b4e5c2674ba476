#!/usr/bin/env node
'use strict';
/* `npm run demo`: runs the example workflow examples/generate-invoice.json (Manual
 * Trigger -> Document Generation: create with payload and meta, wait, download) on the real
 * n8n engine against the local sandbox, writes the PDF into demo-output/ and prints a short
 * summary. Needs the built package (npm run demo builds first). */
const fs = require('fs');
const path = require('path');
const { requestKind: kindOf, runScript } = require('./ts-register');

const root = path.resolve(__dirname, '..');
const WORKFLOW = 'generate-invoice.json';
const NODE = 'Generate invoice PDF';

async function main() {
	const { startSandbox } = require('../test/sandbox');
	const { credentialsFor, getBinaryBuffer, runWorkflow } = require('../test/harness');
	const { forHarness, readExample } = require('../test/examples');

	// A generation takes about 1.5 s, as a small real document does.
	const sb = await startSandbox({ pendingMs: 100, generatingMs: 1400 });
	try {
		const invoice = sb.templates.find((t) => t.identifier === 'invoice');
		const example = readExample(WORKFLOW);
		const started = Date.now();
		const result = await runWorkflow(forHarness(example, { templateId: invoice.id }), {
			credentials: credentialsFor(sb),
		});
		const seconds = (Date.now() - started) / 1000;
		if (result.error)
			throw new Error(
				`the workflow failed: ${result.error.message} (${result.error.description ?? ''})`,
			);
		const item = result.data[NODE]?.[0]?.[0];
		const binary = item?.binary?.data;
		if (!item || !binary) throw new Error(`the node "${NODE}" gave no file`);

		const bytes = await getBinaryBuffer(binary);
		const outDir = path.join(root, 'demo-output');
		fs.mkdirSync(outDir, { recursive: true });
		const outFile = path.join(outDir, path.basename(binary.fileName || `${item.json.id}.pdf`));
		fs.writeFileSync(outFile, bytes);

		const counts = {};
		for (const request of sb.requests) counts[kindOf(request)] = (counts[kindOf(request)] || 0) + 1;
		const files = sb.requests.filter((r) => r.path.startsWith('/files/'));
		const doc = item.json;
		const lines = [
			'',
			'Document generation demo: one invoice through the real n8n engine',
			`  workflow   examples/${WORKFLOW} (${example.nodes
				.filter((n) => n.type !== 'n8n-nodes-base.stickyNote')
				.map((n) => n.name)
				.join(' -> ')})`,
			`  service    local sandbox at ${sb.url} (stand-in for the PDFMonkey API, ~1.5 s per generation)`,
			`  document   ${doc.id}, status ${doc.status}, template ${doc.document_template_identifier}`,
			`  meta       ${JSON.stringify(doc.meta)}  ->  {{ $json.meta.order_id }} = ${doc.meta && doc.meta.order_id}`,
			`  file       ${binary.fileName}, ${binary.mimeType}, ${bytes.length} bytes, starts with ${JSON.stringify(bytes.subarray(0, 5).toString('latin1'))}`,
			`  requests   ${Object.entries(counts)
				.map(([k, v]) => `${v} ${k}`)
				.join(', ')}` +
				` (file fetched ${files.every((r) => r.authorization === undefined) ? 'without' : 'WITH'} an Authorization header)`,
			`  time       ${seconds.toFixed(2)} s from trigger to file`,
			'',
			`Wrote ${path.relative(process.cwd(), outFile) || outFile}`,
			'',
		];
		console.log(lines.join('\n'));
	} finally {
		await sb.close();
	}
}

runScript('demo', main);
