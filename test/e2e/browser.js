'use strict';
// The editor in a real browser: Debian's chromium driven by playwright-core.
const fs = require('fs');

const { OWNER } = require('./common');

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The browser the suite drives: E2E_CHROMIUM, or Debian's chromium. */
function chromiumPath() {
	const chosen = process.env.E2E_CHROMIUM;
	if (chosen) return fs.existsSync(chosen) ? chosen : undefined;
	return CHROMIUM.find((p) => fs.existsSync(p));
}

const settled = (promise) =>
	promise.then(
		() => true,
		() => false,
	);

async function withPage(fn) {
	const executablePath = chromiumPath();
	if (!executablePath) return { skipped: 'no chromium found (apt-get install chromium)' };
	const { chromium } = require('playwright-core');
	const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
	try {
		await fn(await browser.newPage({ viewport: { width: 1440, height: 900 } }));
	} finally {
		await browser.close();
	}
	return {};
}

/**
 * Closes the drawers n8n opens by itself (what's new, the satisfaction survey), which would
 * otherwise cover the page.
 */
async function closeDrawers(page) {
	await page.waitForTimeout(1500);
	for (let i = 0; i < 5; i++) {
		const close = page.locator('[role="dialog"] .el-drawer__close-btn').first();
		if (!(await close.count())) return;
		await close.click({ timeout: 5000 }).catch(() => undefined);
		await page.waitForTimeout(400);
	}
}

async function runBrowser({ n8n, sb, outDir, check, flows }) {
	return await withPage(async (page) => {
		fs.mkdirSync(outDir, { recursive: true });
		await page.goto(`${n8n.url}/signin`);
		await page.locator('input[type="email"]').first().fill(OWNER.email);
		await page.locator('input[type="password"]').first().fill(OWNER.password);
		await page.getByRole('button', { name: /sign in/i }).click();
		const signedIn = await settled(
			page.waitForURL((u) => !u.pathname.startsWith('/signin'), { timeout: 30_000 }),
		);
		check('browser: the owner signs in to the editor', signedIn);
		await closeDrawers(page);

		// A credential created in the editor: saving it runs its test (current_user).
		await page.goto(`${n8n.url}/home/credentials/create`);
		const search = page.getByPlaceholder('Search for app...');
		await search.waitFor({ timeout: 30_000 });
		await search.fill('PDFMonkey');
		await page
			.getByText('Document Generation (PDFMonkey) API')
			.first()
			.waitFor({ timeout: 15_000 });
		await page.keyboard.press('Enter');
		await page.getByRole('button', { name: 'Continue' }).click();
		const dialog = page.locator('[role="dialog"]').filter({ hasText: 'API Key' }).first();
		const apiKey = dialog.locator('input[type="password"]').first();
		const baseUrl = dialog.locator('input[placeholder="https://api.pdfmonkey.io"]').first();
		let tested = false;
		try {
			await apiKey.waitFor({ timeout: 30_000 });
			await apiKey.fill(sb.apiKey);
			await baseUrl.fill(sb.url);
			await dialog.getByRole('button', { name: 'Save' }).click();
			tested = await settled(
				dialog
					.getByText(/connection tested successfully/i)
					.first()
					.waitFor({ timeout: 20_000 }),
			);
		} finally {
			await page.screenshot({ path: `${outDir}/credential.png` });
		}
		check('browser: a credential created in the editor passes its test', tested);
		await page.keyboard.press('Escape');

		const openPanel = async (id, nodeName) => {
			await page.goto(`${n8n.url}/workflow/${id}`);
			await closeDrawers(page);
			const node = page
				.locator(`[data-name="${nodeName}"], [data-test-id="canvas-node"]:has-text("${nodeName}")`)
				.first();
			await node.waitFor({ timeout: 30_000 });
			await node.dblclick();
			const panel = page.locator('[data-test-id="ndv"], .ndv-wrapper').first();
			await panel.waitFor({ timeout: 15_000 });
			// Its parameters drawn (their warnings are drawn with them).
			await panel
				.locator('[data-test-id^="parameter-input"]')
				.first()
				.waitFor({ timeout: 15_000 })
				.catch(() => undefined);
			return panel;
		};
		const issues = (panel) => panel.locator('[data-test-id="parameter-issues"], .parameter-issues');
		const warningsIn = async (panel) => await issues(panel).count();

		// The control: a template left empty shows a warning, so the check below can see one.
		const control = await openPanel(flows.control.id, 'No template');
		await issues(control)
			.first()
			.waitFor({ timeout: 15_000 })
			.catch(() => undefined);
		const controlWarnings = await warningsIn(control);
		check(
			'browser: a template left empty shows its parameter warning (the check can see one)',
			controlWarnings > 0,
			`${controlWarnings} warnings`,
		);
		await page.keyboard.press('Escape');

		// Each node's panel, opened from the workflows that hold them.
		const panels = [
			[flows.action.id, 'Generate invoice', 'action-node'],
			[flows.poll.id, 'Receipt ready', 'polling-trigger'],
			[flows.webhook.id, 'Invoice ready', 'webhook-trigger'],
		];
		for (const [id, nodeName, shot] of panels) {
			const panel = await openPanel(id, nodeName);
			const warnings = await warningsIn(panel);
			check(
				`browser: the ${shot.replace('-', ' ')} panel opens with no parameter warning`,
				warnings === 0,
				`${warnings} warnings`,
			);
			await page.screenshot({ path: `${outDir}/${shot}.png` });
			await page.keyboard.press('Escape');
		}

		await templateFields({ page, openPanel, sb, outDir, check, flows });
	});
}

/**
 * Drags a field of the input panel (schema view) onto a parameter, as a user maps data from
 * the previous node.
 */
async function drag(page, name, target) {
	const from = page.locator(`[data-target="mappable"][data-name="${name}"]`).first();
	await target.scrollIntoViewIfNeeded();
	const a = await from.boundingBox();
	const b = await target.boundingBox();
	if (!a || !b) return;
	await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
	await page.mouse.down();
	await page.mouse.move(a.x + a.width / 2 + 20, a.y + a.height / 2 + 5, { steps: 5 });
	await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 15 });
	await page.waitForTimeout(300);
	await page.mouse.up();
	await page.waitForTimeout(800);
}

/**
 * Template Fields in the editor: pick the payslip, its fields appear; drag two fields of the
 * previous node onto employee.name and net_pay; execute; the PDF holds the mapped values.
 */
async function templateFields({ page, openPanel, sb, outDir, check, flows }) {
	const { FIELDS_INPUT } = require('./workflows');
	await openPanel(flows.fields.id, 'Generate payslip');
	await page.locator('[data-test-id="rlc-input"]').first().click();
	await page.locator('[data-test-id="rlc-item"]').filter({ hasText: 'payslip' }).first().click();
	const field = (id) => page.locator(`[data-test-id="parameter-input-${id}"]`).first();
	const appeared = await settled(field('employee.name').waitFor({ timeout: 20_000 }));
	const shown = await page
		.locator('[data-test-id="mapping-fields-container"] [data-test-id="input-label"]')
		.allTextContents();
	check(
		"browser: picking the payslip lists its Template Fields (the template's own variables)",
		appeared && shown.some((t) => t.includes('earnings (list of')) && shown.length >= 8,
		`${shown.length} fields`,
	);
	const previous = page.getByRole('button', { name: 'Execute previous nodes' });
	if (await previous.count()) await previous.click();
	await page
		.locator('[data-target="mappable"][data-name="full_name"]')
		.first()
		.waitFor({ timeout: 20_000 })
		.catch(() => undefined);
	await drag(page, 'full_name', field('employee.name'));
	await drag(page, 'take_home', field('net_pay'));
	const before = new Set(sb.documents.keys());
	await page.locator('[data-test-id="node-execute-button"]').first().click();
	const done = () =>
		[...sb.documents.values()].find((d) => !before.has(d.id) && d.status === 'success');
	for (let i = 0; i < 60 && !done(); i++) await page.waitForTimeout(500);
	await page.waitForTimeout(1500);
	await field('employee.name').scrollIntoViewIfNeeded();
	await page.screenshot({ path: `${outDir}/template-fields.png` });
	const made = done();
	const payload = made ? JSON.parse(made.payload) : undefined;
	let text = '';
	if (made) {
		const file = await fetch(sb.downloadUrlFor(made.id));
		text = Buffer.from(await file.arrayBuffer()).toString('latin1');
	}
	check(
		'browser: two fields mapped from the previous node; executed, the PDF holds their values',
		payload?.employee?.name === FIELDS_INPUT.full_name &&
			payload?.net_pay === FIELDS_INPUT.take_home &&
			text.includes(FIELDS_INPUT.full_name) &&
			text.includes('4,321.50'),
		JSON.stringify(payload),
	);
	await page.keyboard.press('Escape');
}

module.exports = { chromiumPath, runBrowser };
