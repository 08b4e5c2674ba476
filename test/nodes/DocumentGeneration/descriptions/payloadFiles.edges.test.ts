/**
 * The edges of Files Into Payload that mutation testing found unpinned: MIME types as other
 * programs write them, a file of exactly the bound (engine, against the sandbox), and the
 * rows (the pure readers).
 */
import type { IDataObject } from 'n8n-workflow';

import {
	readFileRows,
	withFiles,
} from '../../../../nodes/DocumentGeneration/descriptions/payloadFiles';
import { useSandbox } from '../../../harness/use-sandbox';
import { creates, invoiceCreate, run } from '../helpers';

const sb = useSandbox({ pendingMs: 10, generatingMs: 30 });

const BYTES = Buffer.from('\x89PNG\r\n\x1a\n-a-tiny-logo-', 'binary');

/** The data URI the sandbox received at `logo` for one file of this MIME type. */
async function sentUri(mimeType: string, bytes = BYTES): Promise<unknown> {
	const result = await run(
		sb,
		invoiceCreate(sb, '{}', {
			payloadFiles: { files: [{ binaryPropertyName: 'logo', path: 'logo' }] },
			waitForCompletion: false,
		}),
		[{ $files: { logo: { base64: bytes.toString('base64'), mimeType } } }],
	);
	expect(result.error).toBeUndefined();
	const payload = (creates(sb)[0].body as { document: { payload: unknown } }).document.payload;
	return ((typeof payload === 'string' ? JSON.parse(payload) : payload) as IDataObject).logo;
}

test.each([
	['IMAGE/PNG', 'image/png'],
	['Image/SVG+XML; charset=UTF-8', 'image/svg+xml'],
	['image/png ; q=1', 'image/png'],
	['image/vnd.microsoft.icon', 'image/vnd.microsoft.icon'],
	['png', 'application/octet-stream'],
	['image/png/x', 'application/octet-stream'],
	['image/<script>', 'application/octet-stream'],
	['/png', 'application/octet-stream'],
	['image/', 'application/octet-stream'],
])('a file of MIME type %j goes in as %s', async (mimeType, sent) => {
	expect(await sentUri(mimeType)).toBe(`data:${sent};base64,${BYTES.toString('base64')}`);
});

test('a file of exactly 5 MB goes in (the bound is inclusive)', async () => {
	const exact = Buffer.alloc(5 * 1024 * 1024, 7);
	const uri = (await sentUri('image/png', exact)) as string;
	expect(uri.length).toBe('data:image/png;base64,'.length + exact.toString('base64').length);
});

describe('readFileRows', () => {
	test('nothing set, or not a list, is no rows', () => {
		expect(readFileRows(undefined)).toEqual([]);
		expect(readFileRows({})).toEqual([]);
		expect(readFileRows({ files: 'logo' })).toEqual([]);
	});

	test('rows are trimmed; a row left blank is skipped', () => {
		expect(
			readFileRows({
				files: [
					{ binaryPropertyName: ' logo ', path: ' company.logo ' },
					{ binaryPropertyName: ' ', path: '' },
					{},
					{ binaryPropertyName: 'sig', path: 'signature' },
				],
			}),
		).toEqual([
			{ property: 'logo', path: 'company.logo' },
			{ property: 'sig', path: 'signature' },
		]);
	});

	test('a row with only one of the two is refused, naming its number and what it lacks', () => {
		const rows = (second: IDataObject) => ({
			files: [{ binaryPropertyName: 'logo', path: 'logo' }, second],
		});
		expect(() => readFileRows(rows({ binaryPropertyName: 'sig' }))).toThrow(
			'Files Into Payload → file 2 has no Payload Path',
		);
		expect(() => readFileRows(rows({ path: 'signature', binaryPropertyName: ' ' }))).toThrow(
			'Files Into Payload → file 2 has no Input Binary Field',
		);
		const refusal = (() => {
			try {
				readFileRows(rows({ path: 'signature' }));
			} catch (error) {
				return error as { hint: string };
			}
			return undefined;
		})();
		expect(refusal?.hint).toMatch(/the name of the input file \(e\.g\. data\)/);
	});
});

test('withFiles puts each file at its path, later rows winning, the payload given unchanged', () => {
	const payload = { company: { name: 'Acme' } };
	const files = [
		{ property: 'a', path: 'company.logo', uri: 'data:a' },
		{ property: 'b', path: 'company.logo', uri: 'data:b' },
		{ property: 'c', path: 'sig', uri: 'data:c' },
	];
	expect(withFiles(payload, files)).toEqual({
		company: { name: 'Acme', logo: 'data:b' },
		sig: 'data:c',
	});
	expect(payload).toEqual({ company: { name: 'Acme' } });
	expect(() => withFiles({ sig: 'x' }, [{ property: 'c', path: 'sig.x', uri: 'd' }])).toThrow(
		/file "c" goes under "sig"/,
	);
});
