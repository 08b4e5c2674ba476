import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { workspaceIdLocator } from '../../../shared/descriptions';
import { withoutSecrets } from '../../../shared/helpers/document';
import { paired, perItem } from '../../../shared/helpers/items';
import { InputError } from '../../../shared/helpers/parse';
import { createTemplate } from '../../../shared/transport';
import { readWorkspaceId } from '../ids';
import { readTemplateFields, templateFields } from '../../descriptions/library';

export const properties: INodeProperties[] = [
	{ ...workspaceIdLocator, description: 'The workspace to create the template in' },
	templateFields('Template Fields'),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['template'], operation: ['create'] } },
	properties,
);

export const execute = perItem(
	(ctx, i) => {
		const workspaceId = readWorkspaceId(ctx, i);
		const fields = readTemplateFields(ctx, i);
		if (fields.identifier === undefined)
			throw new InputError(
				'The new template has no name',
				'Add Template Fields → Name, e.g. "invoice"',
			);
		return { app_id: workspaceId, ...fields };
	},
	async (ctx, fields, i) =>
		paired(withoutSecrets(await createTemplate(ctx, fields, { itemIndex: i })), i),
);
