import type {
	IDataObject,
	IHookFunctions,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	triggerEvents,
	triggerFileOptions,
	templateIdsFilter,
	workspaceIdLocator,
} from '../shared/descriptions';
import * as listSearch from '../shared/methods/listSearch';
import * as loadOptions from '../shared/methods/loadOptions';
import { CREDENTIAL_TYPE, limitRequestsTo } from '../shared/transport';
import { receiveUnsigned } from './delivery';
import { checkExists, create, remove } from './lifecycle';
import { QUOTA_WARNING, readWebhookSettings } from './settings';
import { receiveSigned } from './signature';

/** The polling trigger's events, and the quota warning that only webhooks bring. */
const webhookEvents: INodeProperties = {
	...triggerEvents,
	options: [
		...(triggerEvents.options ?? []),
		{
			name: 'Quota Warning',
			value: QUOTA_WARNING,
			description:
				'The account’s monthly document quota is running low (signed deliveries only): the item holds the period, the documents still available and the threshold',
		},
	],
	description:
		'Which events start the workflow. A document generated again fires again; a quota warning fires once per warning.',
};

/** A delivery waits briefly for the request limit: answered with an error, it is sent again. */
const DELIVERY_LIMIT = {
	maxWaitMs: 10_000,
	advice: 'n8n answered the delivery with an error, so the service sends it again later.',
};

/** "When a document is ready", "… or fails", "… or the quota runs low", from the Events; none without
 * (no arrow functions: n8n 1.x's expressions refuse them). */
const SUBTITLE =
	'={{ [($parameter["events"] || []).includes("failure") ? (($parameter["events"] || []).includes("success") ? "a document is ready or fails" : "a document fails") : (($parameter["events"] || []).includes("success") ? "a document is ready" : ""), ($parameter["events"] || []).includes("quotaWarning") ? "the quota runs low" : ""].filter(String).join(" or ").replace(/^(?=.)/, "When ") }}';

export class DocumentGenerationWebhookTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Generation (PDFMonkey) Webhook Trigger',
		name: 'documentGenerationWebhookTrigger',
		icon: {
			light: 'file:../../icons/documentGeneration.svg',
			dark: 'file:../../icons/documentGeneration.dark.svg',
		},
		group: ['trigger'],
		// Versions 1 and 2 behave the same; 2 because n8n 2.x reads a v1 webhook node's
		// `$parameter["options"]["binaryData"]`, which throws on Execution Logic v2. Whole numbers:
		// n8n before 2.33 refuses a package whose newest version is 1.1 on PostgreSQL or MySQL.
		version: [1, 2],
		defaultVersion: 2,
		subtitle: SUBTITLE,
		description:
			'Starts the workflow the moment a document finishes generating (instant, by webhook)',
		defaults: { name: 'PDFMonkey Webhook' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'documentGenerationApi', required: true }],
		webhooks: [
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		],
		properties: [
			webhookEvents,
			{
				displayName:
					'Without a Webhook Signing Secret in the credential, deliveries are not trusted: each document is read back from the API (one run per document version, every delivery answered alike) and Quota Warnings are ignored. To sign them, copy the endpoint’s signing secret (whsec_…) from the dashboard (Webhooks) into the credential’s Webhook Signing Secret.',
				name: 'signingNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Registration',
				name: 'registration',
				type: 'options',
				options: [
					{
						name: 'Automatic',
						value: 'automatic',
						description:
							'Register the webhook with the service when the workflow is activated, and remove it when deactivated',
					},
					{
						name: 'Manual',
						value: 'manual',
						description: 'Add the Production URL shown above to the dashboard (Webhooks) yourself',
					},
				],
				default: 'automatic',
				description: 'How the service learns where to send its webhooks',
			},
			{
				displayName:
					'Copy the Production URL shown above into the dashboard (Webhooks → add an endpoint for the chosen events), and paste its signing secret (whsec_…) into the credential so that only signed deliveries are accepted',
				name: 'manualNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { registration: ['manual'] } },
			},
			{
				...workspaceIdLocator,
				description:
					'The workspace whose documents start the workflow (the webhook is registered there)',
				displayOptions: { show: { registration: ['automatic'] } },
			},
			{
				displayName: 'Filters',
				name: 'filters',
				type: 'collection',
				placeholder: 'Add Filter',
				default: {},
				options: [
					{
						displayName: 'Channel',
						name: 'channel',
						type: 'string',
						default: '',
						placeholder: 'e.g. invoices',
						description: 'Only documents whose meta._webhook_channel is this channel',
					},
					{
						...templateIdsFilter,
						description:
							'Only documents of these templates. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
						typeOptions: {
							loadOptionsMethod: 'getTemplates',
							loadOptionsDependsOn: ['workspaceId.value'],
						},
					},
				],
			},
			...triggerFileOptions,
		],
	};

	methods = { listSearch, loadOptions };

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await checkExists.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await create.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await remove.call(this);
			},
		},
	};

	// Trusted by its signature given a secret, else by reading the document back. 401 refused, 200
	// not matching, 503 not checkable now: none starts a run.
	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const settings = readWebhookSettings(this);
		limitRequestsTo(this, DELIVERY_LIMIT);
		const credentials = (await this.getCredentials(CREDENTIAL_TYPE)) as IDataObject;
		const secret =
			typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret.trim() : '';
		if (secret) return await receiveSigned(this, settings, secret);
		return await receiveUnsigned(this, settings);
	}
}
