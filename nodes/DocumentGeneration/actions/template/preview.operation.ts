import type { INodeProperties } from 'n8n-workflow';

import { templateIdLocator } from '../../../shared/descriptions';
import { CONCURRENCY, paired, perItem } from '../../../shared/helpers/items';
import { getTemplate, getTemplateDraftPreview } from '../../../shared/transport';
import { readTemplateId, shownFor } from '../common';

export const properties: INodeProperties[] = [
	{
		...templateIdLocator,
		description: 'The template whose draft to preview: pick it from the list, or enter its ID',
	},
];

export const description = shownFor('template', 'preview', properties);

/** The draft rendered with its sample data beside the live `preview_url`; two reads. */
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
