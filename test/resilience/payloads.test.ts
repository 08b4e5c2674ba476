/* eslint-disable no-console -- test code: runs in Node under jest, never inside n8n */
/**
 * Payload and meta go through intact: unicode of every kind, and payloads of several MB.
 * Checked three ways: the node's output, what the sandbox stored (what was really sent), and
 * the full Document fetched back.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness';
import { creds, op, useResilienceSandbox } from './helpers';

const sb = useResilienceSandbox();
let templateId: string;

beforeAll(() => {
	templateId = sb.templates[0].id;
});

const UNICODE = {
	emoji: '🙂 👩‍👩‍👧‍👦 🏳️‍🌈 👍🏽 🇫🇷',
	cjk: '漢字 かな カナ 한국어 中文（简体）',
	rtl: 'مرحبا بالعالم — שלום עולם \u200f(RTL mark)\u200e',
	combining: 'e\u0301 a\u0308 Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇',
	astral: '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝟘𝟙𝟚 𓀀',
	separators: 'line\u2028separator\u2029paragraph',
	controls: 'nul\u0000 tab\t newline\n bell\u0007 del\u007f',
	quotes: 'he said "hi" \\ back\\slash \'single\' `tick`',
	html: '<script>alert("x")</script> &amp; &lt;',
	'clé 名前 🔑': 'unicode key',
	nested: {
		list: ['ü', '名', '🙂', 'ع'],
		number: 1.5e-7,
		big: 9007199254740991,
		huge: 1e21,
		negative: -0.5,
		flag: true,
		nothing: null,
	},
};

const META = {
	customer: 'Zoë Ångström-Ødegaard',
	city: 'São Paulo',
	note: '请在周五前付款 🙏',
	rtl: 'فاتورة',
};
const FILENAME = 'facture-été-请求-🙂.pdf';

/** Compare as JSON would (the payload is JSON: -0 and 0 are the same, key order is kept). */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

test('unicode in payload, meta and file name round-trips through create, get, update and list', async () => {
	const created = await runNode({
		parameters: op.create(templateId, {
			payload: JSON.stringify(UNICODE),
			additionalFields: { meta: JSON.stringify(META), filename: FILENAME },
		}),
		credentials: creds(sb),
	});
	expect(created.error).toBeUndefined();
	const out = created.items[0].json;
	const id = String(out.id);
	const expectedMeta = { ...META, _filename: FILENAME };
	expect(out.payload).toEqual(asJson(UNICODE));
	expect(out.meta).toEqual(expectedMeta);

	// What the service stored is what was sent.
	const stored = sb.documents.get(id)!;
	expect(JSON.parse(stored.payload)).toEqual(asJson(UNICODE));
	expect(JSON.parse(stored.meta!)).toEqual(expectedMeta);
	const sent = sb.requests.find((q) => q.method === 'POST')!.body as { document: IDataObject };
	expect(sent.document.payload).toEqual(asJson(UNICODE));

	// The full Document fetched back.
	const full = await runNode({ parameters: op.get(id, true), credentials: creds(sb) });
	expect(full.error).toBeUndefined();
	expect(full.items[0].json.payload).toEqual(asJson(UNICODE));
	expect(full.items[0].json.meta).toEqual(expectedMeta);

	// The card (no payload) keeps the meta.
	const card = await runNode({ parameters: op.get(id), credentials: creds(sb) });
	expect(card.items[0].json.meta).toEqual(expectedMeta);
	expect('payload' in card.items[0].json).toBe(false);

	// Update with other unicode: stored and answered intact.
	const next = { ...UNICODE, emoji: '🚀✨', added: 'Ελληνικά Кириллица ไทย देवनागरी' };
	const updated = await runNode({
		parameters: op.update(id, {
			payload: JSON.stringify(next),
			meta: JSON.stringify({ rtl: 'تحديث' }),
			status: 'draft',
		}),
		credentials: creds(sb),
	});
	expect(updated.error).toBeUndefined();
	expect(JSON.parse(sb.documents.get(id)!.payload)).toEqual(asJson(next));
	expect(updated.items[0].json.meta).toEqual({ rtl: 'تحديث' });

	// The list shows the same meta.
	const list = await runNode({
		parameters: op.getAll({ returnAll: true, filters: { status: 'draft' } }),
		credentials: creds(sb),
	});
	const listed = list.items.find((i) => i.json.id === id);
	expect(listed?.json.meta).toEqual({ rtl: 'تحديث' });
});

test('a lone surrogate and an empty-string key survive as JSON escapes', async () => {
	const odd = { '': 'empty key', lone: 'x\ud800y', reversed: '\udc00\ud800' };
	const r = await runNode({
		parameters: op.create(templateId, { payload: odd as unknown as INodeParameters }),
		credentials: creds(sb),
	});
	expect(r.error).toBeUndefined();
	expect(JSON.parse(sb.documents.get(String(r.items[0].json.id))!.payload)).toEqual(odd);
});

test('keys named __proto__ and constructor in payload and meta arrive and are stored intact', async () => {
	// Written as JSON text, the way a user types them: JSON.parse makes them own keys.
	const payload = '{"__proto__": {"admin": true}, "constructor": {"prototype": 1}, "total": 5}';
	const meta = '{"order_id": "P-1", "__proto__": {"x": 1}}';
	sb.resetRequests();
	const r = await runNode({
		parameters: op.create(templateId, { payload, additionalFields: { meta } }),
		credentials: creds(sb),
	});
	expect(r.error).toBeUndefined();
	const sent = sb.requests.find((q) => q.method === 'POST')!;
	expect(JSON.stringify(sent.body)).toContain('"__proto__":{"admin":true}');
	const stored = sb.documents.get(String(r.items[0].json.id))!;
	expect(JSON.parse(stored.payload)).toEqual(JSON.parse(payload));
	expect(JSON.parse(stored.meta!)).toEqual(JSON.parse(meta));
	expect(Object.keys(JSON.parse(stored.payload))).toEqual(['__proto__', 'constructor', 'total']);
});

test('a payload of several MB goes through intact (create, then the full Document)', async () => {
	const rows = Array.from({ length: 20_000 }, (_, i) => ({
		i,
		name: `Ünïcødé 名前 🙂 ${i}`,
		text: `${'lorem ipsum '.repeat(16)}${i}`,
		amount: i * 1.25,
	}));
	const big = { title: 'Big 📄', rows };
	const size = Buffer.byteLength(JSON.stringify(big));
	expect(size).toBeGreaterThan(4 * 1024 * 1024);

	let started = Date.now();
	// As a workflow gives it: an expression that reads the input item.
	const created = await runNode({
		parameters: op.create(templateId, { payload: '={{ $json.data }}' }),
		items: [{ data: big }],
		credentials: creds(sb),
	});
	const createMs = Date.now() - started;
	expect(created.error).toBeUndefined();
	const id = String(created.items[0].json.id);
	const stored = sb.documents.get(id)!;
	expect(Buffer.byteLength(stored.payload)).toBeGreaterThanOrEqual(size);
	expect(JSON.parse(stored.payload)).toEqual(big);

	started = Date.now();
	const full = await runNode({ parameters: op.get(id, true), credentials: creds(sb) });
	const getMs = Date.now() - started;
	expect(full.error).toBeUndefined();
	expect(full.items[0].json.payload).toEqual(big);
	console.log(
		`payload of ${(size / 1024 / 1024).toFixed(1)} MB: create ${createMs} ms, get with payload ${getMs} ms`,
	);
});
