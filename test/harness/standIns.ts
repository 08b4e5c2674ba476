/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: stand-ins for n8n's own nodes, run in Node under jest, never inside n8n */
/**
 * Test scaffolding, not part of the package: stand-ins for n8n's own nodes that the examples
 * use and this engine lacks (n8n-nodes-base is not installed here), registered under their
 * real type names and doing just the part the examples use. The real nodes run in the
 * end-to-end suite, where the examples are imported into a real n8n.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

/**
 * A stand-in's description: n8n's type name and display name, versions 1 and 1.1, one main
 * input and output, its parameters (name: default, operation first) as plain fields.
 */
function standInDescription(
	type: string,
	displayName: string,
	parameters: Record<string, string>,
): INodeTypeDescription {
	return {
		displayName: `${displayName} (harness stand-in)`,
		name: `n8n-nodes-base.${type}`,
		group: ['input'],
		version: [1, 1.1],
		description: `What the examples use of n8n's ${displayName}`,
		defaults: { name: displayName },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			...Object.entries(parameters).map(([name, value]) => ({
				displayName: name,
				name,
				type: 'string' as const,
				default: value,
			})),
			{ displayName: 'Options', name: 'options', type: 'json', default: {} },
		],
	};
}

/** n8n's Convert to File, operation "Move Base64 String to File" (toBinary) only. */
export class ConvertToFileStandIn implements INodeType {
	description = standInDescription('convertToFile', 'Convert to File', {
		operation: 'toBinary',
		sourceProperty: '',
		binaryPropertyName: 'data',
	});

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

/**
 * The folder that plays n8n's files folder (`~/.n8n-files`, where n8n 2.x reads files by
 * default) for the stand-in of Read/Write Files from Disk: examples/, beside the files the
 * examples read (examples/templates/invoice.html for `~/.n8n-files/templates/invoice.html`).
 */
export const N8N_FILES_STAND_IN = path.resolve(__dirname, '..', '..', 'examples');

/** The part of a selector under n8n's files folder (`~/.n8n-files/`, in this or any home). */
function underN8nFiles(selector: string): string | undefined {
	const homes = ['~', os.homedir()];
	const home = homes.find((h) => selector.startsWith(`${h}/.n8n-files/`));
	if (home !== undefined) return selector.slice(`${home}/.n8n-files/`.length);
	return /^\/home\/[^/]+\/\.n8n-files\/(.*)$/.exec(selector)?.[1];
}

/**
 * The file a selector names (one path, no pattern: what the examples read): under n8n's files
 * folder, or relative to it, read from N8N_FILES_STAND_IN. Undefined for a path elsewhere (n8n
 * 2.x refuses those unless N8N_RESTRICT_FILE_ACCESS_TO allows them).
 */
export function standInFile(selector: string): string | undefined {
	const relative = underN8nFiles(selector) ?? selector;
	if (path.isAbsolute(relative)) return undefined;
	const full = path.resolve(N8N_FILES_STAND_IN, relative);
	return full.startsWith(`${N8N_FILES_STAND_IN}${path.sep}`) ? full : undefined;
}

/**
 * n8n's Read/Write Files from Disk, operation "Read File(s) From Disk" only: the file the
 * selector names (see standInFile) becomes an item whose binary field (`data`, or Options →
 * Put Output File in Field) holds it, made by the engine's prepareBinaryData from the file's
 * path (file name, extension, MIME type), with the options' File Name, File Extension and
 * MIME Type applied, and the file's details in its JSON, as n8n's node outputs them.
 */
export class ReadWriteFileStandIn implements INodeType {
	description = standInDescription('readWriteFile', 'Read/Write Files from Disk', {
		operation: 'read',
		fileSelector: '',
	});

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < this.getInputData().length; i++) {
			if (this.getNodeParameter('operation', i) !== 'read')
				throw new Error('The stand-in of Read/Write Files from Disk does only read');
			const file = standInFile(String(this.getNodeParameter('fileSelector', i)));
			if (!file) throw new NodeOperationError(this.getNode(), 'Access to the file is not allowed.');
			const options = this.getNodeParameter('options', i, {}) as IDataObject;
			out.push(await readOne(this, file, options, i));
		}
		return [out];
	}
}

/** One file as n8n's node outputs it: the binary field and the file's details. */
async function readOne(
	ctx: IExecuteFunctions,
	file: string,
	options: IDataObject,
	itemIndex: number,
): Promise<INodeExecutionData> {
	const binary = await ctx.helpers.prepareBinaryData(fs.createReadStream(file), file);
	if (options.fileName !== undefined) binary.fileName = String(options.fileName);
	if (options.fileExtension !== undefined) binary.fileExtension = String(options.fileExtension);
	if (options.mimeType !== undefined) binary.mimeType = String(options.mimeType);
	const { mimeType, fileType, fileName, fileExtension, fileSize } = binary;
	return {
		binary: { [String(options.dataPropertyName || 'data')]: binary },
		json: { mimeType, fileType, fileName, fileExtension, fileSize },
		pairedItem: { item: itemIndex },
	};
}
