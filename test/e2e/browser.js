'use strict';
// The editor in a real browser: Debian's chromium driven by playwright-core.
const fs = require('fs');

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

async function runBrowser({ n8n, outDir, check, flows }) {
	const executablePath = process.env.E2E_CHROMIUM || CHROMIUM.find((p) => fs.existsSync(p));
	if (!executablePath) return { skipped: 'no chromium found (apt-get install chromium)' };
	const { chromium } = require('playwright-core');
	const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
	try {
		const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
		fs.mkdirSync(outDir, { recursive: true });
		await page.goto(`${n8n.url}/signin`);
		await page.getByLabel(/email/i).first().fill('owner@example.test');
		await page
			.getByLabel(/password/i)
			.first()
			.fill('E2e-Passw0rd!');
		await page.getByRole('button', { name: /sign in/i }).click();
		await page.waitForURL(/\/home|\/workflows/, { timeout: 30_000 });
		check('browser: the owner signs in to the editor', true);

		const openPanel = async (id, nodeName) => {
			await page.goto(`${n8n.url}/workflow/${id}`);
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

		// The control: the check below can see a warning when there is one.
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
			await page.goto(`${n8n.url}/workflow/${id}`);
			const node = page
				.locator(`[data-name="${nodeName}"], [data-test-id="canvas-node"]:has-text("${nodeName}")`)
				.first();
			await node.waitFor({ timeout: 30_000 });
			await node.dblclick();
			const panel = page.locator('[data-test-id="ndv"], .ndv-wrapper').first();
			await panel.waitFor({ timeout: 15_000 });
			await page.waitForTimeout(1500);
			const warnings = await panel
				.locator('[data-test-id="parameter-issues"], .parameter-issues')
				.count();
			check(
				`browser: the ${shot.replace('-', ' ')} panel opens with no parameter warning`,
				warnings === 0,
				`${warnings} warnings`,
			);
			await page.screenshot({ path: `${outDir}/${shot}.png` });
			await page.keyboard.press('Escape');
		}

		// The credential: open it and press Test.
		await page.goto(`${n8n.url}/home/credentials`);
		await page.getByText('PDFMonkey (sandbox)').first().click();
		const modal = page.locator('[data-test-id="editCredential-modal"], .el-dialog').first();
		await modal.waitFor({ timeout: 15_000 });
		const retry = modal.getByRole('button', { name: /retry|test/i }).first();
		if (await retry.count()) await retry.click();
		const ok = await modal
			.getByText(/connection tested successfully/i)
			.first()
			.waitFor({ timeout: 20_000 })
			.then(
				() => true,
				() => false,
			);
		check('browser: the credential test passes', ok);
		await page.screenshot({ path: `${outDir}/credential.png` });
	} finally {
		await browser.close();
	}
	return {};
}

module.exports = { runBrowser };
