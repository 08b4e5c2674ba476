import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	TRIGGER_SUBTITLE,
	triggerEvents,
	triggerFileOptions,
	templateIdsFilter,
	workspaceIdFilter,
} from '../shared/descriptions';
import { listSearch, loadOptions } from '../shared/methods';
import { poll } from './poll';

export class DocumentGenerationTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Generation (PDFMonkey) Trigger',
		name: 'documentGenerationTrigger',
		icon: {
			light: 'file:../../icons/documentGeneration.svg',
			dark: 'file:../../icons/documentGeneration.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: TRIGGER_SUBTITLE,
		description: 'Starts the workflow when documents finish generating (success or failure)',
		defaults: { name: 'PDFMonkey Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'documentGenerationApi', required: true }],
		properties: [
			triggerEvents,
			{
				displayName: 'Filters',
				name: 'filters',
				type: 'collection',
				placeholder: 'Add Filter',
				default: {},
				options: [{ ...workspaceIdFilter }, { ...templateIdsFilter }],
			},
			...triggerFileOptions,
		],
	};

	methods = { listSearch, loadOptions };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await poll.call(this);
	}
}
