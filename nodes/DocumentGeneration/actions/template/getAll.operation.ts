import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { returnAllAndLimit, workspaceIdLocator } from '../../../shared/descriptions';
import { withoutSecrets } from '../../../shared/helpers/document';
import { CONCURRENCY, paired, perItem } from '../../../shared/helpers/items';
import { parseId } from '../../../shared/helpers/parse';
import type { TemplateListing } from '../../../shared/transport';
import { listTemplateCards } from '../../../shared/transport';
import { readLimit, readWorkspaceId, shownFor } from '../common';
import { collection } from '../../descriptions/payloadParts';

/** The orders of Sort By, as the service's `sort` names them. */
const SORTS: Record<string, string> = { name: 'identifier', updatedAt: '-updated_at' };

export const properties: INodeProperties[] = [
	{ ...workspaceIdLocator, description: 'The workspace whose templates to list' },
	...returnAllAndLimit,
	collection('Filters', 'filters', 'Add Filter', [
		{
			displayName: 'Folder Name or ID',
			name: 'folder',
			type: 'options',
			typeOptions: {
				loadOptionsMethod: 'getTemplateFolders',
				loadOptionsDependsOn: ['workspaceId.value'],
			},
			default: '',
			description:
				'Only the templates of this folder, or of no folder (No Folder). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
	]),
	collection('Options', 'options', 'Add Option', [
		{
			displayName: 'Sort By',
			name: 'sort',
			type: 'options',
			options: [
				{ name: 'Name', value: 'name' },
				{ name: 'Last Updated First', value: 'updatedAt' },
			],
			default: 'name',
			description: 'The order of the templates (by name when not set)',
		},
	]),
];

export const description = shownFor('template', 'getAll', properties);

/** The item's folder filter and order: `q[folders]` (none, or one folder's ID) and `sort`. */
function readListing(filters: IDataObject, options: IDataObject): TemplateListing {
	const listing: TemplateListing = {};
	if (options.sort !== undefined) listing.sort = SORTS[String(options.sort)] ?? SORTS.name;
	if (filters.folder !== undefined)
		listing.folders =
			filters.folder === '' || filters.folder === 'none'
				? 'none'
				: parseId(filters.folder, 'template folder');
	return listing;
}

export const execute = perItem(
	(ctx, i) => ({
		workspaceId: readWorkspaceId(ctx, i),
		limit: readLimit(ctx, i),
		listing: readListing(
			ctx.getNodeParameter('filters', i, {}) as IDataObject,
			ctx.getNodeParameter('options', i, {}) as IDataObject,
		),
	}),
	async (ctx, { workspaceId, limit, listing }, i) => {
		const cards = await listTemplateCards(ctx, workspaceId, { itemIndex: i }, listing);
		return paired(withoutSecrets(cards.slice(0, limit)), i);
	},
	CONCURRENCY,
);
