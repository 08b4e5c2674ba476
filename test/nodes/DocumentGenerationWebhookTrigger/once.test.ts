/**
 * The instant trigger under copies and strangers, on n8n-core's WebhookContext against the
 * sandbox: copies of one signed delivery arriving together start one run; a failed delivery
 * frees its id; without a signing secret every delivery gets the same answer, one run per
 * document version and a bounded number of reads; bodies as the service sends them (meta as
 * a string, the quota warning, a file name before success, a null payload).
 */
import { credentialsFor } from '../../harness';
import type { Sandbox } from '../../sandbox';
import { logged, until } from '../../harness/fixtures';
import { locator, useWebhookFixture } from './helpers';

const fx = useWebhookFixture({ pendingMs: 10, generatingMs: 40, webhooks: false });
const { activated, billing, deliverable, template, withSecret } = fx;
let sb: Sandbox;
beforeEach(() => {
	sb = fx.sb;
});

const fileRequests = () => sb.requests.filter((r) => r.path.startsWith('/files/')).length;
const cardReads = (id: unknown) =>
	sb.requests.filter((r) => r.path === `/api/v1/document_cards/${String(id)}`).length;

describe('copies of one signed delivery', () => {
	test('four copies arriving together, Download File on (a slow file): one run, every copy answered 2xx, one file fetched', async () => {
		const t = await activated({ events: ['success'], download: true });
		const document = deliverable();
		sb.faults.add({ type: 'delay', delayMs: 400, path: '/files/', times: 4 });
		const copies = await Promise.all(
			Array.from({ length: 4 }, () => sb.webhooks.send(t.url, document, { id: 'msg_together' })),
		);
		expect(copies.map((c) => c.status)).toEqual([200, 200, 200, 200]);
		expect(t.executions()).toHaveLength(1);
		expect(t.executions()[0][0].json).toMatchObject({
			id: document.id,
			deliveryId: 'msg_together',
		});
		expect(t.executions()[0][0].binary?.data?.mimeType).toBe('application/pdf');
		expect(fileRequests()).toBe(1);
		// Later copies too: no run.
		expect((await sb.webhooks.send(t.url, document, { id: 'msg_together' })).status).toBe(200);
		expect(t.executions()).toHaveLength(1);
	});

	test('a copy arriving while the first fails is answered 503; the id is free again, and the next attempt runs', async () => {
		const t = await activated({ events: ['success'], download: true });
		const document = deliverable();
		// The file breaks off twice (the download's own second try included): the first fails.
		// Its first file request is held until the second copy has arrived (a copy waits for
		// the first's outcome before it answers).
		const held = sb.faults.add({
			type: 'cut',
			path: '/files/',
			afterBytes: 10,
			delayMs: 600_000,
		});
		sb.faults.add({ type: 'cut', path: '/files/', afterBytes: 10 });
		const first = sb.webhooks.send(t.url, document, { id: 'msg_fails' });
		await logged(sb, (r) => r.path.startsWith('/files/'));
		const copy = sb.webhooks.send(t.url, document, { id: 'msg_fails' });
		await until(() => t.received.length === 2);
		expect(sb.faults.release(held)).toBe(1);
		const copies = await Promise.all([first, copy]);
		expect(copies.map((c) => c.status)).toEqual([500, 503]);
		expect(copies[1].answer).toMatch(/send it again later/);
		expect(fileRequests()).toBe(2);
		expect(t.executions()).toHaveLength(0);
		const retry = await sb.webhooks.send(t.url, document, { id: 'msg_fails' });
		expect(retry.status).toBe(200);
		expect(t.executions()).toHaveLength(1);
		expect(t.executions()[0][0].binary?.data?.mimeType).toBe('application/pdf');
	});
});

describe('bodies as the service sends them', () => {
	test('meta as a string of JSON (as the service sends it) or as an object: one run each, meta an object; invalid JSON stays the string', async () => {
		const t = await activated({ events: ['success'] });
		const { id } = sb.createDocument({
			status: 'success',
			document_template_id: template('invoice'),
			meta: { order_id: 'A-1' },
		});
		const asString = sb.webhooks.documentOf(id);
		expect(typeof asString.meta).toBe('string');
		await sb.webhooks.send(t.url, asString);
		await sb.webhooks.send(t.url, sb.webhooks.documentOf(id, { metaAsObject: true }));
		await sb.webhooks.send(t.url, { ...asString, meta: '{not json' });
		expect(t.executions().map((run) => run[0].json.meta)).toEqual([
			{ order_id: 'A-1' },
			{ order_id: 'A-1' },
			'{not json',
		]);
	});

	test('a file name before success is not trusted, a null payload reads as {}', async () => {
		const t = await activated({ events: ['failure'], download: true });
		const failed = deliverable({ status: 'failure' });
		await sb.webhooks.send(t.url, { ...failed, filename: 'quota.pdf', payload: null });
		const [run] = t.executions();
		expect(run[0].json).toMatchObject({ id: failed.id, filename: null, payload: {} });
		expect(run[0].binary).toBeUndefined();
		expect(fileRequests()).toBe(0);
	});

	test('a signed quota warning: registered as its own hook, one run with its figures', async () => {
		const t = await activated({
			events: ['success', 'quotaWarning'],
			filters: { templateIds: [template('invoice')], channel: 'billing' },
		});
		const hooks = [...sb.webhooks.hooks.values()];
		expect(hooks.map((h) => h.event).sort()).toEqual([
			'documents.generation.success',
			'quota.warning',
		]);
		// About the account, not a document: no template and no channel.
		expect(hooks.find((h) => h.event === 'quota.warning')).toMatchObject({
			url: t.url,
			workspace_id: billing(),
			document_template_ids: null,
			custom_channel: null,
		});
		const [delivery] = await sb.webhooks.quotaWarning({ available_documents: 20 });
		expect(delivery.status).toBe(200);
		expect(t.executions()).toHaveLength(1);
		expect(t.executions()[0][0].json).toEqual({
			event: 'quota.warning',
			period_start: '2026-10-01T00:00:00Z',
			period_end: '2026-11-01T00:00:00Z',
			available_documents: 20,
			threshold: 80,
			deliveryId: delivery.id,
		});
		expect(await t.checkExists()).toBe(true);
	});

	test('a quota warning not chosen, or unsigned, starts nothing', async () => {
		const body = JSON.stringify({ period_start: 'x', available_documents: 5, threshold: 90 });
		const t = await activated({ events: ['success'] });
		expect([...sb.webhooks.hooks.values()].map((h) => h.event)).toEqual([
			'documents.generation.success',
		]);
		expect((await sb.webhooks.send(t.url, undefined, { rawBody: body })).status).toBe(200);
		expect(t.executions()).toHaveLength(0);
		await t.close();
		const unsigned = await activated({ events: ['quotaWarning'] }, credentialsFor(sb));
		const answer = await sb.webhooks.send(unsigned.url, undefined, {
			rawBody: body,
			unsigned: true,
		});
		expect(answer.status).toBe(200);
		expect(unsigned.executions()).toHaveLength(0);
		expect(sb.requests.filter((r) => r.path.startsWith('/api/v1/document')).length).toBe(0);
	});
});

describe('the quota warning among the events', () => {
	test('alone: one hook, and document deliveries start nothing', async () => {
		const t = await activated({ events: ['quotaWarning'] });
		expect([...sb.webhooks.hooks.values()].map((h) => h.event)).toEqual(['quota.warning']);
		expect((await sb.webhooks.send(t.url, deliverable())).status).toBe(200);
		expect(t.executions()).toHaveLength(0);
		await sb.webhooks.quotaWarning();
		expect(t.executions()).toHaveLength(1);
	});

	test('an event the trigger does not know, or none, fails activation naming the choices', async () => {
		for (const events of [['quotaWarning', 'quota'], []]) {
			const trigger = await fx.createTrigger({
				parameters: { workspaceId: locator(billing()), events },
				credentials: withSecret(),
			});
			await expect(trigger.create()).rejects.toMatchObject({
				message: expect.stringMatching(
					events.length ? /"quota" is not one the trigger knows/ : /No event is chosen/,
				),
				description: expect.stringMatching(/Quota Warning/),
			});
			await trigger.close();
		}
		expect(sb.webhooks.hooks.size).toBe(0);
	});
});

describe('without a signing secret', () => {
	test('the same answer whatever the id: unknown, draft, finished, another template, junk, a quota warning', async () => {
		const t = await activated(
			{ events: ['success'], filters: { templateIds: [template('invoice')] } },
			credentialsFor(sb),
		);
		const finished = deliverable();
		const answers = [
			await sb.webhooks.send(t.url, finished, { unsigned: true }),
			await sb.webhooks.send(
				t.url,
				{ id: '00000000-0000-4000-8000-00000000abcd', status: 'success' },
				{ unsigned: true },
			),
			await sb.webhooks.send(
				t.url,
				{ ...deliverable({ status: 'draft' }), status: 'success' },
				{
					unsigned: true,
				},
			),
			await sb.webhooks.send(t.url, deliverable({ status: 'failure' }), { unsigned: true }),
			await sb.webhooks.send(t.url, deliverable({ document_template_id: template('receipt') }), {
				unsigned: true,
			}),
			await sb.webhooks.send(t.url, { id: 'not-an-id' }, { unsigned: true }),
			await sb.webhooks.send(t.url, undefined, { unsigned: true, rawBody: '[1,2]' }),
			await sb.webhooks.send(t.url, undefined, {
				unsigned: true,
				rawBody: '{"available_documents": 1, "threshold": 99}',
			}),
		];
		const seen = answers.map((a) => ({ status: a.status, body: a.answer }));
		expect(new Set(seen.map((a) => JSON.stringify(a))).size).toBe(1);
		expect(seen[0].status).toBe(200);
		// Only the finished invoice started a run.
		expect(t.executions()).toHaveLength(1);
		expect(t.executions()[0][0].json.id).toBe(finished.id);
	});

	test('posts of one id again and again: one run and one read per version; a new version runs again', async () => {
		const t = await activated({ events: ['success'] }, credentialsFor(sb));
		const document = deliverable();
		for (let i = 0; i < 5; i++) await sb.webhooks.send(t.url, document, { unsigned: true });
		expect(t.executions()).toHaveLength(1);
		expect(cardReads(document.id)).toBe(1);
		// A body claiming an older version, or none, reads nothing either.
		await sb.webhooks.send(t.url, { id: document.id }, { unsigned: true });
		await sb.webhooks.send(
			t.url,
			{ ...document, updated_at: '2020-01-01T00:00:00Z' },
			{
				unsigned: true,
			},
		);
		expect(cardReads(document.id)).toBe(1);
		// Generated again: a new updated_at, a new run.
		sb.updateDocument(String(document.id), { status: 'success', updated_at: Date.now() + 5_000 });
		const again = sb.webhooks.documentOf(String(document.id));
		await sb.webhooks.send(t.url, again, { unsigned: true });
		await sb.webhooks.send(t.url, again, { unsigned: true });
		expect(t.executions()).toHaveLength(2);
		expect(cardReads(document.id)).toBe(2);
	});

	test('four posts of one id arriving together: one read, one run', async () => {
		const t = await activated({ events: ['success'], download: true }, credentialsFor(sb));
		const document = deliverable();
		sb.faults.add({ type: 'delay', delayMs: 300, path: `/api/v1/document_cards/`, times: 4 });
		const answers = await Promise.all(
			Array.from({ length: 4 }, () => sb.webhooks.send(t.url, document, { unsigned: true })),
		);
		expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
		expect(t.executions()).toHaveLength(1);
		expect(cardReads(document.id)).toBe(1);
	});

	test('reads are bounded: at most 30 a minute per trigger, then 503 without a read', async () => {
		const t = await activated({ events: ['success'] }, credentialsFor(sb));
		const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
		const answers = [];
		for (let n = 1; n <= 31; n++)
			answers.push(await sb.webhooks.send(t.url, { id: id(n) }, { unsigned: true }));
		expect(answers.slice(0, 30).every((a) => a.status === 200)).toBe(true);
		expect(answers[30].status).toBe(503);
		expect(sb.requests.filter((r) => r.path.startsWith('/api/v1/document_cards/')).length).toBe(30);
	});
});

describe('one message sent to every endpoint', () => {
	test('one message delivered to two workflows whose triggers share a node id starts a run in each', async () => {
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
});
