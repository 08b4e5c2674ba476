/**
 * The transport: the only code that speaks HTTP. Nodes and helpers import from here; the
 * modules below import each other directly, never this file.
 */
export * from './exchange';
export * from './failures';
export * from './network';
export * from './request';
export * from './documents';
export * from './paging';
export * from './templates';
export * from './hooks';
export * from './snippets';
export * from './folders';
export * from './engines';
export { describeShape } from './schemas';
export {
	DEFAULT_MAX_LIMIT_WAIT_MS,
	heldByLimit,
	limitReport,
	limitRequestsTo,
	type LimitSettings,
} from './gate';
export type { PaceStats } from './pace';
