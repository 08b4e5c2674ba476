/* eslint-disable @n8n/community-nodes/node-usable-as-tool -- test code: a stand-in for one of n8n's own nodes, never a tool */
/**
 * Test scaffolding, not part of the package: stand-ins for n8n's own nodes that the examples
 * use and this engine lacks (n8n-nodes-base is not installed here), registered under their
 * real type names and doing just the part the examples use. The real nodes run in the
 * end-to-end suite, where the examples are imported into a real n8n.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/** n8n's Convert to File, operation "Move Base64 String to File" (toBinary) only. */
export class ConvertToFileStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Convert to File (harness stand-in)',
		name: 'n8n-nodes-base.convertToFile',
		group: ['input'],
		version: [1, 1.1],
		description: 'Turns a base64 text of each item into a file',
		defaults: { name: 'Convert to File' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Operation', name: 'operation', type: 'string', default: 'toBinary' },
			{ displayName: 'Source', name: 'sourceProperty', type: 'string', default: '' },
			{ displayName: 'Field', name: 'binaryPropertyName', type: 'string', default: 'data' },
			{ displayName: 'Options', name: 'options', type: 'json', default: {} },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < items.length; i++) {
			if (this.getNodeParameter('operation', i) !== 'toBinary')
				throw new Error('The stand-in of Convert to File does only toBinary');
			const source = String(this.getNodeParameter('sourceProperty', i));
			const field = String(this.getNodeParameter('binaryPropertyName', i, 'data'));
			const options = this.getNodeParameter('options', i, {}) as IDataObject;
			let value: unknown = items[i].json;
			for (const part of source.split('.')) value = (value as IDataObject | undefined)?.[part];
			const bytes = Buffer.from(String(value ?? ''), 'base64');
			const file = await this.helpers.prepareBinaryData(
				bytes,
				options.fileName as string | undefined,
				options.mimeType as string | undefined,
			);
			out.push({ json: {}, binary: { [field]: file }, pairedItem: { item: i } });
		}
		return [out];
	}
}
