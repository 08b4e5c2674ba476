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
			await page.waitForTimeout(1500);
			return panel;
		};
		const warningsIn = async (panel) =>
			await panel.locator('[data-test-id="parameter-issues"], .parameter-issues').count();

		// The control: a template left empty shows a warning, so the check below can see one.
		const control = await openPanel(flows.control.id, 'No template');
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
	});
}

module.exports = { chromiumPath, runBrowser };
