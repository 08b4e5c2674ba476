/** Parameter descriptions used by both nodes or by several operations. */
import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_MAX_FILE_MB, UUID_PATTERN } from './helpers/parse';

const UUID_REGEX = `^\\s*${UUID_PATTERN}\\s*$`;

/** A resource locator for a UUID: a searchable list (the default) or the ID typed in. */
function uuidLocator(spec: {
	displayName: string;
	name: string;
	what: string;
	description: string;
	placeholder: string;
	searchListMethod: string;
}): INodeProperties {
	return {
		displayName: spec.displayName,
		name: spec.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: spec.description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: spec.placeholder,
				typeOptions: { searchListMethod: spec.searchListMethod, searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d',
				validation: [
					{
						type: 'regex',
						properties: { regex: UUID_REGEX, errorMessage: `Not a valid ${spec.what} ID (a UUID)` },
					},
				],
			},
		],
	};
}

export const documentIdLocator = uuidLocator({
	displayName: 'Document',
	name: 'documentId',
	what: 'document',
	description:
		'The document: pick it from the list (type part of its file name or its ID to search), or enter its ID, a UUID such as 1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d',
	placeholder: 'Select a document or search by file name or ID…',
	searchListMethod: 'searchDocuments',
});

export const templateIdLocator = uuidLocator({
	displayName: 'Template',
	name: 'templateId',
	what: 'template',
	description:
		'The template to generate the document from: pick it from the list (type part of its name, folder or workspace to search), or enter its ID, a UUID such as 1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d',
	placeholder: 'Select a template or search by name…',
	searchListMethod: 'searchTemplates',
});

export const workspaceIdLocator = uuidLocator({
	displayName: 'Workspace',
	name: 'workspaceId',
	what: 'workspace',
	description:
		'The workspace: pick it from the list (type part of its name to search), or enter its ID, a UUID such as 1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d',
	placeholder: 'Select a workspace or search by name…',
	searchListMethod: 'searchWorkspaces',
});

export const templateIdsFilter: INodeProperties = {
	displayName: 'Template Names or IDs',
	name: 'templateIds',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getTemplates', loadOptionsDependsOn: ['filters.workspaceId'] },
	default: [],
	description:
		'Only documents of these templates. The list shows the templates of the workspace chosen in this filter, or all of them; an expression may give an array or a comma-separated list of template IDs (UUIDs). Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const workspaceIdFilter: INodeProperties = {
	displayName: 'Workspace Name or ID',
	name: 'workspaceId',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getWorkspaces' },
	default: '',
	description:
		'Only documents of this workspace (its ID is a UUID). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

type Show = Record<string, Array<string | boolean>>;

export const binaryPropertyName = (show: Show): INodeProperties => ({
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint: 'The name of the output binary field to put the file in',
	displayOptions: { show },
});

/** Max File Size (MB), shown beside the binary field wherever a file is downloaded. */
export const maxFileSize = (show: Show): INodeProperties => ({
	displayName: 'Max File Size (MB)',
	name: 'maxFileSize',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: DEFAULT_MAX_FILE_MB,
	description:
		'The largest file to accept, in MB; a larger one fails its item before it fills the disk of n8n. 0 means no limit.',
	displayOptions: { show },
});

export const returnAllAndLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

/** The Events of both triggers: which finished states start the workflow. */
export const triggerEvents: INodeProperties = {
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
		{ name: 'Generation Succeeded', value: 'success', description: 'A document’s file is ready' },
	],
	default: ['success'],
	description: 'Which finished states start the workflow. A document generated again fires again.',
};

/** The subtitle of both triggers, from their Events. */
export const TRIGGER_SUBTITLE =
	'={{ ($parameter["events"] || []).includes("failure") ? (($parameter["events"] || []).includes("success") ? "When a document is ready or fails" : "When a document fails") : "When a document is ready" }}';

/** Download File and its binary field, of both triggers (read with `parseFileOption`). */
export const triggerFileOptions: INodeProperties[] = [
	{
		displayName: 'Download File',
		name: 'download',
		type: 'boolean',
		default: false,
		description: 'Whether to attach the generated file as binary data (successful documents only)',
	},
	binaryPropertyName({ download: [true] }),
	maxFileSize({ download: [true] }),
];

export const snippetIdLocator = uuidLocator({
	displayName: 'Snippet',
	name: 'snippetId',
	what: 'snippet',
	description:
		'The snippet: pick it from the list (type part of its name or workspace to search), or enter its ID, a UUID such as 1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d',
	placeholder: 'Select a snippet or search by name…',
	searchListMethod: 'searchSnippets',
});

export const templateFolderIdLocator = uuidLocator({
	displayName: 'Template Folder',
	name: 'templateFolderId',
	what: 'template folder',
	description:
		'The template folder: pick it from the list (type part of its name or workspace to search), or enter its ID, a UUID such as 1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d',
	placeholder: 'Select a folder or search by name…',
	searchListMethod: 'searchTemplateFolders',
});
