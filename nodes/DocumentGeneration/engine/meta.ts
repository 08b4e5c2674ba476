/** A document's `meta` as an object: the one place the engine parses it. */
import type { IDataObject } from 'n8n-workflow';

import { parseJsonLoose } from '../../shared/helpers/json';

/**
 * The meta of a card (a string of JSON in API answers, an object in webhook bodies) as an
 * object; `{}` when it is absent, not valid JSON, or not an object.
 */
export function metaObject(card: IDataObject): IDataObject {
	const meta = parseJsonLoose(card.meta ?? null);
	return meta && typeof meta === 'object' && !Array.isArray(meta) ? (meta as IDataObject) : {};
}
