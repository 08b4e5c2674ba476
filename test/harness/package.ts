/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * Loads the BUILT package the way n8n loads a community package (n8n-core's
 * PackageDirectoryLoader reading the `n8n` block of package.json) and exposes its node and
 * credential types through an INodeTypes implementation the engine can use.
 */
import * as path from 'path';
import { PackageDirectoryLoader } from 'n8n-core';

import { ConvertToFileStandIn, ReadWriteFileStandIn } from './standIns';
import {
	NodeConnectionTypes,
	NodeHelpers,
	type ICredentialType,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
	type INodeTypes,
	type IVersionedNodeType,
} from 'n8n-workflow';

import { tolerateStarvedRegexChecks } from './regex-budget';
import { unrefSshCleanupOn1x } from './versions';

// Every run on the engine loads the package through here: n8n-workflow's parameter checks get
// a regex engine that a busy machine does not fail (regex-budget.ts).
tolerateStarvedRegexChecks();

/** Root of the project (the package n8n would install), resolved from this file. */
export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

/** Node type name of the harness's start node (stands in for n8n's Manual Trigger). */
export const MANUAL_TRIGGER_TYPE = 'harness.manualTrigger';

/**
 * Test scaffolding, not part of the package: a start node that emits the items given in
 * its `items` parameter (an array of JSON objects, or a JSON string of one), one empty
 * item by default — what n8n's Manual Trigger followed by pinned data would give.
 */
export class HarnessManualTrigger implements INodeType {
	description: INodeType['description'] = {
		displayName: 'Harness Manual Trigger',
		name: MANUAL_TRIGGER_TYPE,
		group: ['trigger'],
		version: 1,
		description: 'Emits the configured items',
		defaults: { name: 'Start' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[{}]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		let items = this.getNodeParameter('items', 0) as unknown;
		if (typeof items === 'string') items = JSON.parse(items);
		if (!Array.isArray(items)) items = [items];
		return [
			await Promise.all((items as IDataObject[]).map(async (json) => await withFiles(this, json))),
		];
	}
}

/** A file an item of the start node carries (`$files: { name: HarnessFile }`), stored by n8n. */
export interface HarnessFile {
	/** The bytes, base64. */
	base64: string;
	mimeType: string;
	fileName?: string;
	/** Metadata that overrides what n8n recorded (`fileSize`, `bytes`): a file that misstates its size. */
	claims?: { fileSize?: string; bytes?: number };
}

/** An item of the start node: its `$files` stored as the item's binary data, the rest its JSON. */
async function withFiles(ctx: IExecuteFunctions, json: IDataObject): Promise<INodeExecutionData> {
	const { $files, ...rest } = json as IDataObject & { $files?: Record<string, HarnessFile> };
	if (!$files) return { json };
	const binary: INodeExecutionData['binary'] = {};
	for (const [name, file] of Object.entries($files)) {
		const bytes = Buffer.from(file.base64, 'base64');
		const stored = await ctx.helpers.prepareBinaryData(bytes, file.fileName, file.mimeType);
		binary[name] = { ...stored, ...file.claims };
	}
	return { json: rest, binary };
}

/** The package as n8n's loader sees it. */
export interface LoadedPackage {
	dir: string;
	/** npm name, also the prefix of the node type names in workflows. */
	packageName: string;
	/** The n8n-core loader itself (`.known`, `.types`, `.nodeTypes`, `.credentialTypes`). */
	loader: PackageDirectoryLoader;
	/** Node types keyed `<packageName>.<name>` (plus the harness start node). */
	nodeTypes: HarnessNodeTypes;
	/** Credential types keyed by name. */
	credentialTypes: Record<string, ICredentialType>;
	/** Full node type name for a short one: `documentGeneration` -> `<pkg>.documentGeneration`. */
	fullName(shortOrFull: string): string;
	/** Absolute path of a loaded node's or credential's source file (as the loader recorded it). */
	sourcePath(kind: 'nodes' | 'credentials', name: string): string;
	credentialType(name: string): ICredentialType;
	/** Description of the current version of a node type (short or full name), as loaded. */
	nodeDescription(name: string): INodeTypeDescription;
	/**
	 * Files behind an `iconUrl` the loader recorded (`icons/<package>/<path in package>`, a
	 * string or `{ light, dark }`): the absolute paths n8n serves those URLs from.
	 */
	iconFiles(iconUrl: INodeTypeDescription['iconUrl'] | ICredentialType['iconUrl']): string[];
	/** Properties of a credential type, including those of the types it `extends`. */
	credentialProperties(name: string): INodeProperties[];
}

/** INodeTypes over the loaded package, accepting full (`pkg.name`) or short names. */
export class HarnessNodeTypes implements INodeTypes {
	constructor(
		private readonly packageName: string,
		private readonly types: Record<string, INodeType | IVersionedNodeType>,
	) {}

	private lookup(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types[nodeType] ?? this.types[`${this.packageName}.${nodeType}`];
		if (!type) {
			throw new Error(
				`Unknown node type "${nodeType}" (known: ${Object.keys(this.types).join(', ')})`,
			);
		}
		return type;
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		return this.lookup(nodeType);
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.lookup(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		return Object.fromEntries(Object.keys(this.types).map((name) => [name, {}]));
	}

	names(): string[] {
		return Object.keys(this.types);
	}
}

const cache = new Map<string, Promise<LoadedPackage>>();

/**
 * Loads the package in `dir` (default: this project) with n8n-core's PackageDirectoryLoader.
 * Cached per directory. The package must be built (`npm run build`) first.
 */
export async function loadPackage(dir: string = PROJECT_ROOT): Promise<LoadedPackage> {
	const key = path.resolve(dir);
	let loaded = cache.get(key);
	if (!loaded) {
		loaded = doLoad(key);
		cache.set(key, loaded);
		loaded.catch(() => cache.delete(key));
	}
	return await loaded;
}

async function doLoad(dir: string): Promise<LoadedPackage> {
	await unrefSshCleanupOn1x();
	const loader = new PackageDirectoryLoader(dir);
	await loader.loadAll();
	const { packageName } = loader;

	// The loader keys node types by their description name (without the package prefix);
	// n8n registers them as `<packageName>.<name>`, which is what workflows reference.
	const types: Record<string, INodeType | IVersionedNodeType> = {};
	for (const [name, { type }] of Object.entries(loader.nodeTypes)) {
		types[name.includes('.') ? name : `${packageName}.${name}`] = type;
	}
	types[MANUAL_TRIGGER_TYPE] = new HarnessManualTrigger();
	for (const standIn of [new ConvertToFileStandIn(), new ReadWriteFileStandIn()])
		types[standIn.description.name] = standIn;

	const credentialTypes: Record<string, ICredentialType> = {};
	for (const [name, { type }] of Object.entries(loader.credentialTypes)) {
		credentialTypes[name] = type;
	}

	const credentialType = (name: string): ICredentialType => {
		const type = credentialTypes[name];
		if (!type) throw new Error(`Unknown credential type "${name}"`);
		return type;
	};

	const credentialProperties = (name: string): INodeProperties[] => {
		const type = credentialType(name);
		const merged: INodeProperties[] = [];
		for (const parent of type.extends ?? []) {
			NodeHelpers.mergeNodeProperties(merged, credentialProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(merged, type.properties);
		return merged;
	};

	const nodeTypes = new HarnessNodeTypes(packageName, types);
	return {
		dir: loader.directory,
		packageName,
		loader,
		nodeTypes,
		credentialTypes,
		fullName: (name) => (name.includes('.') ? name : `${packageName}.${name}`),
		sourcePath: (kind, name) => {
			const known = loader.known[kind][name.replace(`${packageName}.`, '')];
			if (!known) throw new Error(`The loader knows no ${kind} entry "${name}"`);
			// n8n-core 2.x resolves it for us; 1.x keeps it relative to the package folder.
			const resolve = (loader as unknown as { resolveSourcePath?: (p: string) => string })
				.resolveSourcePath;
			return resolve
				? resolve.call(loader, known.sourcePath)
				: path.join(loader.directory, known.sourcePath);
		},
		credentialType,
		nodeDescription: (name) => nodeTypes.getByNameAndVersion(name).description,
		iconFiles: (iconUrl) => {
			if (!iconUrl) return [];
			const urls = typeof iconUrl === 'string' ? [iconUrl] : [iconUrl.light, iconUrl.dark];
			const prefix = `icons/${packageName}/`;
			return urls.map((url) => {
				if (!url.startsWith(prefix)) throw new Error(`Icon URL "${url}" is not under ${prefix}`);
				return path.resolve(loader.directory, url.slice(prefix.length));
			});
		},
		credentialProperties,
	};
}
