/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * The action node as an AI agent tool, with the tools of the example workflow
 * (examples/agent-tool.json) run on n8n-core's own tool machinery: WorkflowExecute runs
 * an agent node whose `getInputConnectionData('ai_tool')` makes n8n-core turn each connected
 * `…documentGenerationTool` node into a LangChain tool (createNodeAsTool: name from the node
 * name, description from the node, input schema from its `$fromAI()` calls); invoking a tool
 * runs the node's `execute` in a SupplyDataContext against the sandbox.
 *
 * Two stand-ins replace what only n8n's CLI and the LangChain package hold, and nothing of
 * n8n-core: (1) a node-type registry that resolves `<node type>Tool` to the base node
 * converted for tool use, as n8n's CLI NodeTypes does for nodes with `usableAsTool` (name +
 * 'Tool', no main input, one `ai_tool` output, the Tool Description parameters); (2) a
 * scripted agent node in place of the AI Agent and its chat model: it receives the tools
 * exactly as the AI Agent does and calls them with the arguments a model would send.
 * Needs `npm run build` first.
 */
import * as fs from 'fs';
import * as path from 'path';

import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import { NodeConnectionTypes, NodeHelpers, Workflow } from 'n8n-workflow';
import type * as n8n from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../sandbox';
import {
	CREDENTIAL_TYPE,
	HarnessCredentialsHelper,
	MANUAL_TRIGGER_TYPE,
	buildAdditionalData,
	credentialsFor,
	describeError,
	ensureBinaryData,
	loadPackage,
	type LoadedPackage,
	type WorkflowJson,
} from '../../harness';

const PACKAGE = 'n8n-nodes-document-generation';
const TOOL_TYPE = `${PACKAGE}.documentGenerationTool`;
const AGENT_TYPE = 'test.scriptedAgent';
const EXAMPLE = path.resolve(__dirname, '..', '..', '..', 'examples', 'agent-tool.json');

// ---------------------------------------------------------------------------------------
// Stand-in 1: tool resolution of n8n's CLI node-type registry
// ---------------------------------------------------------------------------------------

/** The two parameters n8n adds to every tool it derives from a node. */
const toolDescriptionParameters: n8n.INodeProperties[] = [
	{
		displayName: 'Tool Description',
		name: 'descriptionType',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Set Automatically', value: 'auto' },
			{ name: 'Set Manually', value: 'manual' },
		],
		default: 'auto',
	},
	{
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		default: '',
		displayOptions: { show: { descriptionType: ['manual'] } },
	},
];

class ToolResolvingNodeTypes implements n8n.INodeTypes {
	private readonly tools = new Map<string, n8n.INodeType>();

	constructor(
		private readonly base: n8n.INodeTypes,
		private readonly extra: Record<string, n8n.INodeType>,
	) {}

	getByName(type: string): n8n.INodeType | n8n.IVersionedNodeType {
		return this.extra[type] ?? this.base.getByName(type);
	}

	getByNameAndVersion(type: string, version?: number): n8n.INodeType {
		if (this.extra[type]) return this.extra[type];
		if (!type.endsWith('Tool')) return this.base.getByNameAndVersion(type, version);
		const key = `${type}@${version}`;
		let tool = this.tools.get(key);
		if (!tool) {
			const node = this.base.getByNameAndVersion(type.slice(0, -'Tool'.length), version);
			if (!node.description.usableAsTool)
				throw new Error(`${type}: the node is not usable as a tool`);
			const description: n8n.INodeTypeDescription = {
				...node.description,
				name: `${node.description.name}Tool`,
				displayName: `${node.description.displayName} Tool`,
				inputs: [],
				outputs: [NodeConnectionTypes.AiTool],
				properties: [...toolDescriptionParameters, ...node.description.properties],
			};
			delete description.usableAsTool;
			tool = Object.create(node, { description: { value: description } }) as n8n.INodeType;
			this.tools.set(key, tool);
		}
		return tool;
	}

	getKnownTypes(): n8n.IDataObject {
		return { ...this.base.getKnownTypes(), [AGENT_TYPE]: {} };
	}
}

// ---------------------------------------------------------------------------------------
// Stand-in 2: an agent whose "model" is a script
// ---------------------------------------------------------------------------------------

/** What the AI Agent receives for each connected tool (a LangChain DynamicStructuredTool). */
interface ConnectedTool {
	name: string;
	description: string;
	schema: { shape?: Record<string, unknown> };
	invoke(args: n8n.IDataObject): Promise<unknown>;
}

type Script = (tools: ConnectedTool[]) => Promise<n8n.IDataObject[]>;
let script: Script = async () => [];

class ScriptedAgent implements n8n.INodeType {
	description: n8n.INodeTypeDescription = {
		displayName: 'Scripted Agent',
		name: AGENT_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Test stand-in for the AI Agent: calls its tools as a script says',
		defaults: { name: 'AI Agent' },
		inputs: [
			NodeConnectionTypes.Main,
			{ type: NodeConnectionTypes.AiTool, displayName: 'Tool', required: true },
		],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: n8n.IExecuteFunctions): Promise<n8n.INodeExecutionData[][]> {
		const tools = (await this.getInputConnectionData(
			NodeConnectionTypes.AiTool,
			0,
		)) as ConnectedTool[];
		return [(await script(tools)).map((json) => ({ json }))];
	}
}

// ---------------------------------------------------------------------------------------
// Running the example's tools under the scripted agent
// ---------------------------------------------------------------------------------------

let sb: Sandbox;
let pkg: LoadedPackage;
let example: WorkflowJson;

beforeAll(async () => {
	sb = await startSandbox({ pendingMs: 20, generatingMs: 60, seed: 11 });
	pkg = await loadPackage();
	await ensureBinaryData();
	example = JSON.parse(fs.readFileSync(EXAMPLE, 'utf8')) as WorkflowJson;
});

afterAll(async () => {
	await sb.close();
});

const toolNodes = () => example.nodes.filter((n) => n.type === TOOL_TYPE);

/** The example's tool nodes (template chosen) under a start node and the scripted agent. */
async function runAgent(
	agentScript: Script,
): Promise<{ output: n8n.IDataObject[]; error?: string }> {
	script = agentScript;
	const invoice = sb.templates.find((t) => t.identifier === 'invoice')!;
	const tools: n8n.INode[] = structuredClone(toolNodes()).map((node) => {
		if (node.parameters.operation === 'create') {
			node.parameters.templateId = {
				__rl: true,
				mode: 'list',
				value: invoice.id,
				cachedResultName: 'invoice',
			};
		}
		node.credentials = { [CREDENTIAL_TYPE]: { id: 'harness-cred', name: 'Document Generation' } };
		return node;
	});
	const nodes: n8n.INode[] = [
		{
			id: 'start',
			name: 'Start',
			type: MANUAL_TRIGGER_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'agent',
			name: 'AI Agent',
			type: AGENT_TYPE,
			typeVersion: 1,
			position: [200, 0],
			parameters: {},
		},
		...tools,
	];
	const connections: WorkflowJson['connections'] = {
		Start: { main: [[{ node: 'AI Agent', type: NodeConnectionTypes.Main, index: 0 }]] },
	};
	for (const tool of tools) {
		connections[tool.name] = {
			ai_tool: [[{ node: 'AI Agent', type: NodeConnectionTypes.AiTool, index: 0 }]],
		};
	}

	const nodeTypes = new ToolResolvingNodeTypes(pkg.nodeTypes, {
		[AGENT_TYPE]: new ScriptedAgent(),
	});
	const workflow = new Workflow({
		id: 'agent-tool',
		name: 'agent tool',
		nodes,
		connections,
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	const credentialsHelper = new HarnessCredentialsHelper(pkg, {
		[CREDENTIAL_TYPE]: credentialsFor(sb),
	});
	const hooks = new ExecutionLifecycleHooks('manual', 'agent-tool-run', {
		id: 'agent-tool',
		name: 'agent tool',
		active: false,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes,
		connections,
		settings: workflow.settings,
	} as ConstructorParameters<typeof ExecutionLifecycleHooks>[2]);
	const additionalData = buildAdditionalData(credentialsHelper, {
		executionId: 'agent-tool-run',
		workflowId: 'agent-tool',
		hooks,
	});
	const result = await new WorkflowExecute(additionalData, 'manual').run({
		workflow,
		startNode: workflow.getNode('Start') ?? undefined,
	});
	const runError = result.data.resultData.error;
	const agentRuns = result.data.resultData.runData['AI Agent'] ?? [];
	const output = (agentRuns.at(-1)?.data?.main?.[0] ?? []).map((item) => item.json);
	return { output, error: runError ? describeError(runError).message : undefined };
}

const byName = (tools: ConnectedTool[], name: string): ConnectedTool => {
	const tool = tools.find((t) => t.name === name);
	if (!tool) throw new Error(`no tool ${name} (have ${tools.map((t) => t.name).join(', ')})`);
	return tool;
};

const parsed = (answer: unknown): n8n.IDataObject[] =>
	JSON.parse(String(answer)) as n8n.IDataObject[];

describe('the example agent workflow (examples/agent-tool.json)', () => {
	test('attaches the action node as tools of type <package>.documentGenerationTool to an AI Agent', () => {
		const agent = example.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.agent');
		expect(agent).toBeDefined();
		const tools = toolNodes();
		expect(tools.map((n) => n.name)).toEqual([
			'Create invoice PDF',
			'Get document',
			'List recent documents',
			'Check document quota',
		]);
		for (const tool of tools) {
			expect(tool.typeVersion).toBe(1);
			expect(example.connections[tool.name]).toEqual({
				ai_tool: [[{ node: agent!.name, type: 'ai_tool', index: 0 }]],
			});
		}
		// No node of the package is used in any other way, and the trigger never as a tool.
		const ours = example.nodes.filter((n) => n.type.startsWith(`${PACKAGE}.`));
		expect(ours.every((n) => n.type === TOOL_TYPE)).toBe(true);
	});

	test('every parameter of its tool nodes is one the node knows and shows for that operation', () => {
		const description = pkg.nodeDescription('documentGeneration');
		const properties = [...toolDescriptionParameters, ...description.properties];
		for (const tool of toolNodes()) {
			// n8n drops a parameter the node does not show for these values (a renamed or misplaced one).
			const kept = NodeHelpers.getNodeParameters(
				properties,
				tool.parameters,
				true,
				false,
				tool,
				description,
			);
			expect({ tool: tool.name, parameters: kept }).toMatchObject({
				tool: tool.name,
				parameters: tool.parameters,
			});
		}
	});
});

describe('the node as an AI agent tool (n8n-core tool machinery, sandbox)', () => {
	test('the agent gets one tool per node: name, the manual description, and a schema from $fromAI()', async () => {
		const { output, error } = await runAgent(async (tools) =>
			tools
				.map((t) => ({
					name: t.name,
					description: t.description,
					inputs: Object.keys(t.schema.shape ?? {}).sort(),
				}))
				.sort((a, b) => a.name.localeCompare(b.name)),
		);
		expect(error).toBeUndefined();
		const described = new Map(
			toolNodes().map((n) => [n.name.replace(/ /g, '_'), n.parameters.toolDescription]),
		);
		expect(output).toEqual([
			{
				name: 'Check_document_quota',
				description: described.get('Check_document_quota'),
				inputs: [],
			},
			{
				name: 'Create_invoice_PDF',
				description: described.get('Create_invoice_PDF'),
				inputs: ['filename', 'meta', 'payload'],
			},
			{ name: 'Get_document', description: described.get('Get_document'), inputs: ['documentId'] },
			{
				name: 'List_recent_documents',
				description: described.get('List_recent_documents'),
				inputs: ['limit'],
			},
		]);
	});

	test('create → get → list → quota, with the arguments a model sends', async () => {
		const { output, error } = await runAgent(async (tools) => {
			const created = parsed(
				await byName(tools, 'Create_invoice_PDF').invoke({
					payload: {
						customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
						lines: [{ description: 'Consulting', quantity: 2, unit_price: 450 }],
						currency: 'EUR',
					},
					filename: 'invoice-A-1001.pdf',
					meta: { order_id: 'A-1001' },
				}),
			);
			const id = String(created[0]?.id);
			const fetched = parsed(await byName(tools, 'Get_document').invoke({ documentId: id }));
			const listed = parsed(await byName(tools, 'List_recent_documents').invoke({ limit: 5 }));
			const account = parsed(await byName(tools, 'Check_document_quota').invoke({}));
			return [{ created, fetched, listed, account }];
		});
		expect(error).toBeUndefined();
		const { created, fetched, listed, account } = output[0] as Record<string, n8n.IDataObject[]>;

		// Create waited for the generation: the model gets the finished document in one call.
		expect(created).toHaveLength(1);
		expect(created[0]).toMatchObject({
			status: 'success',
			filename: 'invoice-A-1001.pdf',
			meta: { order_id: 'A-1001', _filename: 'invoice-A-1001.pdf' },
		});
		expect(String(created[0].download_url)).toMatch(/^http/);
		const id = String(created[0].id);
		const stored = sb.documents.get(id);
		expect(JSON.parse(stored!.payload)).toEqual({
			customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
			lines: [{ description: 'Consulting', quantity: 2, unit_price: 450 }],
			currency: 'EUR',
		});

		expect(fetched).toEqual([
			expect.objectContaining({ id, status: 'success', meta: created[0].meta }),
		]);
		expect(listed.length).toBeGreaterThan(0);
		expect(listed.length).toBeLessThanOrEqual(5);
		expect(listed.map((d) => d.id)).toContain(id);
		expect(account).toHaveLength(1);
		expect(typeof account[0].available_documents).toBe('number');
		expect(account[0]).not.toHaveProperty('auth_token');
	});

	test('a wrong argument comes back as an error the model can act on, and sends nothing', async () => {
		const before = sb.count({ path: '/api/v1/document' });
		const { output, error } = await runAgent(async (tools) => {
			const tool = byName(tools, 'Get_document');
			const message = await tool.invoke({ documentId: 'the invoice for Ada' }).then(
				(answer) => `answered: ${String(answer)}`,
				(e: Error) => e.message,
			);
			return [{ message }];
		});
		expect(error).toBeUndefined();
		const message = String(output[0]?.message);
		expect(message).toMatch(/not a valid ID/);
		expect(message).toMatch(/UUID/);
		expect(sb.count({ path: '/api/v1/document' })).toBe(before);
	});
});
