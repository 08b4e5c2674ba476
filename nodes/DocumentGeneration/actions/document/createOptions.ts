/**
 * Create's options for running a batch again (Unique Key, Reuse Window, When the Key's Data
 * Changed) beside the wait options, and what the look-up needs of one item (`readReuse`).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { parsePositiveInteger } from '../../../shared/helpers/parse';
import { waitOptions } from './generate';
import type { OnKeyConflict, ReuseRequest } from './reuse';
import { DEFAULT_REUSE_HOURS, DIGEST_FIELD, KEY_FIELD, digestOf, parseUniqueKey } from './reuse';

/** Create's options: running again safely (a Unique Key), then waiting. */
export const createOptions: INodeProperties = {
	...waitOptions,
	options: [
		{
			displayName: 'Unique Key',
			name: 'uniqueKey',
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.invoice_number }}',
			description:
				"A value naming the record each item's document is for, such as an invoice number or payment ID. A document already made for the key (within the Reuse Window) is reused instead of made again, so running the batch again, or the same record arriving twice, makes no second document. Stored in the document's meta as n8n_key.",
			hint: 'Costs one pass over the list of the template’s recent documents per run',
		},
		{
			displayName: 'Reuse Window (Hours)',
			name: 'reuseWindow',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_REUSE_HOURS,
			description:
				"How far back to look for a key's document (by its last update). A longer window finds older documents but reads more of the list on a busy account.",
		},
		{
			displayName: "When the Key's Data Changed",
			name: 'keyConflict',
			type: 'options',
			options: [
				{
					name: 'Fail the Item',
					value: 'fail',
					description: "Make nothing and name the key's document in the item's error",
				},
				{
					name: 'Regenerate the Document',
					value: 'regenerate',
					description: "Update the key's document with this item's data and generate it again",
				},
			],
			default: 'fail',
			description:
				"What to do when the key's document was made with another payload or meta than this item's",
		},
		...(waitOptions.options as INodeProperties[]),
	],
};

/**
 * What the look-up needs of one create; with a Unique Key, the write's meta is marked with
 * the key and the data's digest.
 */
export function readReuse(
	ctx: IExecuteFunctions,
	i: number,
	fields: IDataObject,
	generates: boolean,
): ReuseRequest {
	const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
	const digest = digestOf(fields);
	const templateId = String(fields.document_template_id);
	const onConflict: OnKeyConflict = options.keyConflict === 'regenerate' ? 'regenerate' : 'fail';
	const windowHours = parsePositiveInteger(
		options.reuseWindow ?? DEFAULT_REUSE_HOURS,
		'reuse window',
		'Set Options → Reuse Window to a number of hours, e.g. 24',
	);
	const reuse: ReuseRequest = { templateId, digest, windowHours, onConflict, fields, generates };
	if ('uniqueKey' in options) {
		reuse.key = parseUniqueKey(options.uniqueKey);
		fields.meta = {
			...((fields.meta as IDataObject | undefined) ?? {}),
			[KEY_FIELD]: reuse.key,
			[DIGEST_FIELD]: digest,
		};
	}
	return reuse;
}
