import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { templateIdLocator } from '../../../shared/descriptions';
import { withoutSecrets } from '../../../shared/helpers/document';
import { CONCURRENCY, paired, perItem } from '../../../shared/helpers/items';
import { InputError } from '../../../shared/helpers/parse';
import type { TransportContext } from '../../../shared/types';
import { getTemplate, updateTemplate } from '../../../shared/transport';
import { readTemplateId, shownFor } from '../common';
import { readTemplateFields, templateFields } from '../../descriptions/library';
import {
	imageSettings,
	mergeSettings,
	pageSettings,
	readSettings,
	readTemplateFiles,
} from '../../descriptions/templateSettings';

export const properties: INodeProperties[] = [
	{
		...templateIdLocator,
		description: 'The template to change: pick it from the list, or enter its ID',
	},
	templateFields('Update Fields'),
	{
		...pageSettings,
		description: `${pageSettings.description}; settings left out keep their values`,
	},
	{
		...imageSettings,
		description: `${imageSettings.description}; settings left out keep their values`,
	},
];

export const description = shownFor('template', 'update', properties);

interface TemplateChange {
	id: string;
	fields: IDataObject;
	settings?: IDataObject;
}

/** Sends the fields, and the draft settings merged in (one read first: they are sent whole). */
async function sendChange(ctx: TransportContext, change: TemplateChange, itemIndex: number) {
	const fields = { ...change.fields };
	if (change.settings) {
		const current = await getTemplate(ctx, change.id, { itemIndex });
		fields.settings_draft = mergeSettings(current.settings_draft, change.settings);
	}
	return await updateTemplate(ctx, change.id, fields, { itemIndex });
}

export const execute = perItem(
	async (ctx, i): Promise<TemplateChange> => {
		const id = readTemplateId(ctx, i);
		const settings = readSettings(ctx, i);
		const fields = { ...readTemplateFields(ctx, i), ...(await readTemplateFiles(ctx, i)) };
		if (!Object.keys(fields).length && !settings)
			throw new InputError(
				'Nothing to update: no field is given',
				'Add at least one field under Update Fields (Name, Body, Styles, Sample Data, Output Type, PDF Engine, Folder or Retention), Page Settings or Image Settings',
			);
		return { id, fields, settings };
	},
	async (ctx, change, i) => paired(withoutSecrets(await sendChange(ctx, change, i)), i),
	CONCURRENCY,
);
