'use strict';
// The action node as an AI Agent's tools, in a real n8n: n8n's AI Agent with an OpenAI Chat
// Model whose credential points at a small local stand-in for the chat-completions API. The
// model first asks Template → Get Fields (the template's ID left to it) for the payslip's
// fields, then calls Create with values for the fields it was told of; Create fills the
// payslip's Template Fields, each left to the model (`$fromAI`), so its tool schema must be the
// template's own fields with their types.

const http = require('http');
const path = require('path');

const { freePort } = require('./n8n');
const { root } = require('./common');
const { PACKAGE, credentials, rl, workflow } = require('./parts');

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
 * A local stand-in for `POST /v1/chat/completions`: `next({ messages, tools })` says the tool
 * call the model makes next ({ name, arguments }), or nothing for its answer in words. Every
 * request body is kept.
 */
async function startChatStandIn(next) {
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
	const answer = (body) => {
		const call = body.tools?.length
			? next({ messages: body.messages ?? [], tools: body.tools })
			: undefined;
		if (!call) return reply({ role: 'assistant', content: 'The payslip is ready.' }, 'stop');
		const function_ = { name: call.name, arguments: JSON.stringify(call.arguments) };
		const toolCall = { id: `call_e2e_${requests.length}`, type: 'function', function: function_ };
		return reply({ role: 'assistant', content: null, tool_calls: [toolCall] }, 'tool_calls');
	};
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
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify(answer(body)));
		});
	});
	await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

/** Whether a tool is Template → Get Fields (by its name, made from the node's: "Read payslip fields"). */
const isFieldsTool = (name) => /fields/i.test(String(name));

/** The first `fields` list found in a tool's answer (the JSON of its output items). */
function listedFields(content) {
	let value = content;
	for (let i = 0; i < 3 && typeof value === 'string'; i++) {
		try {
			value = JSON.parse(value);
		} catch {
			return [];
		}
	}
	const queue = [value];
	while (queue.length) {
		const next = queue.shift();
		if (!next || typeof next !== 'object') continue;
		if (Array.isArray(next.fields)) return next.fields;
		queue.push(...Object.values(next));
	}
	return [];
}

/**
 * The model's side of the payslip conversation: it asks Get Fields for the template's fields,
 * then calls Create with values (ARGUMENTS) for the fields Get Fields listed, then answers.
 */
function payslipConversation(templateId) {
	return ({ messages, tools }) => {
		const names = tools.map((t) => t.function?.name);
		const results = messages.filter((m) => m.role === 'tool');
		if (results.length === 0) return { name: names.find(isFieldsTool), arguments: { templateId } };
		if (results.length > 1) return undefined;
		const keys = listedFields(results[0].content).map((field) => aiKey(String(field.path)));
		const values = Object.entries(ARGUMENTS).filter(([key]) => keys.includes(key));
		return {
			name: names.find((name) => !isFieldsTool(name)),
			arguments: Object.fromEntries(values),
		};
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

const CHAT_CREDENTIAL = { id: 'e2eChatCredential1', name: 'Chat stand-in' };

/** The package's node as one of the agent's tools, at `x` on the tools' row. */
function toolNode(id, name, x, toolDescription, parameters) {
	return {
		id,
		name,
		type: `${PACKAGE}.documentGenerationTool`,
		typeVersion: 1,
		position: [x, 220],
		parameters: { descriptionType: 'manual', toolDescription, ...parameters },
		credentials,
	};
}

/**
 * The action node as an AI Agent's tools: Manual Trigger → AI Agent, with an OpenAI Chat Model
 * (the stand-in), "Read payslip fields" (Template → Get Fields, the template's ID left to the
 * model) and "Make payslip" (Create with the payslip's Template Fields, each left to the
 * model) attached.
 */
function agentWorkflow(sb, mapping) {
	const template = sb.templates.find((t) => t.identifier === 'payslip').id;
	const ai = (type) => [[{ node: 'Payslip agent', type, index: 0 }]];
	return workflow(
		'e2eAgentWorkflow01',
		'E2E: an AI agent fills the payslip through its Template Fields',
		[
			{
				id: 'g1',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'g2',
				name: 'Payslip agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: 3.1,
				position: [220, 0],
				parameters: {
					promptType: 'define',
					text: `Make the December 2026 payslip for Grace Hopper (employee 1906, Compilers) from the payslip template ${template}: read its fields first.`,
					options: {},
				},
			},
			{
				id: 'g3',
				name: 'Chat model',
				type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
				typeVersion: 1.2,
				position: [160, 220],
				parameters: { model: { __rl: true, mode: 'id', value: 'gpt-4o-mini' }, options: {} },
				credentials: { openAiApi: CHAT_CREDENTIAL },
			},
			toolNode(
				'g4',
				'Make payslip',
				360,
				'Creates a payslip PDF from the payslip template and waits until it is generated. Returns the document: id, status, filename, download_url.',
				{
					resource: 'document',
					operation: 'create',
					templateId: rl(template),
					payloadMode: 'templateFields',
					mappedFields: mapping,
					waitForCompletion: true,
					download: false,
				},
			),
			toolNode(
				'g5',
				'Read payslip fields',
				520,
				'Lists the fields a template reads (path, type, example; the fields of each list row): what to fill before creating a document.',
				{
					resource: 'template',
					operation: 'getFields',
					templateId: rl(
						"={{ $fromAI('templateId', 'The template ID, a UUID such as 1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d', 'string') }}",
					),
				},
			),
		],
		{
			Start: { main: [[{ node: 'Payslip agent', type: 'main', index: 0 }]] },
			'Chat model': { ai_languageModel: ai('ai_languageModel') },
			'Make payslip': { ai_tool: ai('ai_tool') },
			'Read payslip fields': { ai_tool: ai('ai_tool') },
		},
	);
}

/** The OpenAI credential whose Base URL is the chat stand-in. */
function chatCredential(url) {
	return [{ ...CHAT_CREDENTIAL, type: 'openAiApi', data: { apiKey: 'sk-e2e-stand-in', url } }];
}

/** What Get Fields answers for the payslip: each field's path and type. */
const PAYSLIP_FIELDS =
	'period:string employer.name:string employee.name:string employee.number:number employee.department:string earnings:array deductions:array currency:string net_pay:number bonus:number';

/** The parameters' types of the tool a request offered the model, by key. */
function offeredTypes(request, pick) {
	const tool = (request?.body?.tools ?? []).find((t) => pick(t.function?.name));
	const properties = tool?.function?.parameters?.properties ?? {};
	return Object.fromEntries(
		Object.entries(properties).map(([key, schema]) => [key, schema.type ?? 'json']),
	);
}

/** Create's schema: the payslip's own fields with their types. */
function checkCreateSchema({ chat, fields, check }) {
	const offered = offeredTypes(chat.requests[0], (name) => !isFieldsTool(name));
	const expected = Object.fromEntries(fields.map((f) => [aiKey(f.id), AI_TYPES[f.type] ?? 'json']));
	const sameKeys = Object.keys(expected).sort().join() === Object.keys(offered).sort().join();
	const typed = Object.entries(expected).every(
		([key, type]) => type === 'json' || offered[key] === type,
	);
	check(
		"agent: the tool's schema the model receives is the payslip's own fields with their types",
		sameKeys && typed,
		Object.entries(offered)
			.map(([k, t]) => `${k}:${t}`)
			.join(' '),
	);
}

/** Get Fields as a tool: asked with the template's ID, it answers the payslip's fields. */
function checkGetFields({ sb, chat, answer, asked, check }) {
	const payslip = sb.templates.find((t) => t.identifier === 'payslip').id;
	const offered = offeredTypes(chat.requests[0], isFieldsTool);
	const listed = listedFields(answer);
	const earnings = listed.find((f) => f.path === 'earnings')?.itemFields ?? [];
	check(
		"agent: Template → Get Fields as a tool: the model gives the template's ID ($fromAI) and the answer lists the payslip's fields, typed, with a list row's fields",
		JSON.stringify(offered) === '{"templateId":"string"}' &&
			asked.includes(`GET /api/v1/document_templates/${payslip}`) &&
			listed.map((f) => `${f.path}:${f.type}`).join(' ') === PAYSLIP_FIELDS &&
			earnings.map((f) => f.path).join() === 'label,hours,rate',
		`offered ${JSON.stringify(offered)}; listed ${listed.map((f) => f.path).join(' ')}`,
	);
}

/**
 * Runs the agent workflow with `n8n execute` and checks what the model was offered, what Get
 * Fields told it, what Create made with the fields it was told of, and what came back.
 */
async function runAgentCheck({ n8n, sb, chat, flow, fields, check }) {
	const before = new Set(sb.documents.keys());
	const from = sb.requests.length;
	const run = await n8n.cli(['execute', `--id=${flow.id}`, '--rawOutput'], { allowFail: true });
	const asked = sb.requests.slice(from).map((r) => `${r.method} ${r.path}`);
	const last = chat.requests[chat.requests.length - 1];
	const answers = (last?.body?.messages ?? [])
		.filter((m) => m.role === 'tool')
		.map((m) => String(m.content ?? ''));
	checkCreateSchema({ chat, fields, check });
	checkGetFields({ sb, chat, answer: answers[0], asked, check });
	const made = [...sb.documents.values()].filter((d) => !before.has(d.id));
	const payload = made[0] ? JSON.parse(made[0].payload) : undefined;
	check(
		"agent: then the model's values for the fields it was told of go out as the template's nested, typed payload",
		run.status === 0 &&
			made.length === 1 &&
			payload?.employee?.name === 'Grace Hopper' &&
			payload?.employee?.number === 1906 &&
			payload?.net_pay === 3000 &&
			payload?.bonus === 250 &&
			Array.isArray(payload?.earnings) &&
			payload.earnings[0]?.rate === 24,
		`exit ${run.status}; ${made.length} document(s); ${JSON.stringify(payload)}`,
	);
	const content = answers[1] ?? '';
	check(
		'agent: the model gets the finished document back (id, status), no file bytes',
		!!made[0] &&
			content.includes(made[0].id) &&
			content.includes('success') &&
			content.length < 5000,
		`${chat.requests.length} model calls; ${content.length} characters`,
	);
}

module.exports = {
	agentWorkflow,
	chatCredential,
	payslipConversation,
	payslipMapping,
	runAgentCheck,
	startChatStandIn,
};
