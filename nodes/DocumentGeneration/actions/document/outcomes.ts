/** The errors of a generation that did not succeed: it failed, or it did not finish in time. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export function failureError(
	ctx: IExecuteFunctions,
	card: IDataObject,
	itemIndex: number,
): NodeOperationError {
	const cause =
		typeof card.failure_cause === 'string' && card.failure_cause
			? card.failure_cause
			: 'no reason given';
	return new NodeOperationError(
		ctx.getNode(),
		`Document ${String(card.id)} failed to generate: ${cause}`,
		{
			description:
				'Fix the template or the payload (the generation logs are in the dashboard, or use Get with Include Payload), then generate it again with Update and status "Pending".',
			itemIndex,
		},
	);
}

export function timeoutError(
	ctx: IExecuteFunctions,
	target: { id: string; itemIndex: number; timeoutSeconds: number },
	lastStatus: string,
	heldMs: number,
): NodeOperationError {
	const held =
		heldMs >= 1000
			? ` (not counting ${Math.round(heldMs / 1000)} s held by the service's request limit)`
			: '';
	return new NodeOperationError(
		ctx.getNode(),
		`Document ${target.id} was still ${lastStatus} after waiting ${target.timeoutSeconds} s${held}`,
		{
			description: `It may still finish. Fetch it later with the Get or Download operation (Document ID ${target.id}), start a workflow from the Document Generation Trigger instead, or raise Options → Wait Timeout.`,
			itemIndex: target.itemIndex,
		},
	);
}
