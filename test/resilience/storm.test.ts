/**
 * A 429 storm on the triggers, on n8n-core's PollContext and hook/webhook contexts against
 * the sandbox: the polling trigger waits for the limit and fires every document once, or, when
 * the service asks for longer than it waits, fails the poll with its cursor untouched; the
 * webhook trigger registers and removes its hooks through 429s and keeps exactly the hooks it
 * made; a delivery that cannot be checked just now is answered 503, to be sent again.
 */
import {
	createPoller,
	createWebhookTrigger,
	credentialsFor,
	type Poller,
	type WebhookTrigger,
} from '../harness';
import { startSandbox, type Sandbox } from '../sandbox';
import { keysOf, recordKey } from '../nodes/DocumentGenerationTrigger/helpers';
import { statusFault } from '../harness/fixtures';

const LIST = '/api/v1/document_cards';
let sb: Sandbox;

beforeEach(async () => {
	sb = await startSandbox({ pendingMs: 10, generatingMs: 40 });
});
afterEach(async () => {
	await sb.close();
});

async function activePoller(parameters = {}): Promise<Poller> {
	const poller = await createPoller({
		parameters: { events: ['success'], ...parameters },
		credentials: credentialsFor(sb),
	});
	expect(await poller.poll()).toBeNull(); // activation: history does not fire
	return poller;
}

function finished(count: number): string[] {
	return Array.from({ length: count }, () => sb.createDocument({ status: 'success' }).id);
}

describe('the polling trigger', () => {
	test('list requests answered 429: the poll waits as asked and fires every document once', async () => {
		const poller = await activePoller();
		const ids = finished(30);
		sb.faults.add(statusFault(429, 'GET', LIST, { retryAfter: '1', times: 3 }));
		const started = Date.now();
		const keys = keysOf(await poller.poll());
		expect(Date.now() - started).toBeGreaterThanOrEqual(900);
		expect(keys.sort()).toEqual(ids.map((id) => recordKey(sb, id)).sort());
		expect(sb.requests.filter((r) => r.status === 429)).toHaveLength(3);
		expect(await poller.poll()).toBeNull();
	});

	test('a storm without Retry-After, with the files: every document once, each with its file', async () => {
		const poller = await activePoller({ download: true });
		const ids = finished(12);
		sb.faults.add({ type: 'status', status: 429, method: 'GET', path: '/api/', times: 3 });
		const result = await poller.poll();
		expect(result![0]).toHaveLength(12);
		expect(result![0].every((item) => item.binary?.data?.mimeType === 'application/pdf')).toBe(
			true,
		);
		expect(keysOf(result).sort()).toEqual(ids.map((id) => recordKey(sb, id)).sort());
		expect(await poller.poll()).toBeNull();
	});

	test('a wait longer than a poll accepts: the poll fails at once and changes nothing; the next fires everything once', async () => {
		const poller = await activePoller();
		const before = JSON.stringify(poller.staticData());
		const ids = finished(5);
		sb.faults.add({ type: 'status', status: 429, retryAfter: '600', method: 'GET', path: LIST });
		sb.resetRequests();
		await expect(poller.poll()).rejects.toMatchObject({
			message: expect.stringMatching(
				/^The service asked to wait 600 s before the next request \(429 Too Many Requests\)/,
			),
			description: expect.stringMatching(/this poll fired nothing and changed nothing/),
		});
		// At once: the refused list request is the poll's only one (no second try after a wait;
		// a poll that waited the 600 s would end at jest's timeout).
		expect(sb.requests.map((r) => [r.method, r.path, r.status])).toEqual([['GET', LIST, 429]]);
		expect(JSON.stringify(poller.staticData())).toBe(before);
		expect(keysOf(await poller.poll()).sort()).toEqual(ids.map((id) => recordKey(sb, id)).sort());
	});

	test('behind a real request limit (2 per second), ten polls in a row lose and repeat nothing', async () => {
		const poller = await activePoller();
		sb.setOptions({ rateLimit: { requests: 2, perMs: 1000 } });
		// However fast or slow the machine (the limit may refuse nothing), some list requests
		// are refused: the fourth to seventh.
		sb.faults.add(statusFault(429, 'GET', LIST, { retryAfter: '1', after: 3, times: 4 }));
		const fired: string[] = [];
		const made: string[] = [];
		for (let round = 0; round < 10; round++) {
			made.push(...finished(3));
			fired.push(...keysOf(await poller.poll()));
		}
		expect(sb.faults.list()).toEqual([]);
		expect(sb.requests.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(4);
		expect(fired.sort()).toEqual(made.map((id) => recordKey(sb, id)).sort());
	});
});

describe('the webhook trigger', () => {
	let trigger: WebhookTrigger | undefined;
	afterEach(async () => {
		await trigger?.close();
		trigger = undefined;
	});
	const billing = () => sb.workspaces.find((w) => w.identifier === 'Acme Billing')!.id;
	const activate = async () =>
		(trigger = await createWebhookTrigger({
			parameters: {
				events: ['success', 'failure'],
				workspaceId: { __rl: true, mode: 'id', value: billing() },
			},
			credentials: credentialsFor(sb),
		}));

	test('registration and removal through 429s keep exactly the hooks it made', async () => {
		const t = await activate();
		sb.faults.add(statusFault(429, 'POST', '/api/v1/rest_hooks', { retryAfter: '1', times: 2 }));
		expect(await t.create()).toBe(true);
		const hooks = [...sb.webhooks.hooks.keys()];
		expect(hooks).toHaveLength(2);
		expect((t.staticData().hooks as { ids: string[] }).ids.sort()).toEqual(hooks.sort());
		expect(await t.checkExists()).toBe(true);

		sb.faults.add(statusFault(429, 'DELETE', '/api/v1/rest_hooks', { times: 3 }));
		expect(await t.delete()).toBe(true);
		expect(sb.webhooks.hooks.size).toBe(0);
		expect(t.staticData().hooks).toBeUndefined();
	});

	test('a wait longer than activation accepts: activation fails saying so, and forgets no hook it made', async () => {
		const t = await activate();
		// The first hook registers; the second is refused with a 10-minute wait, and so is the
		// removal of the first.
		sb.faults.add({
			type: 'status',
			status: 429,
			retryAfter: '600',
			path: '/api/v1/rest_hooks',
			after: 1,
			times: 2,
		});
		await expect(t.create()).rejects.toMatchObject({
			message: expect.stringMatching(/^The service asked to wait 600 s/),
			description: expect.stringMatching(/activate the workflow again in a few minutes/),
		});
		const [left] = [...sb.webhooks.hooks.keys()];
		expect(sb.webhooks.hooks.size).toBe(1);
		expect(t.staticData().hooks).toEqual({ signature: '', ids: [left] });
		expect(await t.checkExists()).toBe(false);
		// Activated again once the limit allows: the leftover goes, two hooks are made.
		sb.faults.clear();
		expect(await t.create()).toBe(true);
		expect(sb.webhooks.hooks.has(left)).toBe(false);
		expect(sb.webhooks.hooks.size).toBe(2);
	});

	test('without a secret, a delivery whose document cannot be read just now (429) answers 503 and starts nothing; sent again, it starts one run', async () => {
		const t = await activate();
		expect(await t.create()).toBe(true);
		sb.setOptions({ webhooks: false });
		const doc = sb.createDocument({ status: 'success' });
		sb.faults.add(
			statusFault(429, 'GET', `/api/v1/document_cards/${doc.id}`, { retryAfter: '60' }),
		);
		const first = await sb.webhooks.send(t.url, sb.webhooks.documentOf(doc.id));
		expect(first.status).toBe(503);
		expect(t.executions()).toHaveLength(0);
		const again = await sb.webhooks.send(t.url, sb.webhooks.documentOf(doc.id));
		expect(again.status).toBe(200);
		expect(t.executions()).toHaveLength(1);
	});
});
