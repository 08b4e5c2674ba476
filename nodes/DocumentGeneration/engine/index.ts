/**
 * The generation engine of the action node: what Create and Update call to write documents,
 * wait for them and download their files, item by item in one run (`runGenerations`), and
 * what they build its requests with. Nothing outside the engine imports its other files.
 */
export { runGenerations, type Prepare } from './run';
export { onePerItem, type DocumentGroup } from './record';
export type { GenerationOptions, GenerationRequest } from './options';
export { readGenerationOptions } from './options';
export { createSync } from './syncCreate';
export { DEFAULT_REUSE_HOURS, readReuse } from './uniqueKey';
