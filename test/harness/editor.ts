/**
 * What the editor asks of a node: which parameters it shows, load options, list search, and
 * the credential test.
 */
import { ExecuteContext, LoadOptionsContext, RoutingNode } from 'n8n-core';
import {
	NodeHelpers,
	Workflow,
	type ICredentialsDecrypted,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeListSearchResult,
	type ResourceMapperFields,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyCollection,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
	type INodeTypes,
	type IVersionedNodeType,
} from 'n8n-workflow';

import { HarnessCredentialsHelper } from './credentials';
import { loadPackage, type LoadedPackage } from './package';
import { emptyRunExecutionData } from './versions';

import {
	attachCredentials,
	buildAdditionalData,
	toStore,
	CREDENTIAL_TYPE,
	type HarnessCredentials,
} from './engine';

/** The node's top-level parameters the editor shows for these values (n8n's displayOptions rules). */
export function displayedProperties(
	description: INodeTypeDescription,
	values: INodeParameters,
): INodeProperties[] {
	return description.properties.filter((p) =>
		NodeHelpers.displayParameter(values, p, { typeVersion: 1 }, description),
	);
}

/** The names of the node's top-level parameters the editor shows for these values, in order. */
export function displayedNames(
	description: INodeTypeDescription,
	values: INodeParameters,
): string[] {
	return displayedProperties(description, values).map((p) => p.name);
}

/**
 * The one top-level parameter named `name` the editor shows for these values; throws (failing
 * the test) when it shows none or several.
 */
export function displayedProperty(
	description: INodeTypeDescription,
	values: INodeParameters,
	name: string,
): INodeProperties {
	const found = displayedProperties(description, values).filter((p) => p.name === name);
	if (found.length !== 1) {
		throw new Error(
			`expected one displayed "${name}" for ${JSON.stringify(values)}, found ${found.length}`,
		);
	}
	return found[0];
}

/**
 * The one top-level property named `name` of a node's or a credential's description, as it is
 * described (whether or not shown); with `shownOn`, only among those whose displayOptions.show
 * lists each of these values (`{ resource: 'document', operation: 'create' }`: Create's own).
 * Throws (failing the test) when there is none or several.
 */
export function propertyNamed(
	description: { properties: INodeProperties[] },
	name: string,
	shownOn: Record<string, string> = {},
): INodeProperties {
	const isShownOn = (p: INodeProperties) =>
		Object.entries(shownOn).every(([key, value]) =>
			(p.displayOptions?.show?.[key] as unknown[] | undefined)?.includes(value),
		);
	const found = description.properties.filter((p) => p.name === name && isShownOn(p));
	if (found.length !== 1) {
		throw new Error(
			`expected one property "${name}" shown on ${JSON.stringify(shownOn)}, found ${found.length}`,
		);
	}
	return found[0];
}

type Described = INodeProperties | INodePropertyOptions | INodePropertyCollection;

/**
 * What a user reads of a property, an option or a collection's row: its label, placeholder,
 * help text and hint, and the same of its options (`options`) and of its row's fields
 * (`fields`). Words a property does not have are left out.
 */
export function wordsOf(p: Described): Record<string, unknown> {
	const words: Record<string, unknown> = {};
	words.label = 'displayName' in p ? p.displayName : p.name;
	for (const key of ['placeholder', 'description', 'hint'] as const) {
		if (key in p && p[key as keyof Described] !== undefined) words[key] = p[key as keyof Described];
	}
	if ('options' in p && p.options) words.options = p.options.map(wordsOf);
	if ('values' in p && p.values) words.fields = p.values.map(wordsOf);
	return words;
}

/** A node of the package as the editor places it on the canvas (short or full type). */
export function editorNode(
	pkg: LoadedPackage,
	nodeType: string,
	parameters: INodeParameters,
	{ name = 'Node', typeVersion = 1 }: { name?: string; typeVersion?: number } = {},
): INode {
	return {
		id: name,
		name,
		type: pkg.fullName(nodeType),
		typeVersion,
		position: [0, 0],
		parameters,
	};
}

/** A workflow of this one node, as the editor evaluates its expressions. */
export function workflowOf(pkg: LoadedPackage, node: INode): Workflow {
	return new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes: pkg.nodeTypes });
}

/** The subtitle the canvas shows under a node of the package with these parameters. */
export function subtitleOf(pkg: LoadedPackage, nodeType: string, parameters: INodeParameters) {
	const node = editorNode(pkg, nodeType, parameters, { name: 'Subtitle' });
	const { subtitle } = pkg.nodeDescription(nodeType);
	return workflowOf(pkg, node).expression.getSimpleParameterValue(node, subtitle!, 'internal', {});
}

// ---------------------------------------------------------------------------------------
// Dynamic parameters (loadOptions / listSearch), as the editor asks for them
// ---------------------------------------------------------------------------------------

export interface DynamicParamsOptions {
	/** The node's current parameters (as the editor sends them). */
	parameters?: INodeParameters;
	credentials?: HarnessCredentials;
	filter?: string;
	paginationToken?: string;
	/** Path of the parameter asking, e.g. `parameters.templateId`. */
	path?: string;
	/** Node type, short or full; default `documentGeneration`. */
	nodeType?: string;
	typeVersion?: number;
	packageDir?: string;
}

async function dynamicContext(opts: DynamicParamsOptions) {
	const pkg = await loadPackage(opts.packageDir);
	const store = toStore(opts.credentials);
	const parameters = structuredClone(opts.parameters ?? {});
	const node = editorNode(pkg, opts.nodeType ?? 'documentGeneration', parameters, {
		name: 'Options Source',
		typeVersion: opts.typeVersion,
	});
	attachCredentials([node], pkg.nodeTypes, store);
	const workflow = workflowOf(pkg, node);
	const wfNode = workflow.getNode(node.name) as INode;
	const additionalData = buildAdditionalData(new HarnessCredentialsHelper(pkg, store), {
		currentNodeParameters: wfNode.parameters,
	});
	const context = new LoadOptionsContext(
		workflow,
		wfNode,
		additionalData,
		opts.path ?? 'parameters',
	);
	const nodeType = workflow.nodeTypes.getByNameAndVersion(wfNode.type, wfNode.typeVersion);
	return { context, nodeType };
}

type MethodKind = 'loadOptions' | 'listSearch' | 'resourceMapping';

/** Calls `methods[kind][method](...args)` of the node through n8n-core's LoadOptionsContext. */
async function callEditorMethod(
	kind: MethodKind,
	method: string,
	opts: DynamicParamsOptions,
	...args: unknown[]
): Promise<unknown> {
	const { context, nodeType } = await dynamicContext(opts);
	const fn = (nodeType.methods?.[kind] as Record<string, unknown> | undefined)?.[method];
	if (typeof fn !== 'function') throw new Error(`No ${kind} method "${method}"`);
	return await (fn as (...callArgs: unknown[]) => Promise<unknown>).apply(context, args);
}

/** Calls `methods.loadOptions[method]` through n8n-core's LoadOptionsContext. */
export async function loadOptions(
	method: string,
	opts: DynamicParamsOptions = {},
): Promise<INodePropertyOptions[]> {
	return (await callEditorMethod('loadOptions', method, opts)) as INodePropertyOptions[];
}

/** Calls `methods.listSearch[method](filter, paginationToken)` through LoadOptionsContext. */
export async function listSearch(
	method: string,
	opts: DynamicParamsOptions = {},
): Promise<INodeListSearchResult> {
	const args = [opts.filter, opts.paginationToken];
	return (await callEditorMethod('listSearch', method, opts, ...args)) as INodeListSearchResult;
}

/** Calls `methods.resourceMapping[method]` through LoadOptionsContext, as the resource mapper does. */
export async function resourceMapping(
	method: string,
	opts: DynamicParamsOptions = {},
): Promise<ResourceMapperFields> {
	return (await callEditorMethod('resourceMapping', method, opts)) as ResourceMapperFields;
}

// ---------------------------------------------------------------------------------------
// Credential test
// ---------------------------------------------------------------------------------------

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/**
 * Runs the credential type's `test` request the way n8n's CredentialsTester does: a
 * declarative temp node whose only property routes to the test request, executed by
 * n8n-core's RoutingNode (which resolves the `={{$credentials...}}` expressions and sends the
 * request through httpRequestWithAuthentication, i.e. the type's `authenticate`).
 */
export async function testCredential(
	credentials: HarnessCredentials,
	opts: { type?: string; packageDir?: string } = {},
): Promise<CredentialTestResult> {
	const pkg = await loadPackage(opts.packageDir);
	const type = opts.type ?? CREDENTIAL_TYPE;
	const credentialType = pkg.credentialType(type);
	if (!credentialType.test) {
		return { status: 'Error', message: `The credential type ${type} declares no test request` };
	}
	const store = toStore(credentials);
	const helper = new HarnessCredentialsHelper(pkg, store);
	const additionalData = buildAdditionalData(helper);
	// Defaults of the credential's properties apply, as when n8n tests a saved credential.
	const data = await helper.getDecrypted(additionalData, { id: 'harness', name: type }, type);
	const credentialsDecrypted: ICredentialsDecrypted = {
		id: `harness-${type}`,
		name: type,
		type,
		data,
	};

	// Like n8n, run the credential's declared test request through the routing engine, from a
	// throwaway node whose only property routes to that request.
	const testNodeType: INodeType = {
		description: {
			displayName: 'Harness Credential Check',
			name: 'harness.credentialCheck',
			group: ['organization'],
			version: 1,
			description: 'Sends the credential test request',
			defaults: { name: 'Harness Credential Check' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: type, required: true }],
			properties: [
				{
					displayName: 'Check',
					name: 'check',
					type: 'string',
					routing: { request: credentialType.test.request },
					default: '',
				},
			],
		},
	};
	const nodeTypes: INodeTypes = {
		getByName: () => testNodeType as INodeType | IVersionedNodeType,
		getByNameAndVersion: () => testNodeType,
		getKnownTypes: () => ({}),
	};
	const node: INode = {
		id: 'credential-check',
		name: 'Credential Check',
		type: testNodeType.description.name,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [type]: { id: credentialsDecrypted.id, name: credentialsDecrypted.name } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		emptyRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);

	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await new RoutingNode(context, testNodeType, credentialsDecrypted).runNode();
	} catch (error) {
		const cause = (
			error as { cause?: { response?: { status: number; statusText?: string }; code?: string } }
		).cause;
		if (cause?.response) {
			const { status, statusText } = cause.response;
			for (const rule of credentialType.test.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (status < 200 || status > 299) {
				return { status: 'Error', message: statusText || `Received HTTP status code: ${status}` };
			}
		} else if (cause?.code) {
			return { status: 'Error', message: cause.code };
		}
		return { status: 'Error', message: String((error as Error).message) };
	}
	for (const rule of credentialType.test.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const body = response?.[0]?.[0]?.json ?? {};
		const value = rule.properties.key
			.split('.')
			.reduce<unknown>((v, k) => (v as IDataObject | undefined)?.[k], body);
		if (value === rule.properties.value)
			return { status: 'Error', message: rule.properties.message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}
