/**
 * What the instant trigger's suites share: a sandbox of their own per test, the triggers they
 * make (closed after each test), and the sandbox's workspace, templates and deliverable
 * documents.
 */
import {
	createWebhookTrigger,
	credentialsFor,
	type HarnessCredentials,
	type WebhookTrigger,
} from '../../harness';
import {
	DEFAULT_WEBHOOK_SECRET,
	startSandbox,
	type Sandbox,
	type SandboxOptions,
} from '../../sandbox';

export const locator = (value: string) => ({ __rl: true, mode: 'id', value });

export interface WebhookFixture {
	/** This test's sandbox. */
	readonly sb: Sandbox;
	/** A trigger on this test's sandbox, closed after the test. */
	createTrigger(options: Parameters<typeof createWebhookTrigger>[0]): Promise<WebhookTrigger>;
	/** A trigger for the Acme Billing workspace, activated (no hook before, registration ok). */
	activated(
		parameters: Record<string, unknown>,
		credentials?: HarnessCredentials,
	): Promise<WebhookTrigger>;
	billing(): string;
	template(identifier: string): string;
	/** The sandbox's credential with the webhook signing secret. */
	withSecret(): HarnessCredentials;
	/** The webhook body of a new finished document (a successful invoice unless `fields` say otherwise). */
	deliverable(fields?: Record<string, unknown>): ReturnType<Sandbox['webhooks']['documentOf']>;
}

/** Registers the per-test sandbox and trigger clean-up; the suite reads them through the fixture. */
export function useWebhookFixture(options: SandboxOptions): WebhookFixture {
	let sb: Sandbox | undefined;
	const triggers: WebhookTrigger[] = [];
	beforeEach(async () => {
		sb = await startSandbox(options);
	});
	afterEach(async () => {
		for (const trigger of triggers.splice(0)) await trigger.close();
		await sb?.close();
		sb = undefined;
	});
	const fx: WebhookFixture = {
		get sb() {
			if (!sb) throw new Error('the sandbox exists only inside a test');
			return sb;
		},
		async createTrigger(createOptions) {
			const trigger = await createWebhookTrigger(createOptions);
			triggers.push(trigger);
			return trigger;
		},
		async activated(parameters, credentials = fx.withSecret()) {
			const trigger = await fx.createTrigger({
				parameters: { workspaceId: locator(fx.billing()), ...parameters },
				credentials,
			});
			expect(await trigger.checkExists()).toBe(false);
			expect(await trigger.create()).toBe(true);
			return trigger;
		},
		billing: () => fx.sb.workspaces.find((w) => w.identifier === 'Acme Billing')!.id,
		template: (identifier) => fx.sb.templates.find((t) => t.identifier === identifier)!.id,
		withSecret: () => ({ ...credentialsFor(fx.sb), webhookSecret: DEFAULT_WEBHOOK_SECRET }),
		deliverable: (fields = {}) =>
			fx.sb.webhooks.documentOf(
				fx.sb.createDocument({
					status: 'success',
					document_template_id: fx.template('invoice'),
					...fields,
				}).id,
			),
	};
	return fx;
}
