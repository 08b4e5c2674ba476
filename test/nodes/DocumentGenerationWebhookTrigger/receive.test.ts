/**
 * The instant (webhook) trigger on n8n-core's HookContext and WebhookContext, against the
 * sandbox: registration and removal of hooks across n8n's lifecycle, signed deliveries from
 * the sandbox when documents finish, and every refusal (forged, stale, unsigned, missing
 * headers, repeated, other template or channel, untrusted bodies without a secret).
 */
import { credentialsFor } from '../../harness';
import { until } from '../../harness/fixtures';
import type { Sandbox } from '../../sandbox';
import { locator, useWebhookFixture } from './helpers';

const fx = useWebhookFixture({ pendingMs: 10, generatingMs: 40 });
const { activated, billing, deliverable, template, withSecret } = fx;
let sb: Sandbox;
beforeEach(() => {
	sb = fx.sb;
});

/** Deliveries sent by hand only: documents finishing in the sandbox notify nobody. */
const byHandOnly = () => sb.setOptions({ webhooks: false });

async function finished(fields: Record<string, unknown>, deliveries = 1) {
	const before = sb.webhooks.deliveries.length;
	const doc = sb.createDocument({
		document_template_id: template('invoice'),
		status: 'pending',
		...fields,
	});
	await until(
		() =>
			sb.webhooks.deliveries.length >= before + deliveries &&
			sb.webhooks.deliveries.every((d) => d.status !== 0 || d.answer !== ''),
	);
	return doc.id;
}

describe('registration (automatic)', () => {
	test('activation registers one hook per event with the production URL, workspace, templates and channel', async () => {
		const t = await activated({
			events: ['success', 'failure'],
			filters: { templateIds: [template('invoice')], channel: 'billing' },
		});
		const hooks = [...sb.webhooks.hooks.values()];
		expect(hooks.map((h) => h.event).sort()).toEqual([
			'documents.generation.failure',
			'documents.generation.success',
		]);
		for (const hook of hooks) {
			expect(hook).toMatchObject({
				url: t.url,
				workspace_id: billing(),
				document_template_ids: [template('invoice')],
				custom_channel: 'billing',
			});
		}
		expect(await t.checkExists()).toBe(true);
	});

	test('deactivation removes every hook; a restart finds them and registers nothing more', async () => {
		const t = await activated({ events: ['success', 'failure'] });
		expect(sb.webhooks.hooks.size).toBe(2);
		// n8n restarts: it asks checkExists first and creates only when false.
		expect(await t.checkExists()).toBe(true);
		expect(sb.webhooks.hooks.size).toBe(2);
		expect(await t.delete()).toBe(true);
		expect(sb.webhooks.hooks.size).toBe(0);
		expect(t.staticData().hooks).toBeUndefined();
		// A hook already deleted in the dashboard does not make deactivation fail.
		await t.create();
		sb.webhooks.hooks.clear();
		expect(await t.delete()).toBe(true);
	});

	test('editing the filters: checkExists says no, create replaces the old hooks', async () => {
		const t = await activated({ events: ['success'] });
		const [old] = [...sb.webhooks.hooks.keys()];
		t.setParameters({
			workspaceId: locator(billing()),
			events: ['success'],
			filters: { channel: 'x' },
		});
		expect(await t.checkExists()).toBe(false);
		await t.create();
		expect([...sb.webhooks.hooks.keys()]).not.toContain(old);
		expect([...sb.webhooks.hooks.values()].map((h) => h.custom_channel)).toEqual(['x']);
	});

	test('a refused registration fails activation saying what to fix, and leaves no hook', async () => {
		const trigger = await fx.createTrigger({
			parameters: {
				workspaceId: locator('00000000-0000-4000-8000-00000000abcd'),
				events: ['success', 'failure'],
			},
			credentials: withSecret(),
		});
		await expect(trigger.create()).rejects.toMatchObject({
			message: expect.stringMatching(/refused the data \(422\): workspace must exist/),
			description: expect.stringMatching(/Check the Workspace/),
		});
		expect(sb.webhooks.hooks.size).toBe(0);
	});

	test('manual registration registers nothing', async () => {
		const trigger = await fx.createTrigger({
			parameters: { registration: 'manual' },
			credentials: withSecret(),
		});
		expect(await trigger.checkExists()).toBe(true);
		expect(await trigger.create()).toBe(true);
		expect(await trigger.delete()).toBe(true);
		expect(sb.requests).toHaveLength(0);
	});
});

describe('deliveries with a signing secret', () => {
	test('a document that finishes starts one execution with the card, meta parsed; the file on request', async () => {
		const t = await activated({ events: ['success'], download: true });
		const id = await finished({ meta: { order_id: 'A-1' } });
		await until(() => t.received.length === 1);
		expect(t.received[0].status).toBe(200);
		const [items] = t.executions();
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ id, status: 'success', meta: { order_id: 'A-1' } });
		expect(items[0].binary?.data?.mimeType).toBe('application/pdf');
	});

	test('forged, stale, tampered, unsigned or half-signed deliveries answer 401 and start nothing', async () => {
		byHandOnly();
		const t = await activated({ events: ['success'] });
		const document = deliverable();
		const bad = [
			await sb.webhooks.send(t.url, document, {
				secret: `whsec_${Buffer.from('another key').toString('base64')}`,
			}),
			await sb.webhooks.send(t.url, document, { ageSeconds: 301 }),
			await sb.webhooks.send(t.url, document, { timestamp: Math.floor(Date.now() / 1000) + 400 }),
			await sb.webhooks.send(t.url, document, { tamper: (b) => b.replace('success', 'failure') }),
			await sb.webhooks.send(t.url, document, { unsigned: true }),
			await sb.webhooks.send(t.url, document, { signature: 'v0,abc' }),
		];
		expect(bad.map((d) => d.status)).toEqual([401, 401, 401, 401, 401, 401]);
		expect(bad[1].answer).toMatch(/more than 5 minutes/);
		expect(t.executions()).toHaveLength(0);
		// Any of several signatures may match (the service rotates secrets).
		const body = JSON.stringify({ document });
		const ts = String(Math.floor(Date.now() / 1000));
		const good = await sb.webhooks.send(t.url, document, {
			id: 'msg_rotated',
			timestamp: Number(ts),
			signature: `v1,bm90IHRoaXMgb25l ${sb.webhooks.sign('msg_rotated', ts, body)}`,
		});
		expect(good.status).toBe(200);
		expect(t.executions()).toHaveLength(1);
	});

	test("every item carries the delivery's id (svix-id) as deliveryId", async () => {
		const t = await activated({ events: ['success'] });
		await finished({});
		await until(() => t.received.length === 1);
		await until(() => t.executions().length === 1);
		const [delivery] = sb.webhooks.deliveries;
		expect(delivery.id).toMatch(/^msg_/);
		expect(t.executions()[0][0].json.deliveryId).toBe(delivery.id);
		// A delivery sent by hand carries the id it was sent with.
		byHandOnly();
		const document = deliverable();
		const attempt = await sb.webhooks.send(t.url, document, { id: 'msg_same' });
		expect(attempt.status).toBe(200);
		await until(() => t.executions().length === 2);
		expect(t.executions()[1][0].json.deliveryId).toBe('msg_same');
	});

	test("a delivered document's download_url says when it ends: the link's own signature times", async () => {
		const t = await activated({ events: ['success'] });
		await finished({});
		await until(() => t.executions().length === 1);
		const json = t.executions()[0][0].json;
		const url = new URL(String(json.download_url));
		const signedAt = url.searchParams.get('X-Amz-Date')!;
		const iso = `${signedAt.slice(0, 4)}-${signedAt.slice(4, 6)}-${signedAt.slice(6, 11)}:${signedAt.slice(11, 13)}:${signedAt.slice(13, 15)}Z`;
		const ends = Date.parse(iso) + Number(url.searchParams.get('X-Amz-Expires')) * 1000;
		expect(json.download_url_expires_at).toBe(new Date(ends).toISOString());
	});

	test('a repeated delivery (same svix-id) starts nothing the second time', async () => {
		byHandOnly();
		const t = await activated({ events: ['success'] });
		const document = deliverable();
		await sb.webhooks.send(t.url, document, { id: 'msg_1' });
		const again = await sb.webhooks.send(t.url, document, { id: 'msg_1' });
		expect(again.status).toBe(200);
		expect(t.executions()).toHaveLength(1);
	});

	test('a delivery whose file cannot be fetched is answered with an error, and its retry starts the run', async () => {
		byHandOnly();
		const t = await activated({ events: ['success'], download: true });
		const document = deliverable();
		sb.faults.add({ type: 'status', status: 404, path: '/files/' });
		const first = await sb.webhooks.send(t.url, document, { id: 'msg_retry' });
		expect(first.status).toBe(500);
		expect(t.executions()).toHaveLength(0);
		// The service sends the same delivery again.
		const again = await sb.webhooks.send(t.url, document, { id: 'msg_retry' });
		expect(again.status).toBe(200);
		expect(t.executions()).toHaveLength(1);
		expect(t.executions()[0][0].binary?.data?.mimeType).toBe('application/pdf');
	});

	test('deliveries for another template, another channel or another event start nothing', async () => {
		byHandOnly();
		const t = await activated({
			events: ['success'],
			filters: { templateIds: [template('invoice')], channel: 'billing' },
		});
		const answers = [
			await sb.webhooks.send(
				t.url,
				deliverable({
					document_template_id: template('receipt'),
					meta: { _webhook_channel: 'billing' },
				}),
			),
			await sb.webhooks.send(t.url, deliverable({ meta: { _webhook_channel: 'hr' } })),
			await sb.webhooks.send(
				t.url,
				deliverable({ status: 'failure', meta: { _webhook_channel: 'billing' } }),
			),
		];
		expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
		expect(t.executions()).toHaveLength(0);
		await sb.webhooks.send(t.url, deliverable({ meta: { _webhook_channel: 'billing' } }));
		expect(t.executions()).toHaveLength(1);
	});
});

describe('what a signed delivery that starts nothing is answered', () => {
	test('200, received and not started, with the reason: another template, a body without a document, a quota warning not chosen', async () => {
		byHandOnly();
		const t = await activated({
			events: ['success'],
			filters: { templateIds: [template('invoice')] },
		});
		const answers = [
			await sb.webhooks.send(t.url, deliverable({ document_template_id: template('receipt') })),
			await sb.webhooks.send(t.url, undefined, { rawBody: JSON.stringify({ event: 'ping' }) }),
			await sb.webhooks.send(t.url, undefined, { rawBody: '{"document": {"id": 42}}' }),
			await sb.webhooks.send(t.url, undefined, {
				rawBody: JSON.stringify({ available_documents: 5, threshold: 90 }),
			}),
		];
		const notStarted = (reason: string) => ({
			status: 200,
			answer: { received: true, started: false, reason },
		});
		expect(answers.map((a) => ({ status: a.status, answer: JSON.parse(a.answer) }))).toEqual([
			notStarted('not started: it belongs to another template'),
			notStarted('the body holds no document'),
			notStarted('the body holds no document'),
			notStarted('not started: the quota warning is not a chosen event'),
		]);
		expect(t.executions()).toHaveLength(0);
	});

	test('a delivery sent again an hour later (the service retries for hours) is answered as handled and starts nothing', async () => {
		byHandOnly();
		const t = await activated({ events: ['success'] });
		const document = deliverable();
		expect((await sb.webhooks.send(t.url, document, { id: 'msg_hour' })).status).toBe(200);
		// The host clock an hour on; the delivery signed at that time.
		const realNow = Date.now.bind(Date);
		const later = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 3_600_000);
		try {
			const again = await sb.webhooks.send(t.url, document, {
				id: 'msg_hour',
				timestamp: Math.floor(Date.now() / 1000),
			});
			expect({ status: again.status, answer: JSON.parse(again.answer) }).toEqual({
				status: 200,
				answer: { received: true, started: false, reason: 'this delivery was handled already' },
			});
		} finally {
			later.mockRestore();
		}
		expect(t.executions()).toHaveLength(1);
	});

	test('a link without signature times, delivered hours after the document finished, ends an hour after it finished', async () => {
		byHandOnly();
		const t = await activated({ events: ['success'] });
		const finishedAt = Date.now() - 3 * 3_600_000;
		const document = {
			...deliverable(),
			download_url: 'https://files.example.com/invoice.pdf',
			updated_at: new Date(finishedAt).toISOString(),
		};
		expect((await sb.webhooks.send(t.url, document)).status).toBe(200);
		expect(t.executions()[0][0].json.download_url_expires_at).toBe(
			new Date(finishedAt + 3_600_000).toISOString(),
		);
	});
});

describe('the body n8n reads before the trigger, by version', () => {
	// n8n reads a webhook's body before a node of version 1 runs whatever its type, and above
	// version 1 only for the types it parses (JSON, text, form, XML); the harness does the same.
	test.each([
		[1, 'application/json'],
		[1, 'application/octet-stream'],
		[2, 'application/json'],
		[2, 'application/octet-stream'],
	])(
		'version %s, a signed delivery sent as %s: checked over its raw bytes, one run',
		async (typeVersion, contentType) => {
			byHandOnly();
			const t = await fx.createTrigger({
				parameters: { events: ['success'], registration: 'manual' },
				credentials: withSecret(),
				typeVersion,
			});
			const document = deliverable();
			const delivery = await sb.webhooks.send(t.url, document, {
				headers: { 'content-type': contentType },
			});
			expect(delivery.status).toBe(200);
			expect(t.executions().map((items) => items.map((item) => item.json.id))).toEqual([
				[document.id],
			]);
		},
	);
});

describe('deliveries without a signing secret', () => {
	test('the body is not trusted: the document is read back with the key, and its real status decides', async () => {
		const t = await activated({ events: ['success'] }, credentialsFor(sb));
		byHandOnly();
		const draft = sb.createDocument({
			status: 'draft',
			document_template_id: template('invoice'),
		}).id;
		// A forged body claims success for a draft: the API says draft, nothing starts.
		const forged = await sb.webhooks.send(
			t.url,
			{ ...sb.webhooks.documentOf(draft), status: 'success' },
			{ unsigned: true },
		);
		expect(forged.status).toBe(200);
		const unknown = await sb.webhooks.send(
			t.url,
			{ id: '00000000-0000-4000-8000-00000000abcd', status: 'success' },
			{ unsigned: true },
		);
		const junk = await sb.webhooks.send(t.url, null, {
			unsigned: true,
			rawBody: '{"document": {"id": "../../x"}}',
		});
		// No oracle: an unknown id, a draft and junk get the very same answer.
		expect(JSON.parse(forged.answer)).toEqual({ received: true });
		for (const answer of [unknown, junk])
			expect({ status: answer.status, body: answer.answer }).toEqual({
				status: forged.status,
				body: forged.answer,
			});
		expect(t.executions()).toHaveLength(0);
		// A real one: the service's own record is emitted.
		sb.setOptions({ webhooks: true });
		sb.resetRequests();
		const id = await finished({});
		await until(() => t.executions().length === 1);
		expect(t.executions()[0][0].json).toMatchObject({ id, status: 'success' });
		// Without a secret nothing is trusted, the delivery's id neither.
		expect(t.executions()[0][0].json).not.toHaveProperty('deliveryId');
		expect(sb.requests.some((r) => r.path === `/api/v1/document_cards/${id}`)).toBe(true);
	});
});
