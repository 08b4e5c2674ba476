/**
 * The transport's face: the only code that speaks HTTP, and what nodes and helpers may use
 * of it. The modules below import each other directly, never this file; what is not named
 * here (one exchange and its attempts, the gate, the retry policy, the wire) stays inside.
 * `../download.ts`, the file side of the floor, also reads the file host's answers with the
 * small pieces of `files.ts` and `wire.ts`.
 */

// The credential and the shape of a call.
export { CREDENTIAL_TYPE } from './calls';
export { isNotFound, isOutcomeUnknown } from './apiErrors';

// Documents, the account.
export {
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
export { DEFAULT_PAGE_SIZE, MAX_LIST_PAGES } from './paging';

// Templates, workspaces, the library (snippets, folders, engines), webhooks.
export {
	createTemplate,
	deleteTemplate,
	getTemplate,
	listTemplateCards,
	listWorkspaceCards,
	updateTemplate,
} from './templates';
export { createSnippet, deleteSnippet, getSnippet, listSnippets, updateSnippet } from './snippets';
export {
	createTemplateFolder,
	deleteTemplateFolder,
	getTemplateFolder,
	listTemplateFolders,
	updateTemplateFolder,
} from './folders';
export { listPdfEngines } from './engines';
export { createRestHook, deleteRestHook } from './hooks';

// The request limit of an execution.
export {
	DEFAULT_MAX_LIMIT_WAIT_MS,
	heldByLimit,
	limitReport,
	limitRequestsTo,
	type LimitSettings,
	type PaceStats,
} from './limit';
