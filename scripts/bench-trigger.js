#!/usr/bin/env node
'use strict';
/* Figures of the polling trigger: requests per poll through the real n8n engine (PollContext,
 * via the test harness) against the local sandbox, with the sandbox's manual clock driving
 * service time. Needs the built package: `npm run build && node scripts/bench-trigger.js`.
 *
 * Prints, per scenario, the list requests (and file requests) each poll made, the items it
 * fired and its wall time on this machine:
 *   - steady idle polls (one and two events);
 *   - a burst of N documents finishing within one second (default 100), then the idle polls
 *     after it; with the list newest-first (the common case) and reshuffled on every request;
 *   - the same burst with Download File on;
 *   - a burst of N failures (Generation Failed only: no download links, so the service's
 *     time comes only from the lists' Date header), then idle polls;
 *   - first activation over a long history.
 *
 *   node scripts/bench-trigger.js [--burst 100] [--history 500] [--ignore-page-size]
 *     --ignore-page-size   the sandbox serves 24 cards a page whatever page[size] asks */
const { cliOption, runScript } = require('./ts-register');

const BURST = Number(cliOption('--burst', 100));
const HISTORY = Number(cliOption('--history', 500));
const HONOUR_PAGE_SIZE = !process.argv.includes('--ignore-page-size');
const LIST = '/api/v1/document_cards';
const START = Date.UTC(2030, 0, 1, 9, 0, 0);

async function main() {
	const { startSandbox } = require('../test/sandbox');
	const { createPoller, credentialsFor } = require('../test/harness');
	const rows = [];

	async function scenario(
		title,
		{ events = ['success'], order = 'newest', download = false, history = 5 },
		run,
	) {
		const sb = await startSandbox({
			clock: 'manual',
			startTime: START,
			listOrder: order,
			seed: 11,
			honourPageSize: HONOUR_PAGE_SIZE,
		});
		try {
			for (let i = 0; i < history; i++) {
				sb.createDocument({ status: i % 7 === 6 ? 'failure' : 'success' });
				sb.clock.advance(500);
			}
			sb.clock.advance(60_000);
			const poller = await createPoller({
				parameters: { events, download, binaryPropertyName: 'data' },
				credentials: credentialsFor(sb),
			});
			const poll = async (label) => {
				sb.resetRequests();
				const started = process.hrtime.bigint();
				const result = await poller.poll();
				const ms = Number(process.hrtime.bigint() - started) / 1e6;
				const list = sb.count({ method: 'GET', path: LIST });
				const files = sb.count({ path: '/files/' });
				const fired = result ? result[0].length : 0;
				rows.push({ scenario: title, poll: label, list, files, fired, ms: ms.toFixed(1) });
				return fired;
			};
			await run({ sb, poll });
		} finally {
			await sb.close();
		}
	}

	const burst = (sb, n, status = 'success') => {
		// n documents finishing within one second (several in the same millisecond).
		for (let i = 0; i < n; i++) {
			sb.createDocument({ status });
			if (i % 10 === 9) sb.clock.advance(90);
		}
	};

	/** Polls a minute apart, with no new document: `<label> 1`, `<label> 2`, … */
	const idlePolls = async ({ sb, poll }, count, label) => {
		for (let i = 1; i <= count; i++) {
			sb.clock.advance(60_000);
			await poll(`${label} ${i}`);
		}
	};
	/** The poll a second after a burst, then `idle` polls a minute apart. */
	const afterBurst = async (ctx, idle) => {
		ctx.sb.clock.advance(1000);
		await ctx.poll('burst');
		await idlePolls(ctx, idle, 'idle after');
	};

	await scenario('steady, success', {}, async ({ sb, poll }) => {
		await poll('activation');
		await idlePolls({ sb, poll }, 3, 'idle');
		sb.createDocument({ status: 'success' });
		sb.clock.advance(2000);
		await poll('1 new document');
		sb.clock.advance(60_000);
		await poll('idle after it');
	});

	await scenario(
		'steady, success + failure',
		{ events: ['success', 'failure'] },
		async ({ sb, poll }) => {
			await poll('activation');
			await idlePolls({ sb, poll }, 3, 'idle');
		},
	);

	for (const order of ['newest', 'random']) {
		await scenario(`burst of ${BURST} in 1 s (${order} order)`, { order }, async ({ sb, poll }) => {
			await poll('activation');
			sb.clock.advance(60_000);
			await poll('idle before');
			burst(sb, BURST);
			await afterBurst({ sb, poll }, 2);
		});
	}

	await scenario(
		`burst of ${BURST} in 1 s, success + failure`,
		{ events: ['success', 'failure'] },
		async ({ sb, poll }) => {
			await poll('activation');
			burst(sb, Math.round(BURST * 0.8));
			burst(sb, BURST - Math.round(BURST * 0.8), 'failure');
			await afterBurst({ sb, poll }, 2);
		},
	);

	await scenario(
		`burst of ${BURST} failures in 1 s (failure only)`,
		{ events: ['failure'] },
		async ({ sb, poll }) => {
			await poll('activation');
			sb.clock.advance(60_000);
			await poll('idle before');
			burst(sb, BURST, 'failure');
			await afterBurst({ sb, poll }, 3);
		},
	);

	await scenario(
		`burst of ${BURST} in 1 s, Download File on`,
		{ download: true },
		async ({ sb, poll }) => {
			await poll('activation');
			burst(sb, BURST);
			await afterBurst({ sb, poll }, 1);
		},
	);

	for (const order of ['newest', 'random']) {
		await scenario(
			`activation over ${HISTORY} documents (${order} order)`,
			{ order, history: HISTORY },
			async ({ sb, poll }) => {
				await poll('activation');
				sb.clock.advance(60_000);
				await poll('idle 1');
			},
		);
	}

	const widths = { scenario: 46, poll: 16, list: 6, files: 6, fired: 6, ms: 8 };
	const line = (row) =>
		Object.entries(widths)
			.map(([key, width]) =>
				key === 'scenario' || key === 'poll'
					? String(row[key]).padEnd(width)
					: String(row[key]).padStart(width),
			)
			.join(' ');
	console.log(
		`Polling trigger: requests per poll (sandbox, manual clock, ${HONOUR_PAGE_SIZE ? '100 cards a page (page[size] honoured)' : '24 cards a page (page[size] ignored)'}; list = list requests, files = downloads)\n`,
	);
	console.log(
		line({
			scenario: 'scenario',
			poll: 'poll',
			list: 'list',
			files: 'files',
			fired: 'fired',
			ms: 'ms',
		}),
	);
	console.log('-'.repeat(Object.values(widths).reduce((a, b) => a + b + 1, 0)));
	let last = '';
	for (const row of rows) {
		console.log(line({ ...row, scenario: row.scenario === last ? '' : row.scenario }));
		last = row.scenario;
	}
}

runScript('bench-trigger', main);
