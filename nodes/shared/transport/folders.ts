/** The service's template folders, kept per workspace (`app_id`). */
import { templateFolderEnvelope, templateFolderListEnvelope } from './schemas';
import { workspaceResource } from './workspaceList';

const folders = workspaceResource({
	key: 'template_folder',
	path: '/api/v1/template_folders',
	noun: 'template folder',
	schema: templateFolderEnvelope,
	list: {
		key: 'template_folders',
		workspaceKey: 'app_id',
		what: 'list template folders',
		name: 'template folder list',
		schema: templateFolderListEnvelope,
	},
});
export const getTemplateFolder = folders.get;
export const createTemplateFolder = folders.create;
export const updateTemplateFolder = folders.update;
export const deleteTemplateFolder = folders.remove;
/** Every template folder of a workspace (the service lists none without one). */
export const listTemplateFolders = folders.list;
