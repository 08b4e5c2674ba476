/**
 * One run per delivery id, per trigger (nodes/DocumentGenerationWebhookTrigger/signed.ts and
 * the trigger's key in answers.ts): the service sends one message to every endpoint with the
 * same svix-id, so two workflows imported from the same file (the same node ids) in one n8n
 * must each start their run. Against the sandbox, signed by hand.
 */
import { useWebhookFixture } from './helpers';

const fx = useWebhookFixture({ pendingMs: 10, generatingMs: 40 });

test('one message delivered to two workflows whose triggers share a node id starts a run in each', async () => {
	fx.sb.setOptions({ webhooks: false });
	const parameters = { events: ['success'], registration: 'manual' };
	const first = await fx.createTrigger({ parameters, credentials: fx.withSecret() });
	const second = await fx.createTrigger({ parameters, credentials: fx.withSecret() });
	// The harness gives every trigger the same node id, each its own workflow id.
	const document = fx.deliverable();
	const answers = [
		await fx.sb.webhooks.send(first.url, document, { id: 'msg_to_every_endpoint' }),
		await fx.sb.webhooks.send(second.url, document, { id: 'msg_to_every_endpoint' }),
	];
	expect(answers.map((a) => a.status)).toEqual([200, 200]);
	expect(first.executions()).toHaveLength(1);
	expect(second.executions()).toHaveLength(1);
});
