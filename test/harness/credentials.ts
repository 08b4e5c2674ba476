/**
 * ICredentialsHelper for tests: serves decrypted credential data handed to the harness
 * (one record per credential type) and authenticates requests with the credential type's
 * OWN `authenticate` definition, resolving its `=`-expressions with n8n's expression engine
 * as n8n's CredentialsHelper does.
 */
import {
	ICredentialsHelper,
	NodeHelpers,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type IHttpRequestHelper,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeParameters,
	type INodeProperties,
	type IRequestOptionsSimplified,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import type { LoadedPackage } from './package';
import { nodeFixture } from './fixtures';

/** Decrypted credential data per credential type name, e.g. `{ documentGenerationApi: { apiKey, baseUrl } }`. */
export type CredentialStore = Record<string, ICredentialDataDecryptedObject>;

export class HarnessCredentialsHelper extends ICredentialsHelper {
	/** Every `getDecrypted` call, for tests that care which credential types were read. */
	readonly reads: string[] = [];

	constructor(
		private readonly pkg: LoadedPackage,
		private readonly store: CredentialStore,
	) {
		super();
	}

	getParentTypes(name: string): string[] {
		const type = this.pkg.credentialTypes[name];
		if (!type?.extends) return [];
		return type.extends.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		const type = this.pkg.credentialTypes[credentialType];
		if (!type?.restrictToSupportedNodes) return true;
		return (type.supportedNodes ?? []).map((n) => this.pkg.fullName(n)).includes(nodeType);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.pkg.credentialType(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			const ctx = workflow && node ? { workflow, node } : this.scratchWorkflow();
			const resolve = (value: unknown): unknown =>
				// An n8n expression starts with "=" (n8n-workflow before 1.9x has no isExpression).
				typeof value === 'string' && value.startsWith('=')
					? String(
							ctx.workflow.expression.getSimpleParameterValue(
								ctx.node,
								value,
								'internal',
								{ $credentials: credentials },
								undefined,
								'',
							) ?? '',
						)
					: value;
			const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
			for (const [section, entries] of Object.entries(authenticate.properties)) {
				target[section] ??= {};
				for (const [key, value] of Object.entries(entries as Record<string, unknown>)) {
					target[section][String(resolve(key))] = resolve(value);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	/** Mirrors n8n: only credential types with an expirable hidden property pre-authenticate. */
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		_node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.pkg.credentialType(typeName);
		const expirable = type.properties.find(
			(p) => p.type === 'hidden' && p.typeOptions?.expirable === true,
		);
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;
		const output = await type.preAuthentication.call(helpers, credentials);
		if (output?.[expirable.name] === undefined) return undefined;
		this.store[typeName] = {
			...(this.store[typeName] ?? {}),
			...output,
		} as ICredentialDataDecryptedObject;
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.pkg.credentialType(typeName);
		if (typeof type.preAuthentication !== 'function') return undefined;
		const output = await type.preAuthentication.call(helpers, credentials);
		return (output as ICredentialDataDecryptedObject | undefined) ?? undefined;
	}

	async getCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentials> {
		throw new Error(`The test harness holds no encrypted credentials (asked for "${type}")`);
	}

	/** Returns a fresh copy of the stored data with the type's property defaults applied. */
	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		this.reads.push(type);
		const data = this.store[type];
		if (!data) {
			throw new Error(`No credentials of type "${type}" were given to the test harness`);
		}
		const withDefaults = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			structuredClone(data) as INodeParameters,
			true,
			false,
			null,
			null,
		);
		return { ...(withDefaults ?? {}), ...structuredClone(data) } as ICredentialDataDecryptedObject;
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.store[type] = structuredClone(data);
	}

	async updateCredentialsOauthTokenData(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.store[type] = { ...(this.store[type] ?? {}), ...structuredClone(data) };
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.pkg.credentialProperties(type);
	}

	private scratchWorkflow(): { workflow: Workflow; node: INode } {
		const node: INode = nodeFixture({
			id: 'harness-auth',
			name: 'Harness-Auth',
			type: 'harness.manualTrigger',
		});
		const workflow = new Workflow({
			nodes: [node],
			connections: {},
			active: false,
			nodeTypes: this.pkg.nodeTypes,
		});
		return { workflow, node };
	}
}
