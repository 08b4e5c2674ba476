/** What the Template Fields suites share: a template added to the sandbox, and its field list. */
import { randomBytes } from 'crypto';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { TemplateField } from '../../nodes/DocumentGeneration/templateFields/templateFields';
import { byId, templateId } from '../nodes/DocumentGeneration/helpers';
import type { Sandbox, TemplateRecord } from '../sandbox';
import { newTemplate } from '../sandbox/templates';
import { resourceMapping } from './editor';
import { credentialsFor } from './engine';

/**
 * A template of the sandbox with this body and sample data (an object, or JSON text as the
 * service keeps it); answers its id.
 */
export function addTemplate(
	sandbox: Sandbox,
	identifier: string,
	body: string,
	sampleData: unknown = {},
): string {
	const record = newTemplate({
		random: { bytes: (n: number) => randomBytes(n) },
		identifier,
		app_id: sandbox.workspaces[0].id,
		body,
		sample_data: typeof sampleData === 'string' ? sampleData : JSON.stringify(sampleData),
		created_at: Date.now(),
	});
	sandbox.templates.push(record as unknown as TemplateRecord);
	return record.id as string;
}

/** The editor's Template Fields answer for Create with this template (a resource locator). */
export async function fieldsOf(sandbox: Sandbox, template: unknown) {
	return await resourceMapping('getTemplateFields', {
		parameters: {
			resource: 'document',
			operation: 'create',
			templateId: template as INodeParameters,
		},
		credentials: credentialsFor(sandbox),
	});
}

/**
 * The editor's Line Fields of the Template answer for Create with this template (a resource
 * locator) and Line Items Path, all items into one document.
 */
export async function lineFieldsOf(sandbox: Sandbox, template: unknown, linesPath = 'lines') {
	return await resourceMapping('getTemplateLineFields', {
		parameters: {
			resource: 'document',
			operation: 'create',
			templateId: template as INodeParameters,
			grouping: 'all',
			linesPath,
		},
		credentials: credentialsFor(sandbox),
	});
}

/**
 * Create in Template Fields mode with the sandbox's invoice template, not waiting for the
 * file: these mapped values over this field list (`schema`), stored as n8n stores a mapping.
 */
export function templateFieldsCreate(
	sandbox: Sandbox,
	value: IDataObject | null,
	schema: IDataObject[],
	mappingMode = 'defineBelow',
): INodeParameters {
	return {
		resource: 'document',
		operation: 'create',
		templateId: byId(templateId(sandbox)),
		payloadMode: 'templateFields',
		waitForCompletion: false,
		mappedFields: {
			mappingMode,
			value,
			schema,
			matchingColumns: [],
			attemptToConvertTypes: false,
			convertFieldsToString: false,
		} as unknown as INodeParameters,
	};
}

/** A template field, printed and with no sample unless told. */
export const fieldOf = (path: string, extra: Partial<TemplateField> = {}): TemplateField => ({
	path,
	type: 'string',
	printed: true,
	sampleOnly: false,
	itemFields: [],
	...extra,
});
