/**
 * The transport: the only code that speaks HTTP. Nodes and helpers import from here; the
 * modules below import each other directly, never this file.
 */
export * from './exchange';
export * from './request';
export * from './documents';
export * from './templates';
export { describeShape } from './schemas';
