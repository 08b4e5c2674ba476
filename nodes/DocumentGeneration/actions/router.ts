import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { wholeSeconds } from '../../shared/helpers/dates';
import type { Operation } from '../../shared/helpers/items';
import { limitReport } from '../../shared/transport';
import * as account from './account/Account.resource';
import * as document from './document/Document.resource';
import * as snippet from './snippet/Snippet.resource';
import * as template from './template/Template.resource';
import * as templateFolder from './templateFolder/TemplateFolder.resource';

/** The `execute` of each named operation of a resource. */
const executes = <K extends string>(resource: Record<K, { execute: Operation }>, names: K[]) =>
	Object.fromEntries(names.map((name) => [name, resource[name].execute]));

const operations: Record<string, Record<string, Operation>> = {
	document: executes(document, ['create', 'get', 'getAll', 'update', 'delete', 'download']),
	template: executes(template, [
		'create',
		'get',
		'getAll',
		'getFields',
		'preview',
		'update',
		'delete',
	]),
	templateFolder: executes(templateFolder, ['create', 'get', 'getAll', 'update', 'delete']),
	snippet: executes(snippet, ['create', 'get', 'getAll', 'update', 'delete']),
	account: executes(account, ['get']),
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const run = operations[resource]?.[operation];
	if (!run)
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
			{ description: 'Choose a resource and operation from the lists of the node' },
		);
	const out = await run.call(this, items);
	reportLimit(this, items.length);
	return [out];
}

/** An execution hint when the service's request limit held this run: how long, what to change. */
export function reportLimit(ctx: IExecuteFunctions, items: number): void {
	const report = limitReport(ctx);
	if (!report.limited || typeof ctx.addExecutionHints !== 'function') return;
	const asked = report.longestAskedMs
		? `; the longest wait it asked for was ${wholeSeconds(report.longestAskedMs)}`
		: '';
	ctx.addExecutionHints({
		type: 'warning',
		location: 'outputPane',
		message: `${items} item${items === 1 ? '' : 's'}: the service's request limit answered ${report.limited} of ${report.started} requests with 429 (Too Many Requests)${asked}, so this run waited ${wholeSeconds(report.heldMs)} for it in all. To finish sooner, send fewer items per run (Loop Over Items with a Wait node), spread the runs that share this account over time, or move to a plan with a higher limit. One wait longer than Options → Max Wait for Rate Limit (Create, Update) fails the item.`,
	});
}
