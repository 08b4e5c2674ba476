/**
 * The transport's face: what nodes and helpers may use of the only code that speaks HTTP. The
 * modules import each other directly, never this file; what is not named here stays inside.
 */

// The credential, and what an error tells.
export { CREDENTIAL_TYPE } from './exchange';
export { isNotFound, isOutcomeUnknown } from './errors';

// Documents, the account, the paging of lists.
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

// Templates, workspaces, webhooks, the library (snippets, folders, engines).
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

// A finished document's file as binary data.
export { FRESH_LINK_MS, downloadToBinary, withLinkOf, type DownloadedFile } from './files';

// The request limit of an execution.
export {
	DEFAULT_MAX_LIMIT_WAIT_MS,
	heldByLimit,
	limitReport,
	limitRequestsTo,
	type LimitSettings,
	type PaceStats,
} from './limit';
