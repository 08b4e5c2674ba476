'use strict';
// Builds the files the sandbox "generates": a hand-made PDF 1.4 (Helvetica text,
// uncompressed content streams, exact xref offsets) and, for image templates, a small PNG.

const zlib = require('zlib');

const PAGE_WIDTH = 612; // US Letter, points
const PAGE_HEIGHT = 792;
const MARGIN = 56;
const BODY_SIZE = 10;
const LEADING = 14;
const TITLE_SIZE = 18;
// Helvetica averages about 0.5 em per character; 0.58 keeps most lines inside the margin.
const MAX_CHARS = Math.floor((PAGE_WIDTH - 2 * MARGIN) / (BODY_SIZE * 0.58));
const TITLE_MAX_CHARS = Math.floor((PAGE_WIDTH - 2 * MARGIN) / (TITLE_SIZE * 0.6));

// Letters that NFKD does not decompose into ASCII.
const TRANSLIT = {
	ß: 'ss',
	æ: 'ae',
	Æ: 'AE',
	œ: 'oe',
	Œ: 'OE',
	ø: 'o',
	Ø: 'O',
	ł: 'l',
	Ł: 'L',
	đ: 'd',
	Đ: 'D',
	þ: 'th',
	Þ: 'Th',
	'\u2018': "'",
	'\u2019': "'",
	'\u201c': '"',
	'\u201d': '"',
	'\u2013': '-',
	'\u2014': '-',
	'\u2026': '...',
	'\u20ac': 'EUR',
	'\u00a0': ' ',
};

/** Reduces text to printable ASCII: accents are stripped, a few letters transliterated, anything else becomes '?'. */
function toAscii(text) {
	return String(text)
		.replace(
			/[ßæÆœŒøØłŁđĐþÞ\u2018\u2019\u201c\u201d\u2013\u2014\u2026\u20ac\u00a0]/g,
			(c) => TRANSLIT[c],
		)
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/[\r\n\t]+/g, ' ')
		.replace(/[^\x20-\x7e]/g, '?');
}

/** Escapes a string for a PDF literal string: \ ( ) */
function pdfString(text) {
	return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

function scalarText(value) {
	if (value === null) return 'null';
	if (typeof value === 'string') return value;
	return String(value);
}

/** Flattens a payload into "key: value" lines, nested keys dotted (items.0.name). */
function payloadLines(payload) {
	const lines = [];
	const walk = (value, prefix) => {
		if (value !== null && typeof value === 'object') {
			const keys = Object.keys(value);
			if (!keys.length) {
				if (prefix) lines.push(`${prefix}: ${Array.isArray(value) ? '[]' : '{}'}`);
				return;
			}
			for (const k of keys) walk(value[k], prefix ? `${prefix}.${k}` : k);
			return;
		}
		lines.push(prefix ? `${prefix}: ${scalarText(value)}` : scalarText(value));
	};
	walk(payload, '');
	return lines;
}

/** Wraps one line to at most `max` characters, at spaces when possible. */
function wrap(line, max, indent = '    ') {
	const out = [];
	let rest = line;
	let first = true;
	while (rest.length > 0) {
		const room = first ? max : max - indent.length;
		if (rest.length <= room) {
			out.push(first ? rest : indent + rest);
			break;
		}
		let cut = rest.lastIndexOf(' ', room);
		if (cut < room / 2) cut = room;
		out.push((first ? '' : indent) + rest.slice(0, cut));
		rest = rest.slice(cut).replace(/^ /, '');
		first = false;
	}
	return out.length ? out : [''];
}

/** The PDF file around pages of content operators: fonts, page footers, xref. */
function assemble(pages, title) {
	pages.forEach((ops, i) => {
		ops.push(
			'BT',
			'/F1 8 Tf',
			`${MARGIN} ${MARGIN - 8} Td`,
			`${pdfString(`Page ${i + 1} of ${pages.length}`)} Tj`,
			'ET',
		);
	});

	// Object numbers: 1 catalog, 2 pages, 3 Helvetica, 4 Helvetica-Bold, 5 info,
	// then for page i: page object 6+2i and its content stream 7+2i.
	const objects = [];
	const pageIds = pages.map((_, i) => 6 + 2 * i);
	objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
	objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
	objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
	objects[4] =
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
	objects[5] = `<< /Title ${pdfString(title)} /Producer (document generation sandbox) >>`;
	pages.forEach((ops, i) => {
		const stream = `${ops.join('\n')}\n`;
		objects[6 + 2 * i] =
			`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
			`/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${7 + 2 * i} 0 R >>`;
		objects[7 + 2 * i] =
			`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}endstream`;
	});

	const chunks = [];
	let length = 0;
	const put = (data) => {
		const buf = Buffer.isBuffer(data) ? data : Buffer.from(data, 'latin1');
		chunks.push(buf);
		length += buf.length;
	};
	put('%PDF-1.4\n');
	put(Buffer.from([0x25, 0xe2, 0xe3, 0xcf, 0xd3, 0x0a])); // binary marker comment
	const offsets = [];
	for (let n = 1; n < objects.length; n++) {
		offsets[n] = length;
		put(`${n} 0 obj\n${objects[n]}\nendobj\n`);
	}
	const xrefAt = length;
	let xref = `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
	for (let n = 1; n < objects.length; n++)
		xref += `${String(offsets[n]).padStart(10, '0')} 00000 n \n`;
	put(xref);
	put(
		`trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xrefAt}\n%%EOF`,
	);
	return Buffer.concat(chunks, length);
}

/**
 * Builds a PDF showing `title` and the payload as "key: value" lines.
 * @param {{title: string, payload: unknown, subtitle?: string}} input
 * @returns {Buffer}
 */
function buildPdf({ title, payload, subtitle }) {
	const titleLines = wrap(toAscii(title || 'Document'), TITLE_MAX_CHARS, '');
	let body = payloadLines(payload === undefined ? {} : payload).map(toAscii);
	if (!body.length) body = ['(empty payload)'];
	const wrapped = [];
	for (const line of body) wrapped.push(...wrap(line, MAX_CHARS));

	// Paginate: the first page carries the title block.
	const top = PAGE_HEIGHT - MARGIN;
	const bottom = MARGIN + 24; // room for the footer
	const pages = [];
	let index = 0;
	do {
		const isFirst = pages.length === 0;
		const ops = [];
		let y = top;
		if (isFirst) {
			ops.push('BT', `/F2 ${TITLE_SIZE} Tf`, `${MARGIN} ${y - TITLE_SIZE} Td`);
			titleLines.forEach((t, i) => {
				if (i > 0) ops.push(`0 -${TITLE_SIZE + 4} Td`);
				ops.push(`${pdfString(t)} Tj`);
			});
			ops.push('ET');
			y -= TITLE_SIZE + (titleLines.length - 1) * (TITLE_SIZE + 4) + 10;
			if (subtitle) {
				ops.push(
					'BT',
					`/F1 9 Tf`,
					`${MARGIN} ${y - 9} Td`,
					`${pdfString(toAscii(subtitle))} Tj`,
					'ET',
				);
				y -= 9 + 6;
			}
			y -= LEADING;
		} else {
			ops.push(
				'BT',
				`/F2 11 Tf`,
				`${MARGIN} ${y - 11} Td`,
				`${pdfString(`${titleLines[0]} (continued)`)} Tj`,
				'ET',
			);
			y -= 11 + LEADING + 6;
		}
		const room = Math.max(1, Math.floor((y - bottom) / LEADING) + 1);
		const chunk = wrapped.slice(index, index + room);
		index += chunk.length;
		if (chunk.length) {
			ops.push('BT', `/F1 ${BODY_SIZE} Tf`, `${MARGIN} ${y} Td`);
			chunk.forEach((line, i) => {
				if (i > 0) ops.push(`0 -${LEADING} Td`);
				ops.push(`${pdfString(line)} Tj`);
			});
			ops.push('ET');
		}
		pages.push(ops);
	} while (index < wrapped.length);

	return assemble(pages, titleLines.join(' '));
}

// ---- PNG (for templates whose output_type is 'image') ----

let crcTable = null;
function crc32(buf) {
	if (!crcTable) {
		crcTable = new Int32Array(256);
		for (let n = 0; n < 256; n++) {
			let c = n;
			for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
			crcTable[n] = c;
		}
	}
	let crc = -1;
	for (let i = 0; i < buf.length; i++) crc = crcTable[(crc ^ buf[i]) & 0xff] ^ (crc >>> 8);
	return (crc ^ -1) >>> 0;
}

function pngChunk(type, data) {
	const len = Buffer.alloc(4);
	len.writeUInt32BE(data.length);
	const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(body));
	return Buffer.concat([len, body, crc]);
}

/**
 * A small RGB PNG whose colours derive from `seedText` (so different documents differ).
 * @returns {Buffer}
 */
function buildPng(seedText, width = 120, height = 40) {
	let h = 0;
	for (const ch of String(seedText)) h = (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0;
	const c1 = [h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff];
	const c2 = [255 - c1[0], 255 - c1[1], 255 - c1[2]];
	const raw = Buffer.alloc((width * 3 + 1) * height);
	for (let y = 0; y < height; y++) {
		const row = y * (width * 3 + 1);
		raw[row] = 0; // filter: none
		for (let x = 0; x < width; x++) {
			const c = ((x >> 3) + (y >> 3)) % 2 ? c1 : c2;
			raw.set(c, row + 1 + x * 3);
		}
	}
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(width, 0);
	ihdr.writeUInt32BE(height, 4);
	ihdr[8] = 8; // bit depth
	ihdr[9] = 2; // truecolour
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		pngChunk('IHDR', ihdr),
		pngChunk('IDAT', zlib.deflateSync(raw)),
		pngChunk('IEND', Buffer.alloc(0)),
	]);
}

/** Width of a text in points, Helvetica, roughly (by kind of character). */
function textWidth(text, size) {
	let em = 0;
	for (const c of text) {
		if (/[0-9]/.test(c)) em += 0.556;
		else if (/[A-Z]/.test(c)) em += 0.68;
		else if (/[ .,:;'!|il]/.test(c)) em += 0.28;
		else em += 0.53;
	}
	return em * size;
}

/** Table columns: description, then three right-aligned number columns ending at these x. */
const COLUMNS = [{ x: MARGIN }, { right: 380 }, { right: 470 }, { right: PAGE_WIDTH - MARGIN }];

/**
 * A document laid out from rendered template text, one instruction per line:
 * `# Title`, `## Heading`, `---` (a rule), `| a | b | c | d |` (a table row; the first row
 * after a rule is bold), `>> text` (right-aligned, bold), a blank line (space), or text.
 */
function buildLayoutPdf({ text, title }) {
	const pages = [[]];
	const top = PAGE_HEIGHT - MARGIN;
	const bottom = MARGIN + 24;
	let y = top;
	let headerRow = true;
	const page = () => pages[pages.length - 1];
	const room = (h) => {
		if (y - h < bottom) {
			pages.push([]);
			y = top;
		}
	};
	const write = (str, x, size, bold) =>
		page().push(
			'BT',
			`/F${bold ? 2 : 1} ${size} Tf`,
			`${x.toFixed(1)} ${y.toFixed(1)} Td`,
			`${pdfString(str)} Tj`,
			'ET',
		);
	for (const raw of String(text).split('\n')) {
		const line = raw.trim();
		if (line === '') {
			y -= LEADING / 2;
			continue;
		}
		if (line === '---') {
			room(LEADING);
			y -= 4;
			page().push('0.6 G', '0.5 w', `${MARGIN} ${y} m ${PAGE_WIDTH - MARGIN} ${y} l S`, '0 G');
			y -= LEADING;
			headerRow = true;
			continue;
		}
		const heading = /^(#{1,2})\s+(.*)$/.exec(line);
		if (heading) {
			const size = heading[1] === '#' ? 22 : 11;
			room(size + 8);
			y -= heading[1] === '#' ? size : 6;
			write(toAscii(heading[2]), MARGIN, size, true);
			y -= heading[1] === '#' ? 14 : LEADING;
			continue;
		}
		if (line.startsWith('|')) {
			const cells = line
				.replace(/^\||\|$/g, '')
				.split('|')
				.map((c) => toAscii(c.trim()));
			room(LEADING);
			cells.slice(0, COLUMNS.length).forEach((cell, i) => {
				const column = COLUMNS[i];
				const x = column.right === undefined ? column.x : column.right - textWidth(cell, BODY_SIZE);
				if (cell) write(cell, x, BODY_SIZE, headerRow);
			});
			headerRow = false;
			y -= LEADING;
			continue;
		}
		if (line.startsWith('>>')) {
			const str = toAscii(line.slice(2).trim());
			room(LEADING);
			write(str, PAGE_WIDTH - MARGIN - textWidth(str, 12), 12, true);
			y -= LEADING + 2;
			continue;
		}
		for (const part of wrap(toAscii(line), MAX_CHARS, '')) {
			room(LEADING);
			write(part, MARGIN, BODY_SIZE, false);
			y -= LEADING;
		}
	}
	return assemble(pages, toAscii(title || 'Document'));
}

module.exports = { buildPdf, buildLayoutPdf, buildPng, payloadLines, toAscii };
