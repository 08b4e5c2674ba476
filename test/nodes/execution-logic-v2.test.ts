/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs n8n's own expression bridge in Node under jest, never inside n8n */
/**
 * Execution Logic v2: a workflow whose settings say `binaryMode: "combined"`, where n8n keeps
 * an item's files in `json._files` instead of `binary`.
 *
 * Why the credential's header may not be an expression: n8n 2.41 evaluates expressions in a
 * sandbox (`N8N_EXPRESSION_ENGINE`, default `vm`). Its host bridge (`getValueAtPath` in
 * @n8n/expression-runtime) reads the data proxy's `$item` before every value it looks up, and
 * in combined mode n8n's data proxy answers `$item` like `$json`: the node's input item. n8n's
 * CredentialsHelper resolves a credential's generic `authenticate` expressions with no input
 * items (`getSimpleParameterValue`), so there `$item` throws "Node '<name>' hasn't been
 * executed", and every request of the node fails. The sandbox itself cannot run under jest
 * (isolated-vm has no build for this Node; the quickjs engine is loaded with a dynamic
 * `import()`, which jest refuses without --experimental-vm-modules), so the first test runs
 * n8n's own bridge function on the data proxy n8n builds there, and the next ones check that
 * no request of ours needs that resolution. npm run test:e2e runs the nodes in a real n8n.
 */
import {
	Workflow,
	WorkflowDataProxy,
	WorkflowExpression,
	createEmptyRunExecutionData,
	type IBinaryData,
	type IDataObject,
	type INode,
} from 'n8n-workflow';
import { getValueAtPath } from '@n8n/expression-runtime/dist/cjs/bridge/host-functions';

import {
	credentialsFor,
	getBinaryBuffer,
	loadPackage,
	packageNode,
	runWorkflow,
	startNode,
	type LoadedPackage,
	type WorkflowJson,
} from '../harness';
import { useSandbox } from '../harness/use-sandbox';
import { byId, templateId } from './DocumentGeneration/helpers';

const sb = useSandbox({ pendingMs: 20, generatingMs: 60 });
let pkg: LoadedPackage;

beforeAll(async () => {
	pkg = await loadPackage();
});

const COMBINED = { executionOrder: 'v1', binaryMode: 'combined' } as const;

/** Start → the given nodes of the package, one after the other. */
function chain(nodes: INode[], settings: WorkflowJson['settings'] = COMBINED): WorkflowJson {
	const all = [startNode(), ...nodes];
	const connections: WorkflowJson['connections'] = {};
	for (let i = 1; i < all.length; i++)
		connections[all[i - 1].name] = { main: [[{ node: all[i].name, type: 'main', index: 0 }]] };
	return { nodes: all, connections, settings };
}

function create(parameters: IDataObject = {}): INode {
	return packageNode(pkg, 'Create', 'documentGeneration', {
		templateId: byId(templateId(sb)),
		payload: '{"number": "V2-1"}',
		...parameters,
	});
}

/** The file an item carries in `json._files.<key>` (Execution Logic v2). */
function fileIn(json: IDataObject, key = 'data'): IBinaryData | undefined {
	return (json._files as Record<string, IBinaryData> | undefined)?.[key];
}

describe('the credential in a combined-mode workflow', () => {
	test("n8n's sandbox bridge cannot read $credentials where n8n resolves a credential's expressions", () => {
		const node = create();
		// The data an expression of a credential sees: n8n's data proxy with no run data and
		// no input items, as getSimpleParameterValue builds it.
		const credentialData = (binaryMode: 'separate' | 'combined') => {
			const workflow = new Workflow({
				nodes: [node],
				connections: {},
				active: false,
				nodeTypes: pkg.nodeTypes,
				settings: { binaryMode },
			});
			return new WorkflowDataProxy(
				workflow,
				createEmptyRunExecutionData(),
				0,
				0,
				node.name,
				[],
				{},
				'internal',
				{ $credentials: { apiKey: 'k' } },
			).getDataProxy();
		};
		const apiKey = ['$credentials', 'apiKey'];
		expect(getValueAtPath(credentialData('separate'), apiKey)).toBe('k');
		expect(() => getValueAtPath(credentialData('combined'), apiKey)).toThrow(
			"Node 'Create' hasn't been executed",
		);
	});

	test('Create authenticates its requests without an expression for n8n to resolve', async () => {
		const resolved = jest.spyOn(WorkflowExpression.prototype, 'getSimpleParameterValue');
		try {
			const { data, error } = await runWorkflow(
				chain([create({ waitForCompletion: false, download: false })]),
				{ credentials: credentialsFor(sb) },
			);
			expect(error).toBeUndefined();
			expect(data.Create![0][0].json).toMatchObject({ status: 'pending' });
			expect(sb.requests.length).toBeGreaterThan(0);
			expect(sb.requests.every((r) => r.authorization === `Bearer ${sb.apiKey}`)).toBe(true);
			expect(resolved).not.toHaveBeenCalled();
		} finally {
			resolved.mockRestore();
		}
	});
});

describe('files in json._files', () => {
	test('Create (wait, download), Update (regenerate, download) and Download: each file lands in json._files.data', async () => {
		const { data, error } = await runWorkflow(
			chain([
				create({ additionalFields: { filename: 'v2.pdf' } }),
				packageNode(
					pkg,
					'Update',
					'documentGeneration',
					{
						resource: 'document',
						operation: 'update',
						documentId: byId('={{ $json.id }}'),
						updateFields: { status: 'pending' },
						waitForCompletion: true,
						download: true,
					},
					400,
				),
				packageNode(
					pkg,
					'Download',
					'documentGeneration',
					{ resource: 'document', operation: 'download', documentId: byId('={{ $json.id }}') },
					600,
				),
			]),
			{ credentials: credentialsFor(sb) },
		);
		expect(error).toBeUndefined();
		for (const name of ['Create', 'Update', 'Download']) {
			const [item] = data[name]![0];
			expect([name, item.binary]).toEqual([name, undefined]);
			const file = fileIn(item.json);
			expect([name, file]).toEqual([
				name,
				expect.objectContaining({ mimeType: 'application/pdf', fileName: 'v2.pdf' }),
			]);
			expect((await getBinaryBuffer(file!)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
		}
		// The item's JSON (the document) is kept beside its file.
		expect(data.Download![0][0].json).toMatchObject({ status: 'success', filename: 'v2.pdf' });
	});

	test('a file name other than data keeps its key under _files', async () => {
		const { data, error } = await runWorkflow(chain([create({ binaryPropertyName: 'invoice' })]), {
			credentials: credentialsFor(sb),
		});
		expect(error).toBeUndefined();
		const [item] = data.Create![0];
		expect(Object.keys(item.json._files as IDataObject)).toEqual(['invoice']);
	});

	test('the default binary mode still puts the file into binary.data', async () => {
		const { data, error } = await runWorkflow(chain([create()], { executionOrder: 'v1' }), {
			credentials: credentialsFor(sb),
		});
		expect(error).toBeUndefined();
		const [item] = data.Create![0];
		expect(item.json._files).toBeUndefined();
		expect(item.binary?.data).toMatchObject({ mimeType: 'application/pdf' });
	});
});

describe("the polling trigger's file", () => {
	test('a manual run (Fetch Test Event) with Download File: the file lands in json._files.data', async () => {
		const doc = sb.createDocument({ status: 'success', meta: { _filename: 'polled.pdf' } });
		const trigger = packageNode(
			pkg,
			'Document ready',
			'documentGenerationTrigger',
			{ events: ['success'], download: true },
			0,
		);
		const { data, error } = await runWorkflow(
			{ nodes: [trigger], connections: {}, settings: COMBINED },
			{ credentials: credentialsFor(sb), startNode: 'Document ready' },
		);
		expect(error).toBeUndefined();
		const [item] = data['Document ready']![0];
		expect(item.json.id).toBe(doc.id);
		expect(item.binary).toBeUndefined();
		const file = fileIn(item.json);
		expect(file).toMatchObject({ mimeType: 'application/pdf' });
		expect((await getBinaryBuffer(file!)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
	});
});
