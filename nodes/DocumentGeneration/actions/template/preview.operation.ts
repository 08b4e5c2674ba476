import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { templateIdLocator } from '../../../shared/descriptions';
import { CONCURRENCY, paired, perItem } from '../../../shared/helpers/items';
import { getTemplate, getTemplateDraftPreview } from '../../../shared/transport';
import { readTemplateId } from '../ids';

export const properties: INodeProperties[] = [
	{
		...templateIdLocator,
		description: 'The template whose draft to preview: pick it from the list, or enter its ID',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['template'], operation: ['preview'] } },
	properties,
);

/**
 * The draft rendered with its sample data (`draft_preview_url`, a file made for this request)
 * beside the template's live `preview_url`; two reads, nothing generated.
 */
export const execute = perItem(
	readTemplateId,
	async (ctx, id, i) => {
		const [template, draftUrl] = await Promise.all([
			getTemplate(ctx, id, { itemIndex: i }),
			getTemplateDraftPreview(ctx, id, { itemIndex: i }),
		]);
		return paired(
			{
				id,
				identifier: template.identifier ?? null,
				output_type: template.output_type ?? null,
				draft_preview_url: draftUrl,
				preview_url: template.preview_url ?? null,
			},
			i,
		);
	},
	CONCURRENCY,
);
