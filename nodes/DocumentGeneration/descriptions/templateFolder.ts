/** A template folder's one field: its name (`identifier`). */
import type { INodeProperties } from 'n8n-workflow';

import { InputError } from '../../shared/helpers/parse';

export const folderName = (description: string): INodeProperties => ({
	displayName: 'Name',
	name: 'identifier',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. Billing',
	description,
});

/** A folder name, trimmed; an empty one is refused. */
export function checkFolderName(value: unknown): string {
	const name = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
	if (name === '')
		throw new InputError('The folder name is empty', 'Enter a name under Name, e.g. "Billing"');
	return name;
}
