'use strict';
// The action node as an AI Agent's tool, in a real n8n: n8n's AI Agent with an OpenAI Chat
// Model whose credential points at a small local stand-in for the chat-completions API. The
// tool fills the payslip's Template Fields, each field left to the model (`$fromAI`), so the
// tool schema the model receives must be the template's own fields with their types.

const http = require('http');
const path = require('path');

const { freePort } = require('./n8n');
const { root } = require('./common');

/** What the stand-in answers with for the payslip (the model's side of the conversation). */
const ARGUMENTS = {
	period: 'December 2026',
	employee_name: 'Grace Hopper',
	employee_number: 1906,
	employee_department: 'Compilers',
	earnings: [{ label: 'Base salary', hours: 150, rate: 24 }],
	deductions: [{ label: 'Income tax', amount: 600 }],
	net_pay: 3000,
	bonus: 250,
};

/**
 * A local stand-in for `POST /v1/chat/completions`: the first call (no tool result yet)
 * answers with a call of the first tool; the call after the tool's result answers in words.
 * Every request body is kept.
 */
async function startChatStandIn() {
	const requests = [];
	const port = await freePort();
	const reply = (message, finish) => ({
		id: `chatcmpl-e2e-${requests.length}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: 'gpt-4o-mini',
		choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
		usage: { prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 },
	});
	const server = http.createServer((req, res) => {
		let text = '';
		req.on('data', (chunk) => (text += chunk));
		req.on('end', () => {
			let body = {};
			try {
				body = JSON.parse(text);
			} catch {
				body = {};
			}
			requests.push({ path: req.url, body });
			const messages = body.messages ?? [];
			const last = messages[messages.length - 1];
			const tool = body.tools?.[0]?.function?.name;
			const answer =
				last?.role === 'tool' || !tool
					? reply({ role: 'assistant', content: 'The payslip is ready.' }, 'stop')
					: reply(
							{
								role: 'assistant',
								content: null,
								tool_calls: [
									{
										id: 'call_e2e_1',
										type: 'function',
										function: { name: tool, arguments: JSON.stringify(ARGUMENTS) },
									},
								],
							},
							'tool_calls',
						);
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify(answer));
		});
	});
	await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

/** The `$fromAI` key of a template field: its path with other characters made `_`. */
const aiKey = (id) => id.replace(/[^a-zA-Z0-9_-]/g, '_');
const AI_TYPES = { string: 'string', number: 'number', boolean: 'boolean' };

/**
 * The payslip's Template Fields as the editor lists them (the built node's own code reads the
 * sandbox's template), each left to the model: the mapping n8n stores for the tool node.
 */
function payslipMapping(sb) {
	const folder = path.join(root, 'dist', 'nodes', 'DocumentGeneration', 'templateFields');
	const { mapperFields } = require(path.join(folder, 'resourceMapper.js'));
	const { templateFields } = require(path.join(folder, 'templateFields.js'));
	const template = sb.templates.find((t) => t.identifier === 'payslip');
	const fields = mapperFields(templateFields(template.body, template.sample_data)).filter(
		(f) => !/in the sample data only/.test(f.displayName),
	);
	const value = {};
	for (const field of fields) {
		const type = AI_TYPES[field.type] ?? 'json';
		const description = field.displayName.replace(/'/g, '’');
		value[field.id] = `={{ $fromAI('${aiKey(field.id)}', '${description}', '${type}') }}`;
	}
	return {
		fields,
		mapping: {
			mappingMode: 'defineBelow',
			value,
			schema: fields.map((f) => ({ ...f, removed: false })),
			matchingColumns: [],
			attemptToConvertTypes: false,
			convertFieldsToString: false,
		},
	};
}

/**
 * Runs the agent workflow with `n8n execute` and checks what the model was offered, what the
 * tool made and what the model got back.
 */
async function runAgentCheck({ n8n, sb, chat, flow, fields, check }) {
	const before = new Set(sb.documents.keys());
	const run = await n8n.cli(['execute', `--id=${flow.id}`, '--rawOutput'], { allowFail: true });
	const offered = chat.requests[0]?.body?.tools?.[0]?.function?.parameters?.properties ?? {};
	const expected = Object.fromEntries(fields.map((f) => [aiKey(f.id), AI_TYPES[f.type] ?? 'json']));
	const offeredTypes = Object.fromEntries(
		Object.entries(offered).map(([key, schema]) => [key, schema.type ?? 'json']),
	);
	const sameKeys = Object.keys(expected).sort().join() === Object.keys(offeredTypes).sort().join();
	const typed = Object.entries(expected).every(
		([key, type]) => type === 'json' || offeredTypes[key] === type,
	);
	check(
		"agent: the tool's schema the model receives is the payslip's own fields with their types",
		sameKeys && typed,
		Object.entries(offeredTypes)
			.map(([k, t]) => `${k}:${t}`)
			.join(' '),
	);
	const made = [...sb.documents.values()].filter((d) => !before.has(d.id));
	const payload = made[0] ? JSON.parse(made[0].payload) : undefined;
	check(
		"agent: the model's values go out as the template's nested, typed payload",
		run.status === 0 &&
			made.length === 1 &&
			payload?.employee?.name === 'Grace Hopper' &&
			payload?.employee?.number === 1906 &&
			payload?.net_pay === 3000 &&
			Array.isArray(payload?.earnings) &&
			payload.earnings[0]?.rate === 24,
		`exit ${run.status}; ${made.length} document(s); ${JSON.stringify(payload)}`,
	);
	const toolMessage = chat.requests[1]?.body?.messages?.find((m) => m.role === 'tool');
	const content = String(toolMessage?.content ?? '');
	check(
		'agent: the model gets the finished document back (id, status), no file bytes',
		!!made[0] &&
			content.includes(made[0].id) &&
			content.includes('success') &&
			content.length < 5000,
		`${content.length} characters`,
	);
}

module.exports = { startChatStandIn, payslipMapping, runAgentCheck };
