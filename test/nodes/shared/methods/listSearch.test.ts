/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- test code: runs in Node under jest, never inside n8n */
/**
 * The editor's dynamic lists, called the way the editor's dynamic-parameters endpoint calls
 * them: the node's `methods.listSearch` / `methods.loadOptions` through n8n-core's
 * LoadOptionsContext (harness `listSearch` / `loadOptions`) on the BUILT package, against
 * the sandbox. Needs `npm run build` first.
 */
import { startSandbox, type Sandbox, type TemplateRecord } from '../../../sandbox';
import { credentialsFor, listSearch, loadOptions, type DgCredentials } from '../../../harness';

const TRIGGER = 'documentGenerationTrigger';

let sb: Sandbox;
let creds: Required<DgCredentials>;

const template = (identifier: string): TemplateRecord => {
	const found = sb.templates.find((t) => t.identifier === identifier);
	if (!found) throw new Error(`no seeded template ${identifier}`);
	return found;
};
const workspaceId = (identifier: string): string => {
	const found = sb.workspaces.find((w) => w.identifier === identifier);
	if (!found) throw new Error(`no seeded workspace ${identifier}`);
	return found.id;
};
const requestsTo = (path: string) => sb.requests.filter((r) => r.path === path);

beforeAll(async () => {
	sb = await startSandbox({ seed: 7 });
	creds = credentialsFor(sb);
});

afterAll(async () => {
	await sb.close();
});

beforeEach(() => {
	sb.resetRequests();
	sb.faults.clear();
});

describe('template picker (listSearch searchTemplates)', () => {
	test('lists every template with its folder, workspace and non-PDF output type, sorted', async () => {
		const { results, paginationToken } = await listSearch('searchTemplates', {
			credentials: creds,
		});
		expect(paginationToken).toBeUndefined();
		expect(results).toHaveLength(sb.templates.length);
		expect(results.map((r) => r.name)).toEqual(
			[...results.map((r) => r.name)].sort((a, b) => a.localeCompare(b)),
		);
		const byValue = new Map(results.map((r) => [r.value, r.name]));
		expect(byValue.get(template('invoice').id)).toBe('Billing / invoice (Acme Billing)');
		expect(byValue.get(template('payslip').id)).toBe('Payroll / payslip (Acme HR)');
		expect(byValue.get(template('contract').id)).toBe('contract (Acme HR)');
		expect(byValue.get(template('badge').id)).toBe('badge (Acme HR, image)');
		// One request for all templates (page=all), no per-keystroke paging.
		const calls = requestsTo('/api/v1/document_template_cards');
		expect(calls).toHaveLength(1);
		expect(calls[0].query.page).toBe('all');
	});

	test('narrows as the user types, case-insensitively, on name, folder and workspace', async () => {
		const names = async (filter: string) =>
			(await listSearch('searchTemplates', { credentials: creds, filter })).results
				.map((r) => r.value)
				.sort();

		expect(await names('INV')).toEqual([template('invoice').id]);
		expect(await names('  payroll ')).toEqual([template('payslip').id]);
		expect(await names('acme hr')).toEqual(
			[template('payslip').id, template('contract').id, template('badge').id].sort(),
		);
		// Every word must match somewhere: workspace "Billing" and name "rec".
		expect(await names('billing rec')).toEqual([template('receipt').id]);
		expect(await names('no such template')).toEqual([]);
	});

	test('a pasted id, or a URL holding one, finds that template', async () => {
		const { id } = template('contract');
		for (const filter of [
			id,
			` ${id.toUpperCase()} `,
			`https://dashboard.example.com/templates/${id}/edit`,
		]) {
			const { results } = await listSearch('searchTemplates', { credentials: creds, filter });
			expect(results).toEqual([{ name: 'contract (Acme HR)', value: id }]);
		}
	});

	test('still lists templates (without workspace names) when workspaces cannot be read', async () => {
		sb.faults.add({
			path: '/api/v1/workspace_cards',
			type: 'status',
			status: 403,
			times: Infinity,
		});
		const { results } = await listSearch('searchTemplates', { credentials: creds });
		expect(results).toHaveLength(sb.templates.length);
		expect(results.find((r) => r.value === template('invoice').id)?.name).toBe('Billing / invoice');
		expect(results.find((r) => r.value === template('badge').id)?.name).toBe('badge (image)');
	});
});

describe('workspace filter (loadOptions getWorkspaces)', () => {
	test.each([['documentGeneration'], [TRIGGER]])('%s: workspaces by name', async (nodeType) => {
		const options = await loadOptions('getWorkspaces', { credentials: creds, nodeType });
		// "All Workspaces" (the empty default) is in the list, so the editor never marks the
		// default as "not supported".
		expect(options).toEqual([
			{ name: 'All Workspaces', value: '' },
			{ name: 'Acme Billing', value: workspaceId('Acme Billing') },
			{ name: 'Acme HR', value: workspaceId('Acme HR') },
		]);
	});
});

describe('workspace locator (listSearch searchWorkspaces)', () => {
	test('by name as the user types it, or by a pasted id; sorted by name', async () => {
		const names = async (filter?: string) =>
			(await listSearch('searchWorkspaces', { credentials: creds, filter })).results;
		const billing = { name: 'Acme Billing', value: workspaceId('Acme Billing') };
		const hr = { name: 'Acme HR', value: workspaceId('Acme HR') };
		expect(await names()).toEqual([billing, hr]);
		expect(await names('  hr ')).toEqual([hr]);
		expect(await names('acme bill')).toEqual([billing]);
		expect(await names(`https://dashboard.example/workspaces/${hr.value.toUpperCase()}`)).toEqual([
			hr,
		]);
		expect(await names('payroll')).toEqual([]);
	});
});

describe('template filter (loadOptions getTemplates)', () => {
	const hrTemplates = () => ['badge (image)', 'contract', 'Payroll / payslip'];

	test('without a workspace: every template, each with its workspace', async () => {
		const options = await loadOptions('getTemplates', {
			credentials: creds,
			parameters: { resource: 'document', operation: 'getAll', filters: {} },
			path: 'parameters.filters.templateIds',
		});
		expect(options.map((o) => o.name)).toEqual([
			'always-fails (Acme Billing)',
			'badge (Acme HR, image)',
			'Billing / invoice (Acme Billing)',
			'Billing / receipt (Acme Billing)',
			'contract (Acme HR)',
			'Payroll / payslip (Acme HR)',
		]);
		expect(new Set(options.map((o) => o.value))).toEqual(new Set(sb.templates.map((t) => t.id)));
		expect(
			requestsTo('/api/v1/document_template_cards')[0].query['q[workspace_id]'],
		).toBeUndefined();
	});

	test('action node (Get Many): narrowed by the workspace chosen in the same Filters', async () => {
		const hr = workspaceId('Acme HR');
		const options = await loadOptions('getTemplates', {
			credentials: creds,
			parameters: { resource: 'document', operation: 'getAll', filters: { workspaceId: hr } },
			path: 'parameters.filters.templateIds',
		});
		expect(options.map((o) => o.name)).toEqual(hrTemplates());
		expect(options.map((o) => o.value).sort()).toEqual(
			sb.templates
				.filter((t) => t.app_id === hr)
				.map((t) => t.id)
				.sort(),
		);
		// Narrowed by the service, not only locally.
		const calls = requestsTo('/api/v1/document_template_cards');
		expect(calls).toHaveLength(1);
		expect(calls[0].query['q[workspace_id]']).toBe(hr);
	});

	test('trigger: narrowed by the workspace chosen in its Filters', async () => {
		const billing = workspaceId('Acme Billing');
		const options = await loadOptions('getTemplates', {
			credentials: creds,
			nodeType: TRIGGER,
			parameters: { events: ['success'], filters: { workspaceId: billing, templateIds: [] } },
			path: 'parameters.filters.templateIds',
		});
		expect(options.map((o) => o.name)).toEqual([
			'always-fails',
			'Billing / invoice',
			'Billing / receipt',
		]);
		expect(requestsTo('/api/v1/document_template_cards')[0].query['q[workspace_id]']).toBe(billing);
	});

	test('webhook trigger: narrowed by its own Workspace locator', async () => {
		const hr = workspaceId('Acme HR');
		const options = await loadOptions('getTemplates', {
			credentials: creds,
			nodeType: 'documentGenerationWebhookTrigger',
			parameters: {
				events: ['success'],
				workspaceId: { __rl: true, mode: 'list', value: hr },
				filters: { templateIds: [] },
			},
			path: 'parameters.filters.templateIds',
		});
		expect(options.map((o) => o.name)).toEqual(hrTemplates());
		expect(requestsTo('/api/v1/document_template_cards')[0].query['q[workspace_id]']).toBe(hr);
	});

	test('an upper-case or padded workspace id works; anything that is not an id means all workspaces', async () => {
		const hr = workspaceId('Acme HR');
		const narrowed = await loadOptions('getTemplates', {
			credentials: creds,
			nodeType: TRIGGER,
			parameters: { filters: { workspaceId: ` ${hr.toUpperCase()} ` } },
		});
		expect(narrowed.map((o) => o.name)).toEqual(hrTemplates());

		for (const workspace of ['', '={{ $json.workspace }}', '[ERROR: no data]', undefined]) {
			const options = await loadOptions('getTemplates', {
				credentials: creds,
				nodeType: TRIGGER,
				parameters: { filters: workspace === undefined ? {} : { workspaceId: workspace } },
			});
			expect(options).toHaveLength(sb.templates.length);
		}
	});
});

describe('document picker (listSearch searchDocuments)', () => {
	const ids: Record<string, string> = {};
	const statements: string[] = [];

	beforeAll(() => {
		const start = sb.clock.now();
		const invoice = template('invoice').id;
		for (let i = 1; i <= 28; i++) {
			const name = `statement-${String(i).padStart(2, '0')}.pdf`;
			const doc = sb.createDocument({
				document_template_id: invoice,
				status: 'success',
				filename: name,
				updated_at: start - i * 60_000,
			});
			ids[name] = doc.id;
			statements.push(doc.id);
		}
		ids.draft = sb.createDocument({
			document_template_id: template('receipt').id,
			meta: { _filename: 'quote-7.pdf', order: 7 },
			updated_at: start - 40 * 60_000,
		}).id;
		ids.failed = sb.createDocument({
			document_template_id: template('payslip').id,
			status: 'failure',
			updated_at: start - 50 * 60_000,
		}).id;
	});

	const when = (id: string) => {
		const iso = String(sb.cardJson(id).updated_at);
		return `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
	};

	test('pages through every document with pagination tokens; labels show file name or id, status, template, date', async () => {
		// All 30 on one page of 100; a service that ignores the size serves 24 and a next page.
		const whole = await listSearch('searchDocuments', { credentials: creds });
		expect(whole.results).toHaveLength(30);
		expect(whole.paginationToken).toBeUndefined();
		sb.setOptions({ honourPageSize: false });
		let first, second;
		try {
			first = await listSearch('searchDocuments', { credentials: creds });
			expect(first.results).toHaveLength(24);
			expect(first.paginationToken).toBe('2');
			second = await listSearch('searchDocuments', {
				credentials: creds,
				paginationToken: first.paginationToken,
			});
		} finally {
			sb.setOptions({ honourPageSize: true });
		}
		expect(second.results).toHaveLength(6);
		expect(second.paginationToken).toBeUndefined();
		expect(whole.results.map((r) => r.value).sort()).toEqual(
			[...first.results, ...second.results].map((r) => r.value).sort(),
		);

		const all = [...first.results, ...second.results];
		expect(new Set(all.map((r) => r.value))).toEqual(
			new Set([...statements, ids.draft, ids.failed]),
		);
		const label = new Map(all.map((r) => [r.value, r.name]));
		const s5 = ids['statement-05.pdf'];
		expect(label.get(s5)).toBe(`statement-05.pdf (success · invoice · ${when(s5)})`);
		// Not generated yet: the file name asked for in meta._filename.
		expect(label.get(ids.draft)).toBe(`quote-7.pdf (draft · receipt · ${when(ids.draft)})`);
		// No file name at all: the id.
		expect(label.get(ids.failed)).toBe(`${ids.failed} (failure · payslip · ${when(ids.failed)})`);

		const pages = requestsTo('/api/v1/document_cards').map((r) => r.query['page[number]']);
		expect(pages).toEqual(['1', '1', '2']);
	});

	test('narrows by part of the file name, searched by the service (q[search])', async () => {
		const { results, paginationToken } = await listSearch('searchDocuments', {
			credentials: creds,
			filter: ' statement-1 ',
		});
		expect(paginationToken).toBeUndefined();
		expect(results.map((r) => r.name.split(' ')[0]).sort()).toEqual(
			Array.from({ length: 10 }, (_, i) => `statement-1${i}.pdf`),
		);
		expect(requestsTo('/api/v1/document_cards')[0].query['q[search]']).toBe('statement-1');
	});

	test('finds a document by its id, also pasted upper-case or inside a URL', async () => {
		const id = ids['statement-21.pdf'];
		for (const filter of [id, id.toUpperCase(), `https://dashboard.example.com/documents/${id}`]) {
			sb.resetRequests();
			const { results } = await listSearch('searchDocuments', { credentials: creds, filter });
			expect(results.map((r) => r.value)).toEqual([id]);
			expect(requestsTo('/api/v1/document_cards')[0].query['q[search]']).toBe(id);
		}
	});

	test('no match gives an empty list; a token that is not a page number starts at page 1', async () => {
		const none = await listSearch('searchDocuments', {
			credentials: creds,
			filter: 'no-such-file',
		});
		expect(none).toEqual({ results: [], paginationToken: undefined });

		await listSearch('searchDocuments', { credentials: creds, paginationToken: 'garbage' });
		expect(requestsTo('/api/v1/document_cards').pop()?.query['page[number]']).toBe('1');
	});
});

describe('errors in the lists', () => {
	test('a wrong API key gives a readable error that does not carry the key', async () => {
		const wrongKey = 'sk_live_wrong_key_for_this_test_42';
		for (const call of [
			() => listSearch('searchTemplates', { credentials: { ...creds, apiKey: wrongKey } }),
			() => listSearch('searchDocuments', { credentials: { ...creds, apiKey: wrongKey } }),
			() => loadOptions('getWorkspaces', { credentials: { ...creds, apiKey: wrongKey } }),
		]) {
			const error = (await call().then(
				() => undefined,
				(e: unknown) => e,
			)) as { message?: string; description?: string; httpCode?: string } | undefined;
			expect(error).toBeDefined();
			const text = `${error?.message} ${error?.description ?? ''}`;
			expect(text).toMatch(/api key|authenticat|unauthori[sz]ed|401/i);
			expect(JSON.stringify(error)).not.toContain(wrongKey);
			expect(text).not.toContain(wrongKey);
		}
	});
});
