import type { INodeProperties } from 'n8n-workflow';

import { workspaceIdLocator } from '../../../shared/descriptions';
import { withoutSecrets } from '../../../shared/helpers/document';
import { paired, perItem } from '../../../shared/helpers/items';
import { InputError } from '../../../shared/helpers/parse';
import { createTemplate } from '../../../shared/transport';
import { readWorkspaceId, shownFor } from '../common';
import { readTemplateFields, templateFields } from '../../descriptions/library';
import {
	imageSettings,
	pageSettings,
	readSettings,
	readTemplateFiles,
} from '../../descriptions/templateSettings';

export const properties: INodeProperties[] = [
	{ ...workspaceIdLocator, description: 'The workspace to create the template in' },
	templateFields('Template Fields'),
	pageSettings,
	imageSettings,
];

export const description = shownFor('template', 'create', properties);

export const execute = perItem(
	async (ctx, i) => {
		const workspaceId = readWorkspaceId(ctx, i);
		const fields = readTemplateFields(ctx, i);
		if (fields.identifier === undefined)
			throw new InputError(
				'The new template has no name',
				'Add Template Fields → Name, e.g. "invoice"',
			);
		const settings = readSettings(ctx, i);
		const files = await readTemplateFiles(ctx, i);
		return {
			app_id: workspaceId,
			...fields,
			...files,
			...(settings && { settings_draft: settings }),
		};
	},
	async (ctx, fields, i) =>
		paired(withoutSecrets(await createTemplate(ctx, fields, { itemIndex: i })), i),
);
