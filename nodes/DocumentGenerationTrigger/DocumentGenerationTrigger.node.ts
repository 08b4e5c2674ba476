import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { binaryPropertyName, templateIdsFilter, workspaceIdFilter } from '../shared/descriptions';
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
		subtitle:
			'={{ ($parameter["events"] || []).includes("failure") ? (($parameter["events"] || []).includes("success") ? "When a document is ready or fails" : "When a document fails") : "When a document is ready" }}',
		description: 'Starts the workflow when documents finish generating (success or failure)',
		defaults: { name: 'PDFMonkey Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'documentGenerationApi', required: true }],
		properties: [
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				options: [
					{
						name: 'Generation Failed',
						value: 'failure',
						description: 'A document could not be generated',
					},
					{
						name: 'Generation Succeeded',
						value: 'success',
						description: 'A document’s file is ready',
					},
				],
				default: ['success'],
				description:
					'Which finished states start the workflow. A document generated again fires again.',
			},
			{
				displayName: 'Filters',
				name: 'filters',
				type: 'collection',
				placeholder: 'Add Filter',
				default: {},
				options: [{ ...workspaceIdFilter }, { ...templateIdsFilter }],
			},
			{
				displayName: 'Download File',
				name: 'download',
				type: 'boolean',
				default: false,
				description:
					'Whether to attach the generated file as binary data (successful documents only)',
			},
			binaryPropertyName({ download: [true] }),
		],
	};

	methods = { listSearch, loadOptions };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await poll.call(this);
	}
}
