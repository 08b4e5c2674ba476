'use strict';
// The account's other resources that real clients call: workspaces, template folders,
// snippets and PDF engines. Folders and snippets answer nothing without q[workspace_id], as
// the service does.

const { uuidV4, isoTime } = require('./util');

const ENGINES = [
	{ name: 'v3', version: 3, deprecated_on: '2025-06-30' },
	{ name: 'v4', version: 4, deprecated_on: null },
];

function createCatalog({ store, random, now, options = {} }) {
	const stamp = (r) => ({
		...r,
		created_at: isoTime(r.created_at),
		updated_at: isoTime(r.updated_at),
	});
	const folders = [];
	for (const t of store.templates) {
		if (!t.template_folder_identifier) continue;
		let folder = folders.find(
			(f) => f.app_id === t.app_id && f.identifier === t.template_folder_identifier,
		);
		if (!folder) {
			folder = {
				id: t.template_folder_id || uuidV4(random),
				app_id: t.app_id,
				identifier: t.template_folder_identifier,
				created_at: t.created_at,
				updated_at: t.created_at,
			};
			folders.push(folder);
		}
		t.template_folder_id = folder.id;
	}
	const snippets = [
		{
			id: uuidV4(random),
			identifier: 'company-footer',
			code: '<footer>{{ seller.name }}</footer>',
			workspace_id: store.workspaces[0].id,
			creator_name: 'Sandbox Tester',
			updater_name: 'Sandbox Tester',
			created_at: store.workspaces[0].created_at,
			updated_at: store.workspaces[0].updated_at,
		},
	];
	const engines = ENGINES.map((e) => ({ id: uuidV4(random), ...e }));
	const engineById = (id) => engines.find((e) => e.id === id);
	const folderById = (id) => folders.find((f) => f.id === id);
	/** Sets the engine a template renders with (published), as its card names it. */
	const publishEngine = (t, engine) => {
		t.pdf_engine_id = engine.id;
		t.pdf_engine_name = engine.name;
		t.pdf_engine_deprecated_on = engine.deprecated_on;
	};
	// Seeded templates render with the current engine, except the receipt: still on the
	// deprecated one.
	const current = engines.find((e) => !e.deprecated_on);
	const deprecated = engines.find((e) => e.deprecated_on);
	for (const t of store.templates) {
		publishEngine(t, t.identifier === 'receipt' ? deprecated : current);
		t.pdf_engine_draft_id = t.pdf_engine_id;
	}
	const workspaceRecord = (w) => ({ ...stamp(w), invite_token: `inv_${w.id.slice(0, 8)}` });

	/** list/get/create/update/delete of a workspace-scoped collection. */
	function crud({ plural, singular, list, workspaceKey, fields, h }) {
		const path = new RegExp(`^/api/v1/${plural}$`);
		const member = new RegExp(`^/api/v1/${plural}/([^/]+)$`);
		const find = (id) => list.find((r) => r.id === id);
		return [
			[
				'GET',
				path,
				(ctx) => {
					const workspaceId = h.queryValue(ctx.query, 'q[workspace_id]');
					const rows = workspaceId ? list.filter((r) => r[workspaceKey] === workspaceId) : [];
					// page=all: every record at once, without the page meta (as template cards);
					// `ignorePageAll` pages them anyway, 24 at a time.
					if (h.queryValue(ctx.query, 'page') === 'all' && !options.ignorePageAll)
						return h.json(200, { [plural]: rows.map(stamp) });
					const { items, meta } = h.paginate(rows, ctx.query);
					return h.json(200, { [plural]: items.map(stamp), meta });
				},
			],
			[
				'GET',
				member,
				(ctx, id) =>
					find(id) ? h.json(200, { [singular]: stamp(find(id)) }) : h.notFound(singular, id),
			],
			[
				'POST',
				path,
				(ctx) =>
					h.withBody(ctx, singular, (body) => {
						const errors = {};
						if (typeof body.identifier !== 'string' || !body.identifier.trim())
							errors.identifier = ["can't be blank"];
						const workspaceId = body[workspaceKey];
						if (!store.workspaces.some((w) => w.id === workspaceId))
							errors.workspace = ['must exist'];
						if (Object.keys(errors).length) return h.unprocessable(errors);
						const record = {
							id: uuidV4(random),
							[workspaceKey]: workspaceId,
							created_at: now(),
							updated_at: now(),
						};
						for (const f of fields) if (body[f] !== undefined) record[f] = body[f];
						list.push(record);
						return h.json(201, { [singular]: stamp(record) });
					}),
			],
			[
				['PUT', 'PATCH'],
				member,
				(ctx, id) => {
					const record = find(id);
					if (!record) return h.notFound(singular, id);
					return h.withBody(ctx, singular, (body) => {
						if (
							body.identifier !== undefined &&
							(typeof body.identifier !== 'string' || !body.identifier.trim())
						)
							return h.unprocessable({ identifier: ["can't be blank"] });
						for (const f of fields) if (body[f] !== undefined) record[f] = body[f];
						record.updated_at = now();
						return h.json(200, { [singular]: stamp(record) });
					});
				},
			],
			[
				'DELETE',
				member,
				(ctx, id) => {
					const index = list.findIndex((r) => r.id === id);
					if (index < 0) return h.notFound(singular, id);
					list.splice(index, 1);
					return { status: 204, headers: {}, body: '' };
				},
			],
		];
	}

	function routes(h) {
		return [
			[
				'GET',
				/^\/api\/v1\/workspaces$/,
				(ctx) => {
					const { items, meta } = h.paginate(store.workspaces, ctx.query);
					return h.json(200, { workspaces: items.map(workspaceRecord), meta });
				},
			],
			[
				'GET',
				/^\/api\/v1\/workspaces\/([^/]+)$/,
				(ctx, id) => {
					const w = store.workspaces.find((x) => x.id === id);
					return w ? h.json(200, { workspace: workspaceRecord(w) }) : h.notFound('App', id);
				},
			],
			['GET', /^\/api\/v1\/pdf_engines$/, () => h.json(200, { pdf_engines: engines })],
			...crud({
				plural: 'template_folders',
				singular: 'template_folder',
				list: folders,
				workspaceKey: 'app_id',
				fields: ['identifier'],
				h,
			}),
			...crud({
				plural: 'snippets',
				singular: 'snippet',
				list: snippets,
				workspaceKey: 'workspace_id',
				fields: ['identifier', 'code'],
				h,
			}),
		];
	}

	return { folders, snippets, engines, engineById, folderById, routes };
}

module.exports = { createCatalog };
