import type {
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

export class DocumentGenerationApi implements ICredentialType {
	name = 'documentGenerationApi';
	displayName = 'Document Generation (PDFMonkey) API';
	icon: Icon = {
		light: 'file:../icons/documentGeneration.svg',
		dark: 'file:../icons/documentGeneration.dark.svg',
	};
	documentationUrl =
		'https://github.com/n8n-nodes-document-generation/n8n-nodes-document-generation#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The secret API key of your account, from the API key page of the dashboard (My Account → API Secret Key)',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://api.pdfmonkey.io',
			required: true,
			placeholder: 'https://api.pdfmonkey.io',
			description:
				'Root of the API host, without /api/v1. Change it only to point at a local sandbox or a proxy.',
		},
		{
			displayName: 'Request Timeout (Seconds)',
			name: 'requestTimeout',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 600 },
			default: 30,
			description:
				'How long to wait for the service to start answering a request (and between parts of a download) before giving up. A read that timed out is tried again (3 attempts in all); a create that timed out is never repeated.',
		},
		{
			displayName: 'Webhook Signing Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			placeholder: 'whsec_…',
			description:
				'Optional. Used only by the instant (webhook) trigger: the signing secret of the webhook endpoint, shown beside it in the dashboard (Webhooks). With it, the trigger accepts only deliveries signed by the service; without it, it re-reads each document from the API before trusting it.',
		},
	];

	// Built in code, not as an expression: under Execution Logic v2 (`binaryMode: "combined"`)
	// n8n fails to resolve a credential's expression ("Node '<name>' hasn't been executed").
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => ({
		...requestOptions,
		headers: {
			...requestOptions.headers,
			Authorization: `Bearer ${String(credentials.apiKey ?? '')}`,
		},
	});

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.trim().replace(/\\/+$/, "").replace(/\\/api\\/v1$/i, "")}}',
			url: '/api/v1/current_user',
			method: 'GET',
			// n8n would follow a redirect with the key, to any host.
			disableFollowRedirect: true,
		},
		rules: [301, 302, 303, 307, 308].map((status) => ({
			type: 'responseCode' as const,
			properties: {
				value: status,
				message: `The service answered with a redirect (${status}) instead of the account, and the key was not sent on. Check the Base URL: it must be the API's own address (e.g. https://api.pdfmonkey.io, with https and without a path); if n8n reaches the service through a proxy, check that the proxy passes requests on instead of redirecting them.`,
			},
		})),
	};
}
