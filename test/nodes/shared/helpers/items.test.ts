/**
 * Execution Logic v2's file references in an item's JSON: when the workflow keeps files
 * there, and data taken from an item without them (the item's own data never changed). Pure.
 */
import type { IExecuteFunctions, IWorkflowSettings } from 'n8n-workflow';

import {
	FILES_IN_JSON,
	filesLiveInJson,
	withoutFileReferences,
} from '../../../../nodes/shared/helpers/items';

type Settings = Pick<IExecuteFunctions, 'getWorkflowSettings'>;
const settings = (value: unknown): Settings => ({
	getWorkflowSettings: () => value as IWorkflowSettings,
});

test('files live in the JSON only when the workflow says binaryMode "combined"', () => {
	expect(filesLiveInJson(settings({ binaryMode: 'combined' }))).toBe(true);
	expect(filesLiveInJson(settings({ binaryMode: 'separate' }))).toBe(false);
	expect(filesLiveInJson(settings({}))).toBe(false);
	expect(filesLiveInJson(settings(undefined))).toBe(false);
	// n8n 1.x: no such method on the context.
	expect(filesLiveInJson({} as Settings)).toBe(false);
});

test('the references are left out of a copy, only when files live in the JSON', () => {
	const data = { [FILES_IN_JSON]: { logo: { id: 'ref' } }, name: 'Ada', files: 'kept' };
	expect(withoutFileReferences(data, true)).toEqual({ name: 'Ada', files: 'kept' });
	expect(data._files).toEqual({ logo: { id: 'ref' } });
	expect(withoutFileReferences(data, false)).toBe(data);
	const none = { name: 'Ada' };
	expect(withoutFileReferences(none, true)).toBe(none);
});

test('only an own _files key is n8n’s: one inherited is not looked at', () => {
	const inherited = Object.create({ _files: 'from the prototype' }) as { name?: string };
	inherited.name = 'Ada';
	expect(withoutFileReferences(inherited, true)).toBe(inherited);
	expect(FILES_IN_JSON).toBe('_files');
});
