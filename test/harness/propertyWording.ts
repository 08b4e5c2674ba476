/** Checks on a property as the editor shows it: every label and help text, its options' values. */
import type {
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';

import { displayedNames, displayedProperty } from './editor';
import { loadPackage } from './package';

/** The values of an options property, in the order the editor lists them. */
export const optionValues = (p: INodeProperties) =>
	((p.options ?? []) as INodePropertyOptions[]).map((o) => o.value);

/** Every label and help text of a property, its options and its collection's fields. */
export function expectWorded(
	p: INodeProperties | INodePropertyOptions | INodePropertyCollection,
): void {
	expect([p.name, 'displayName' in p ? p.displayName : p.name]).not.toContain('');
	if ('description' in p && p.description !== undefined) expect(p.description).not.toBe('');
	if ('placeholder' in p && p.placeholder !== undefined) expect(p.placeholder).not.toBe('');
	if ('hint' in p && p.hint !== undefined) expect(p.hint).not.toBe('');
	for (const option of ('options' in p ? p.options : undefined) ?? []) expectWorded(option);
	for (const field of ('values' in p ? p.values : undefined) ?? []) expectWorded(field);
}

const CREATE: INodeParameters = { resource: 'document', operation: 'create' };

/**
 * Create's properties as the editor shows them. Call `load()` inside the test: mutation testing
 * counts a field as reached only by the test during which the package loaded.
 */
export function createEditor() {
	let action: INodeTypeDescription | undefined;
	const loaded = (): INodeTypeDescription => {
		if (!action) throw new Error('Load the package inside the test first');
		return action;
	};
	return {
		async load(): Promise<INodeTypeDescription> {
			action = (await loadPackage()).nodeDescription('documentGeneration');
			return action;
		},
		one: (name: string, values: INodeParameters = {}): INodeProperties =>
			displayedProperty(loaded(), { ...CREATE, ...values }, name),
		shownNames: (values: INodeParameters = {}): string[] =>
			displayedNames(loaded(), { ...CREATE, ...values }),
	};
}
