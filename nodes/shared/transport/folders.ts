/** The service's template folders, kept per workspace (`app_id`). */
import type { IDataObject } from 'n8n-workflow';

import type { CallOptions, TransportContext } from '../types';
import { restResource } from './records';
import { templateFolderEnvelope, templateFolderListEnvelope } from './schemas';
import { listInWorkspace } from './workspaceList';

const folders = restResource(
	'template_folder',
	'/api/v1/template_folders',
	'template folder',
	templateFolderEnvelope,
);
export const getTemplateFolder = folders.get;
export const createTemplateFolder = folders.create;
export const updateTemplateFolder = folders.update;
export const deleteTemplateFolder = folders.remove;

/** Every template folder of a workspace (the service lists none without one). */
export async function listTemplateFolders(
	ctx: TransportContext,
	workspaceId: string,
	options: CallOptions = {},
): Promise<IDataObject[]> {
	return await listInWorkspace(
		ctx,
		{
			path: '/api/v1/template_folders',
			key: 'template_folders',
			workspaceKey: 'app_id',
			what: 'list template folders',
			name: 'template folder list',
			schema: templateFolderListEnvelope,
		},
		workspaceId,
		options,
	);
}
