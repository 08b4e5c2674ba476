import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

/** Placeholder until the trigger's polling lands. */
export async function poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	return null;
}
