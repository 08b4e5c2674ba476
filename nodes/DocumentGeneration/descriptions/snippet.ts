/**
 * A snippet's fields (its name, the `identifier` a template includes it by, and its Liquid
 * `code`), as create and update show and read them.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputError } from '../../shared/helpers/parse';

const NAME_HINT = "e.g. company-footer: templates include it with {% include 'company-footer' %}";

export const snippetName: INodeProperties = {
	displayName: 'Name',
	name: 'identifier',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. company-footer',
	description: `The name templates include the snippet by, ${NAME_HINT}`,
};

export const snippetCode: INodeProperties = {
	displayName: 'Code (Liquid)',
	name: 'code',
	type: 'string',
	required: true,
	typeOptions: { rows: 8 },
	default: '',
	placeholder: 'e.g. <footer>{{ seller.name }}</footer>',
	description:
		'The HTML and Liquid of the snippet. Variables it reads come from the document’s payload.',
};

export const snippetFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'snippetFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	description: 'Only the fields added here are sent; everything else stays as it is',
	options: [
		{ ...snippetCode, required: false },
		{ ...snippetName, required: false },
	],
};

/** A name given for a snippet, trimmed; an empty one is refused. */
export function checkSnippetName(value: unknown): string {
	const name = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
	if (name === '')
		throw new InputError('The snippet name is empty', `Enter a name under Name, ${NAME_HINT}`);
	return name;
}

/** A snippet's code: text, sent as it is given. */
export function checkSnippetCode(value: unknown, required: boolean): string {
	const code = typeof value === 'string' ? value : value == null ? '' : String(value);
	if (required && code.trim() === '')
		throw new InputError(
			'The snippet code is empty',
			'Enter the HTML and Liquid of the snippet under Code, e.g. <footer>{{ seller.name }}</footer>',
		);
	return code;
}

/** Update Fields under the service's names; fields left out are not sent. */
export function readSnippetChanges(ctx: IExecuteFunctions, i: number): IDataObject {
	const raw = ctx.getNodeParameter('snippetFields', i, {}) as IDataObject;
	const fields: IDataObject = {};
	if (raw.identifier !== undefined) fields.identifier = checkSnippetName(raw.identifier);
	if (raw.code !== undefined) fields.code = checkSnippetCode(raw.code, false);
	if (!Object.keys(fields).length)
		throw new InputError(
			'Nothing to update: no field is given',
			'Add at least one field under Update Fields (Name or Code)',
		);
	return fields;
}
