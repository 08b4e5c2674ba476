/**
 * Calls that send and answer one record under one key of their envelope (`{document: …}`,
 * `{document_template: …}`, `{rest_hook: …}`), on top of `apiRequest`; and the four calls of a
 * REST resource of the service built from them, so each endpoint keeps its own named function
 * without writing the envelope handling again.
 */
import type { IDataObject } from 'n8n-workflow';
import type { z } from 'zod';

import type { CallOptions, TransportContext } from '../types';
import type { ApiRequest } from './calls';
import { apiRequest } from './request';

/** A schema of an answer holding the record under `K`. */
export type Envelope<K extends string> = z.ZodType<Record<K, unknown>, z.ZodTypeDef, unknown>;

/**
 * One call whose answer holds a record under `key`: `fields`, when given, are sent wrapped
 * in the same key; the answer is checked against `schema` and its record returned.
 */
export async function recordRequest<K extends string>(
	ctx: TransportContext,
	key: K,
	request: ApiRequest & { fields?: IDataObject },
	schema: Envelope<K>,
): Promise<IDataObject> {
	const { fields, ...call } = request;
	if (fields !== undefined) call.body = { [key]: fields };
	const answer = await apiRequest(ctx, call, schema);
	return answer[key] as IDataObject;
}

/**
 * Get, create, update and delete of the resource at `path` (`/api/v1/documents`), whose
 * record sits under `key`. Error messages name it as `noun`: "get document …", "create a
 * document".
 */
export function restResource<K extends string>(
	key: K,
	path: string,
	noun: string,
	schema: Envelope<K>,
) {
	return {
		async get(ctx: TransportContext, id: string, options: CallOptions = {}) {
			const what = `get ${noun} ${id}`;
			return await recordRequest(
				ctx,
				key,
				{ method: 'GET', path: `${path}/${id}`, what, ...options },
				schema,
			);
		},
		async create(ctx: TransportContext, fields: IDataObject, options: CallOptions = {}) {
			const what = `create a ${noun}`;
			return await recordRequest(
				ctx,
				key,
				{ method: 'POST', path, fields, what, ...options },
				schema,
			);
		},
		async update(
			ctx: TransportContext,
			id: string,
			fields: IDataObject,
			options: CallOptions = {},
		) {
			const what = `update ${noun} ${id}`;
			return await recordRequest(
				ctx,
				key,
				{ method: 'PUT', path: `${path}/${id}`, fields, what, ...options },
				schema,
			);
		},
		async remove(ctx: TransportContext, id: string, options: CallOptions = {}): Promise<void> {
			const what = `delete ${noun} ${id}`;
			await apiRequest(ctx, { method: 'DELETE', path: `${path}/${id}`, what, ...options });
		},
	};
}
