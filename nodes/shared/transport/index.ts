/** What nodes and helpers may use of the transport; its modules never import this file. */
export { CREDENTIAL_TYPE } from './exchange';
export { isNotFound, isOutcomeUnknown } from './errors';
export {
	DEFAULT_PAGE_SIZE,
	MAX_LIST_PAGES,
	checkPageBound,
	createDocument,
	createDocumentSync,
	deleteDocument,
	getAccount,
	getDocument,
	getDocumentCard,
	listDocumentCards,
	scanDocumentCards,
	updateDocument,
} from './documents';
export {
	createRestHook,
	createSnippet,
	createTemplate,
	createTemplateFolder,
	deleteRestHook,
	deleteSnippet,
	deleteTemplate,
	deleteTemplateFolder,
	getSnippet,
	getTemplate,
	getTemplateDraftPreview,
	getTemplateFolder,
	listPdfEngines,
	listSnippets,
	listTemplateCards,
	type TemplateListing,
	listTemplateFolders,
	listWorkspaceCards,
	updateSnippet,
	updateTemplate,
	updateTemplateFolder,
} from './library';
export { FRESH_LINK_MS, downloadToBinary, withLinkOf, type DownloadedFile } from './files';
export {
	DEFAULT_MAX_LIMIT_WAIT_MS,
	heldByLimit,
	limitReport,
	limitRequestsTo,
	type LimitSettings,
	type PaceStats,
} from './limit';
