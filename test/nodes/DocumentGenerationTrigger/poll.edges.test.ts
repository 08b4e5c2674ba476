/**
 * The edges of the polling trigger's n8n side (nodes/DocumentGenerationTrigger/poll.ts) that
 * "Fetch test event" shows: what a manual run with nothing matching says (every chosen event,
 * the templates, the workspace by its name or, when the names cannot be read, by its id), and
 * the file of the document it shows when Download File is on, and the link it hands on when
 * the first one expired on its way. Needs `npm run build` first.
 */
import type { INodeParameters } from 'n8n-workflow';

import { linkExpiry } from '../../../nodes/shared/helpers/linkExpiry';
import { createPoller, credentialsFor, describeError, getBinaryBuffer } from '../../harness';
import { withFirstLinkExpired } from '../../harness/fixtures';
import type { Sandbox } from '../../sandbox';
import { fileRequests } from '../DocumentGeneration/helpers';
import { finishMany, itemsOf, rigSandbox } from './helpers';

let current: Sandbox | undefined;
afterEach(async () => {
	await current?.close();
	current = undefined;
});

async function sandbox(): Promise<Sandbox> {
	current = await rigSandbox();
	return current;
}

/** The description of the error a manual run of a trigger with these parameters fails with. */
async function manualRunRefusal(sb: Sandbox, parameters: INodeParameters): Promise<string> {
	const poller = await createPoller({ parameters, credentials: credentialsFor(sb) });
	const error = await poller.poll('manual').then(
		() => undefined,
		(e: unknown) => e,
	);
	const info = describeError(error);
	expect(info.message).toBe(
		'No document matched the trigger: there is no finished document to show yet',
	);
	return String(info.description);
}

const HOW_TO_FIX =
	'Generate one (for example with the Document Generation node, Create with status "Pending"), or widen Events and Filters, then fetch a test event again.';

describe('a manual run with nothing matching', () => {
	test('names both events, both templates and the workspace, in words', async () => {
		const sb = await sandbox();
		const [invoice, receipt] = sb.templates;
		const hr = sb.workspaces.find((w) => w.identifier === 'Acme HR')!;
		const description = await manualRunRefusal(sb, {
			events: ['success', 'failure'],
			filters: { templateIds: `${invoice.id}, ${receipt.id}`, workspaceId: hr.id },
		});
		expect(description).toBe(
			`No document has status "success" or "failure", template ${invoice.id}, ${receipt.id}, workspace "Acme HR". ${HOW_TO_FIX}`,
		);
	});

	test('names the workspace by its id when the names cannot be read', async () => {
		const sb = await sandbox();
		const hr = sb.workspaces.find((w) => w.identifier === 'Acme HR')!;
		sb.faults.add({
			type: 'status',
			status: 500,
			path: '/api/v1/workspace_cards',
			times: Infinity,
		});
		const description = await manualRunRefusal(sb, {
			events: ['failure'],
			filters: { workspaceId: hr.id },
		});
		expect(description).toBe(
			`No document has status "failure", workspace "${hr.id}". ${HOW_TO_FIX}`,
		);
	});

	test('without filters names only the status', async () => {
		const sb = await sandbox();
		sb.createDocument({ status: 'failure' });
		expect(await manualRunRefusal(sb, { events: ['success'] })).toBe(
			`No document has status "success". ${HOW_TO_FIX}`,
		);
	});
});

test('a manual run with Download File on shows the newest success with its file', async () => {
	const sb = await sandbox();
	const [latest] = finishMany(sb, 1, { meta: { _filename: 'shown.pdf' } });
	const poller = await createPoller({
		parameters: { events: ['success'], download: true, binaryPropertyName: 'pdf' },
		credentials: credentialsFor(sb),
	});
	const [item] = itemsOf(await poller.poll('manual'));
	expect(item.json.id).toBe(latest);
	const file = item.binary?.pdf;
	expect(file?.fileName).toBe('shown.pdf');
	expect((await getBinaryBuffer(file!)).subarray(0, 5).toString()).toBe('%PDF-');
});

test('a file whose link expired on its way: the item hands on the renewed link and its end, not the expired ones', async () => {
	const sb = await sandbox();
	finishMany(sb, 1);
	const poller = await createPoller({
		parameters: { events: ['success'], download: true },
		credentials: credentialsFor(sb),
	});
	const [item] = itemsOf(await withFirstLinkExpired(sb, () => poller.poll('manual')));
	expect(fileRequests(sb).map((r) => r.status)).toEqual([403, 200]);
	const [expired, renewed] = fileRequests(sb).map((r) => `${sb.url}${r.path}?${r.rawQuery}`);
	expect(item.json.download_url).toBe(renewed);
	expect(item.json.download_url_expires_at).toBe(linkExpiry(renewed, 0));
	expect(item.json.download_url_expires_at).not.toBe(linkExpiry(expired, 0));
	expect((await getBinaryBuffer(item.binary!.data)).subarray(0, 5).toString()).toBe('%PDF-');
});
