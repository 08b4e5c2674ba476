import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as account from './actions/account/Account.resource';
import * as document from './actions/document/Document.resource';
import * as snippet from './actions/snippet/Snippet.resource';
import * as template from './actions/template/Template.resource';
import * as templateFolder from './actions/templateFolder/TemplateFolder.resource';
import { router } from './actions/router';
import * as listSearch from '../shared/methods/listSearch';
import * as loadOptions from '../shared/methods/loadOptions';
import { resourceMapping } from './templateFields/resourceMapper';

export class DocumentGeneration implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Generation (PDFMonkey)',
		name: 'documentGeneration',
		icon: {
			light: 'file:../../icons/documentGeneration.svg',
			dark: 'file:../../icons/documentGeneration.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle:
			'={{ ({ create: "Create", get: "Get", getAll: "Get many", update: "Update", delete: "Delete", download: "Download" }[$parameter["operation"]] || $parameter["operation"]) + " " + ({ document: "document", template: "template", account: "account", templateFolder: "template folder", snippet: "snippet" }[$parameter["resource"]] || $parameter["resource"]) + ($parameter["operation"] === "getAll" ? "s" : "") }}',
		description:
			'Generate PDF documents from templates and JSON data, wait for them and download the files',
		defaults: { name: 'PDFMonkey' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'documentGenerationApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Document', value: 'document' },
					{ name: 'My Account', value: 'account' },
					{ name: 'Snippet', value: 'snippet' },
					{ name: 'Template', value: 'template' },
					{ name: 'Template Folder', value: 'templateFolder' },
				],
				default: 'document',
			},
			...document.description,
			...template.description,
			...templateFolder.description,
			...snippet.description,
			...account.description,
		],
	};

	methods = { listSearch, loadOptions, resourceMapping };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
