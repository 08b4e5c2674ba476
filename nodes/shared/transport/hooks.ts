/** The service's webhook registrations (`rest_hooks`), on top of `apiRequest`. */
import type { IDataObject } from 'n8n-workflow';

import type { CallOptions, TransportContext } from '../types';
import { recordRequest } from './records';
import { apiRequest } from './request';
import { restHookEnvelope } from './schemas';

/** Registers one hook; answers its id. The service keeps no list we could read back. */
export async function createRestHook(
	ctx: TransportContext,
	hook: IDataObject,
	options: CallOptions = {},
): Promise<string> {
	const what = `register the webhook for ${String(hook.event)}`;
	const record = await recordRequest(
		ctx,
		'rest_hook',
		{ method: 'POST', path: '/api/v1/rest_hooks', fields: hook, what, ...options },
		restHookEnvelope,
	);
	return String(record.id);
}

export async function deleteRestHook(
	ctx: TransportContext,
	id: string,
	options: CallOptions = {},
): Promise<void> {
	await apiRequest(ctx, {
		method: 'DELETE',
		path: `/api/v1/rest_hooks/${id}`,
		what: `remove the webhook ${id}`,
		...options,
	});
}
