/**
 * The instant trigger as the editor lists and shows it (DocumentGenerationWebhookTrigger.node.ts):
 * the node itself (names, versions, the webhook n8n serves, the credential), its fields in
 * order with their types, defaults and when each shows, the words written on them, the
 * subtitle under it on the canvas, and the pickers its fields ask the node for.
 * One test, which loads the package itself (not in a `beforeAll`, nor in an earlier test of
 * this file: the loader is cached): mutation testing counts a property as reached only by the
 * test that loads it. Needs `npm run build` first.
 */
import type { INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import {
	CREDENTIAL_TYPE,
	displayedNames,
	loadPackage,
	propertyNamed,
	subtitleOf,
	wordsOf,
	type LoadedPackage,
} from '../../harness';

const WEBHOOK_TRIGGER = 'documentGenerationWebhookTrigger';

/** Its names, versions 1 and 2 (2 new), one POST webhook answered on receipt, the credential required. */
function expectNode(webhook: INodeTypeDescription): void {
	expect(webhook).toMatchObject({
		displayName: 'Document Generation (PDFMonkey) Webhook Trigger',
		name: WEBHOOK_TRIGGER,
		group: ['trigger'],
		version: [1, 2],
		defaultVersion: 2,
		description:
			'Starts the workflow the moment a document finishes generating (instant, by webhook)',
		defaults: { name: 'PDFMonkey Webhook' },
		inputs: [],
		outputs: ['main'],
	});
	expect(webhook.credentials).toEqual([{ name: CREDENTIAL_TYPE, required: true }]);
	expect(webhook.webhooks).toEqual([
		{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
	]);
}

/** The fields in order: the workspace only with automatic registration, its notice only with manual. */
function expectFields(webhook: INodeTypeDescription): void {
	expect(webhook.properties.map((p) => [p.name, p.type, p.default])).toEqual([
		['events', 'multiOptions', ['success']],
		['signingNotice', 'notice', ''],
		['registration', 'options', 'automatic'],
		['manualNotice', 'notice', ''],
		['workspaceId', 'resourceLocator', expect.anything()],
		['filters', 'collection', {}],
		['download', 'boolean', false],
		['binaryPropertyName', 'string', 'data'],
		['maxFileSize', 'number', 100],
	]);
	const always = ['events', 'signingNotice', 'registration'];
	const after = ['filters', 'download'];
	expect(displayedNames(webhook, { registration: 'automatic' })).toEqual([
		...always,
		'workspaceId',
		...after,
	]);
	expect(displayedNames(webhook, { registration: 'manual' })).toEqual([
		...always,
		'manualNotice',
		...after,
	]);
	const filters = propertyNamed(webhook, 'filters');
	expect(
		filters.options?.map((o) => [(o as INodeProperties).name, (o as INodeProperties).type]),
	).toEqual([
		['channel', 'string'],
		['templateIds', 'multiOptions'],
	]);
	const templateIds = filters.options?.[1] as INodeProperties;
	expect(templateIds.typeOptions).toEqual({
		loadOptionsMethod: 'getTemplates',
		loadOptionsDependsOn: ['workspaceId.value'],
	});
	expect((filters.options?.[0] as INodeProperties).default).toBe('');
}

/** Events: the polling trigger's events, then Quota Warning (value quotaWarning). */
function expectEvents(webhook: INodeTypeDescription, polling: INodeTypeDescription): void {
	const events = propertyNamed(webhook, 'events');
	expect(events.options).toEqual([
		...(propertyNamed(polling, 'events').options ?? []),
		{
			name: 'Quota Warning',
			value: 'quotaWarning',
			description:
				'The account’s monthly document quota is running low (signed deliveries only): the item holds the period, the documents still available and the threshold',
		},
	]);
	expect(events.description).toBe(
		'Which events start the workflow. A document generated again fires again; a quota warning fires once per warning.',
	);
	expect(events.required).toBe(true);
}

/** The words on the notices, Workspace and Filters; Registration as a whole, its values included. */
function expectWords(webhook: INodeTypeDescription): void {
	const words = (name: string) => wordsOf(propertyNamed(webhook, name));
	expect(words('signingNotice')).toEqual({
		label:
			'Without a Webhook Signing Secret in the credential, deliveries are not trusted: each document is read back from the API (one run per document version, every delivery answered alike) and Quota Warnings are ignored. To sign them, copy the endpoint’s signing secret (whsec_…) from the dashboard (Webhooks) into the credential’s Webhook Signing Secret.',
	});
	const registration = propertyNamed(webhook, 'registration');
	expect({ ...registration, options: undefined }).toEqual({
		displayName: 'Registration',
		name: 'registration',
		type: 'options',
		default: 'automatic',
		description: 'How the service learns where to send its webhooks',
		options: undefined,
	});
	// Each option's stored value with the words the editor shows on it.
	expect(registration.options).toEqual([
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
	]);
	expect(words('manualNotice')).toEqual({
		label:
			'Copy the Production URL shown above into the dashboard (Webhooks → add an endpoint for the chosen events), and paste its signing secret (whsec_…) into the credential so that only signed deliveries are accepted',
	});
	expect(words('workspaceId')).toMatchObject({
		description:
			'The workspace whose documents start the workflow (the webhook is registered there)',
	});
	expect(words('filters')).toMatchObject({
		label: 'Filters',
		placeholder: 'Add Filter',
		options: [
			{
				label: 'Channel',
				placeholder: 'e.g. invoices',
				description: 'Only documents whose meta._webhook_channel is this channel',
			},
			{
				description:
					'Only documents of these templates. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
		],
	});
}

/** The subtitle names the chosen events: a document ready, failed or both, the quota warning. */
function expectSubtitle(pkg: LoadedPackage): void {
	const subtitle = (events: string[]) => subtitleOf(pkg, WEBHOOK_TRIGGER, { events });
	expect(
		[
			['success'],
			['failure'],
			['failure', 'success'],
			['success', 'quotaWarning'],
			['quotaWarning'],
		].map(subtitle),
	).toEqual([
		'When a document is ready',
		'When a document fails',
		'When a document is ready or fails',
		'When a document is ready or the quota runs low',
		'When the quota runs low',
	]);
}

/** Every field, a collection's options and a resource locator's modes included. */
function allFields(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((p) => [
		p,
		...allFields((p.options ?? []).filter((o): o is INodeProperties => 'type' in o)),
		...allFields((p.modes ?? []) as unknown as INodeProperties[]),
	]);
}

/** The pickers the fields name (workspaces to search, templates to list) are the node's own methods. */
function expectPickers(pkg: LoadedPackage): void {
	const node = pkg.nodeTypes.getByNameAndVersion(WEBHOOK_TRIGGER, 2);
	const fields = allFields(node.description.properties);
	const named = (option: 'searchListMethod' | 'loadOptionsMethod') =>
		fields.map((f) => f.typeOptions?.[option]).filter((name) => name !== undefined);
	expect(named('searchListMethod')).toEqual(['searchWorkspaces']);
	expect(named('loadOptionsMethod')).toEqual(['getTemplates']);
	expect(typeof node.methods?.listSearch?.searchWorkspaces).toBe('function');
	expect(typeof node.methods?.loadOptions?.getTemplates).toBe('function');
}

test('the instant trigger as the editor lists it: the node, its fields in order and when each shows, their words', async () => {
	const pkg = await loadPackage();
	const webhook = pkg.nodeDescription(WEBHOOK_TRIGGER);
	expectNode(webhook);
	expectFields(webhook);
	expectEvents(webhook, pkg.nodeDescription('documentGenerationTrigger'));
	expectWords(webhook);
	expectSubtitle(pkg);
	expectPickers(pkg);
	const [light, dark] = pkg.iconFiles(webhook.iconUrl);
	expect(light).toMatch(/[/\\]icons[/\\]documentGeneration\.svg$/);
	expect(dark).toMatch(/[/\\]icons[/\\]documentGeneration\.dark\.svg$/);
});

describe('the subtitle', () => {
	test('names the chosen events, the quota warning included', async () => {
		const pkg = await loadPackage();
		const subtitle = (parameters: INodeParameters) =>
			subtitleOf(pkg, 'documentGenerationWebhookTrigger', parameters);
		expect(subtitle({ events: ['success'] })).toBe('When a document is ready');
		expect(subtitle({ events: ['success', 'failure'] })).toBe('When a document is ready or fails');
		expect(subtitle({ events: ['failure', 'quotaWarning'] })).toBe(
			'When a document fails or the quota runs low',
		);
		expect(subtitle({ events: ['quotaWarning'] })).toBe('When the quota runs low');
	});

	test('with no event chosen, there is no subtitle (not a dangling "When ")', async () => {
		const pkg = await loadPackage();
		const subtitle = (parameters: INodeParameters) =>
			subtitleOf(pkg, 'documentGenerationWebhookTrigger', parameters);
		expect(subtitle({ events: [] })).toBe('');
		expect(subtitle({ events: ['unknown'] })).toBe('');
	});
});
