/** Name/value rows, the no-code way to give data: Create's Payload Fields and Line Fields. */
import type { INodeProperties } from 'n8n-workflow';

/** A list of name/value rows (dots in a name make nested objects), as n8n's fixedCollection. */
export function nameValueRows(spec: {
	displayName: string;
	name: string;
	placeholder: string;
	description: string;
	hint?: string;
	show: Record<string, string[]>;
	examples: { key: string; value: string };
}): INodeProperties {
	return {
		displayName: spec.displayName,
		name: spec.name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		placeholder: spec.placeholder,
		default: {},
		description: spec.description,
		...(spec.hint ? { hint: spec.hint } : {}),
		displayOptions: { show: spec.show },
		options: [
			{
				displayName: 'Field',
				name: 'values',
				values: [
					{
						displayName: 'Name',
						name: 'key',
						type: 'string',
						default: '',
						placeholder: spec.examples.key,
						description: 'The variable name the template uses; dots make nested objects',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: spec.examples.value,
						description: 'The value; an expression may give a number, a list or an object',
					},
				],
			},
		],
	};
}
