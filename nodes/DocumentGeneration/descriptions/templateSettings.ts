/** A template's Page and Image Settings, retention and files, read into the service's keys. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { tryParseJson } from '../../shared/helpers/json';
import { InputError, preview } from '../../shared/helpers/parse';
import { collection, sizeText } from './payloadParts';

const PAPER_FORMATS = ['a4', 'a3', 'a5', 'letter', 'legal', 'custom'];
const ORIENTATIONS = ['portrait', 'landscape'];
const SIDES = ['top', 'right', 'bottom', 'left'] as const;
const PLACES = ['left', 'center', 'right'] as const;

/** The settings keys that hold objects, merged key by key on update. */
const NESTED_KEYS = ['margin', 'header', 'footer'];

const SECONDS_PER_UNIT: Record<string, number> = { hours: 3_600, days: 86_400 };

const capitalized = (word: string) => word[0].toUpperCase() + word.slice(1);

const numberField = (displayName: string, name: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 1 },
	default: 0,
	description,
});

const textField = (band: 'header' | 'footer', place: string): INodeProperties => ({
	displayName: `${capitalized(band)} ${capitalized(place)}`,
	name: `${band}${capitalized(place)}`,
	type: 'string',
	default: '',
	placeholder: band === 'footer' ? 'e.g. Page [page] of [topage]' : 'e.g. ACME Ltd',
	description: `Text at the ${place} of every page's ${band}; [page] and [topage] print the page number and the page count`,
});

export const pageSettings: INodeProperties = collection(
	'Page Settings',
	'pageSettings',
	'Add Setting',
	[
		...PLACES.map((place) => textField('footer', place)),
		...PLACES.map((place) => textField('header', place)),
		...[...SIDES]
			.sort()
			.map((side) =>
				numberField(
					`Margin ${capitalized(side)} (Mm)`,
					`margin${capitalized(side)}`,
					`Space between the ${side} edge of the page and the content, in millimetres`,
				),
			),
		{
			displayName: 'Orientation',
			name: 'orientation',
			type: 'options',
			options: ORIENTATIONS.map((value) => ({ name: capitalized(value), value })),
			default: 'portrait',
		},
		{
			displayName: 'Paper Format',
			name: 'paperFormat',
			type: 'options',
			options: [
				{ name: 'A3', value: 'a3' },
				{ name: 'A4', value: 'a4' },
				{ name: 'A5', value: 'a5' },
				{ name: 'Custom', value: 'custom' },
				{ name: 'Legal', value: 'legal' },
				{ name: 'Letter', value: 'letter' },
			],
			default: 'a4',
			description: 'The paper size; Custom takes Paper Width and Paper Height',
		},
		numberField('Paper Height (Mm)', 'paperHeight', 'The height of a Custom page, in millimetres'),
		numberField('Paper Width (Mm)', 'paperWidth', 'The width of a Custom page, in millimetres'),
	],
	"The page of the template's PDF documents (sent as its draft settings)",
);

const pixelSetting = (side: 'height' | 'width'): INodeProperties => ({
	displayName: `${capitalized(side)} (Px)`,
	name: side,
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 500,
	description: `The ${side} of the image, in pixels`,
});

export const imageSettings: INodeProperties = collection(
	'Image Settings',
	'imageSettings',
	'Add Setting',
	[
		pixelSetting('height'),
		{
			displayName: 'Transparent Background',
			name: 'transparent',
			type: 'boolean',
			default: false,
			description: 'Whether the image has a transparent background (PNG and WebP)',
		},
		pixelSetting('width'),
	],
	"The size and background of the template's images (sent as its draft settings)",
);

/** Template Fields' Retention and its unit, sent as `ttl` seconds. */
export const retentionFields: INodeProperties[] = [
	{
		displayName: 'Retention',
		name: 'retention',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 30,
		description:
			"How long the service keeps this template's documents, in Retention Unit; the plan caps it",
	},
	{
		displayName: 'Retention Unit',
		name: 'retentionUnit',
		type: 'options',
		options: [
			{ name: 'Days', value: 'days' },
			{ name: 'Hours', value: 'hours' },
		],
		default: 'days',
		description: 'The unit of Retention',
	},
];

/** A number setting: finite, and positive or at least 0 as `min` says. */
function readNumber(value: unknown, where: string, min: 'positive' | 'zero'): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	const valid =
		typeof number === 'number' &&
		Number.isFinite(number) &&
		(min === 'zero' ? number >= 0 : number > 0);
	if (!valid)
		throw new InputError(
			`${where} is "${preview(value)}", not a ${min === 'zero' ? 'number of 0 or more' : 'number above 0'}`,
			`Enter a number such as 10 under ${where}, or remove it`,
		);
	return number as number;
}

/** A choice among `allowed`, named `where` in the refusal. */
function readChoice(value: unknown, allowed: string[], where: string): string {
	const choice = String(value).trim().toLowerCase();
	if (!allowed.includes(choice))
		throw new InputError(
			`${where} "${preview(value)}" is not one the service knows`,
			`Choose one of ${allowed.join(', ')} under ${where}`,
		);
	return choice;
}

/** The header's or footer's texts given, as `{left, center, right}`; undefined when none. */
function readBand(raw: IDataObject, band: 'header' | 'footer'): IDataObject | undefined {
	const texts: IDataObject = {};
	for (const place of PLACES) {
		const value = raw[`${band}${capitalized(place)}`];
		if (value !== undefined) texts[place] = String(value);
	}
	return Object.keys(texts).length ? texts : undefined;
}

/** The margins given, as `{top, right, bottom, left}` in mm; undefined when none. */
function readMargin(raw: IDataObject): IDataObject | undefined {
	const margin: IDataObject = {};
	for (const side of SIDES) {
		const value = raw[`margin${capitalized(side)}`];
		if (value !== undefined)
			margin[side] = readNumber(value, `Page Settings → Margin ${capitalized(side)}`, 'zero');
	}
	return Object.keys(margin).length ? margin : undefined;
}

/** The paper: a named format, or Custom with both sizes (sizes alone mean Custom). */
function readPaper(raw: IDataObject): IDataObject {
	const sized = raw.paperWidth !== undefined || raw.paperHeight !== undefined;
	if (raw.paperFormat === undefined && !sized) return {};
	const format =
		raw.paperFormat === undefined
			? 'custom'
			: readChoice(raw.paperFormat, PAPER_FORMATS, 'Page Settings → Paper Format');
	if (format !== 'custom') {
		if (sized)
			throw new InputError(
				'Paper Width and Paper Height apply to a Custom paper format only',
				'Set Page Settings → Paper Format to Custom, or remove Paper Width and Paper Height',
			);
		return { paper_format: format };
	}
	if (raw.paperWidth === undefined || raw.paperHeight === undefined)
		throw new InputError(
			'A Custom paper format needs both Paper Width and Paper Height',
			'Add Page Settings → Paper Width and Paper Height (in mm), or choose a named format such as A4',
		);
	return {
		paper_format: 'custom',
		paper_width: readNumber(raw.paperWidth, 'Page Settings → Paper Width', 'positive'),
		paper_height: readNumber(raw.paperHeight, 'Page Settings → Paper Height', 'positive'),
	};
}

function readPageSettings(raw: IDataObject): IDataObject {
	const settings: IDataObject = readPaper(raw);
	if (raw.orientation !== undefined)
		settings.orientation = readChoice(raw.orientation, ORIENTATIONS, 'Page Settings → Orientation');
	const parts = {
		margin: readMargin(raw),
		header: readBand(raw, 'header'),
		footer: readBand(raw, 'footer'),
	};
	for (const [key, value] of Object.entries(parts)) if (value) settings[key] = value;
	return settings;
}

function readImageSettings(raw: IDataObject): IDataObject {
	const settings: IDataObject = {};
	for (const key of ['width', 'height'] as const) {
		if (raw[key] === undefined) continue;
		const pixels = readNumber(raw[key], `Image Settings → ${capitalized(key)}`, 'positive');
		if (!Number.isInteger(pixels))
			throw new InputError(
				`Image Settings → ${capitalized(key)} is ${pixels}, not a whole number of pixels`,
				`Enter a whole number such as 800 under Image Settings → ${capitalized(key)}`,
			);
		settings[key] = pixels;
	}
	if (raw.transparent !== undefined) settings.transparent = raw.transparent === true;
	return settings;
}

/** The draft settings the item gives (page and image), or undefined when it gives none. */
export function readSettings(ctx: IExecuteFunctions, i: number): IDataObject | undefined {
	const page = readPageSettings(ctx.getNodeParameter('pageSettings', i, {}) as IDataObject);
	const image = readImageSettings(ctx.getNodeParameter('imageSettings', i, {}) as IDataObject);
	const settings = { ...page, ...image };
	return Object.keys(settings).length ? settings : undefined;
}

/** Retention and its unit as the service's `ttl`, in whole seconds; undefined when not given. */
export function readTtl(raw: IDataObject): number | undefined {
	if (raw.retention === undefined) return undefined;
	const unit = readChoice(
		raw.retentionUnit ?? 'days',
		Object.keys(SECONDS_PER_UNIT),
		'Template Fields → Retention Unit',
	);
	const seconds = Math.round(
		readNumber(raw.retention, 'Template Fields → Retention', 'positive') * SECONDS_PER_UNIT[unit],
	);
	return Math.max(seconds, 1);
}

/** A template's draft settings as an object: the service may keep them as a string of JSON. */
function settingsObject(value: unknown): IDataObject {
	if (value && typeof value === 'object' && !Array.isArray(value)) return value as IDataObject;
	if (typeof value === 'string' && value.trim() !== '') {
		const parsed = tryParseJson(value);
		const object = 'value' in parsed ? parsed.value : undefined;
		if (object && typeof object === 'object' && !Array.isArray(object))
			return object as IDataObject;
		throw new InputError(
			'The template keeps its draft settings in a form this node cannot change',
			'Change the settings in the dashboard, or remove Page Settings and Image Settings',
		);
	}
	return {};
}

/** The draft settings with the given ones put in: the service replaces `settings_draft` whole. */
export function mergeSettings(current: unknown, given: IDataObject): IDataObject {
	const merged = { ...settingsObject(current) };
	for (const [key, value] of Object.entries(given)) {
		const before = merged[key];
		merged[key] =
			NESTED_KEYS.includes(key) && before && typeof before === 'object' && !Array.isArray(before)
				? { ...(before as IDataObject), ...(value as IDataObject) }
				: value;
	}
	return merged;
}

/** How large a body or styles file may be: far above any template the dashboard keeps. */
export const TEMPLATE_FILE_BYTES = 5 * 1024 * 1024;

/** The Template Fields that take a file, and what each replaces. */
export const TEMPLATE_FILE_FIELDS = [
	{ field: 'bodyFromFile', text: 'body', label: 'Body From File', sent: 'body_draft' },
	{ field: 'stylesFromFile', text: 'styles', label: 'Styles From File', sent: 'scss_style_draft' },
] as const;

/** A file's bytes as UTF-8 text, exactly (a byte order mark kept); refused when it is not text. */
function textOf(bytes: Buffer, label: string): string {
	let text: string | undefined;
	try {
		text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
	} catch {
		text = undefined;
	}
	if (text === undefined || text.includes('\u0000'))
		throw new InputError(
			`The file of Template Fields → ${label} is not UTF-8 text`,
			'Give an HTML, CSS or SCSS file saved as UTF-8 (Read/Write Files from Disk reads it as it is)',
		);
	return text;
}

function noFile(property: string, label: string): InputError {
	return new InputError(
		`The input item has no file "${preview(property)}" for Template Fields → ${label}`,
		'Write the name the Binary tab of the previous node shows (e.g. data); with Execution Logic v2, the path of the file in the item, e.g. _files.data',
	);
}

/** The body and styles the item's files give, through n8n's binary helpers, checked. */
export async function readTemplateFiles(ctx: IExecuteFunctions, i: number): Promise<IDataObject> {
	const raw = ctx.getNodeParameter('templateFields', i, {}) as IDataObject;
	const fields: IDataObject = {};
	for (const { field, text, label, sent } of TEMPLATE_FILE_FIELDS) {
		if (raw[field] === undefined) continue;
		if (raw[text] !== undefined)
			throw new InputError(
				`Template Fields has both ${label} and the text it replaces`,
				`Remove one of them: ${label} takes the text from a file of an earlier node`,
			);
		const property = String(raw[field]).trim();
		try {
			if (property === '') throw new Error('no name');
			ctx.helpers.assertBinaryData(i, property);
		} catch {
			throw noFile(property, label);
		}
		const bytes = await ctx.helpers.getBinaryDataBuffer(i, property);
		if (bytes.length > TEMPLATE_FILE_BYTES)
			throw new InputError(
				`The file of Template Fields → ${label} is ${sizeText(bytes.length)}, more than the ${sizeText(TEMPLATE_FILE_BYTES)} a template file may be`,
				'Split the template into snippets, or move large images out of it (link them instead)',
			);
		fields[sent] = textOf(bytes, label);
	}
	return fields;
}
