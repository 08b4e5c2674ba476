/**
 * Image Options of create and update, for image templates (social cards, badges, certificates
 * as PNG): format, width, height and quality, sent as the service's meta keys `_type`,
 * `_width`, `_height` and `_quality` (numbers where it expects numbers). Each is checked before
 * anything is sent; set here, an option wins over the same key in Meta (JSON).
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { InputError, preview } from '../../shared/helpers/parse';

/** The largest width or height accepted, in pixels. */
export const MAX_IMAGE_SIDE = 10_000;

export const IMAGE_FORMATS = ['webp', 'png', 'jpg'] as const;

export const imageOptions: INodeProperties = {
	displayName: 'Image Options',
	name: 'imageOptions',
	type: 'collection',
	placeholder: 'Add Image Option',
	default: {},
	description:
		'For image templates only (a PDF template ignores them): the format and size of the image. Set here, an option wins over the same key (_type, _width, _height, _quality) in Meta (JSON).',
	options: [
		{
			displayName: 'Format',
			name: 'format',
			type: 'options',
			options: [
				{ name: 'WebP', value: 'webp', description: "The service's default" },
				{ name: 'PNG', value: 'png' },
				{ name: 'JPG', value: 'jpg' },
			],
			default: 'webp',
			description: 'The image format (meta._type)',
		},
		{
			displayName: 'Width (Pixels)',
			name: 'width',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_IMAGE_SIDE },
			default: 1200,
			description: "The image's width (meta._width); the template's own setting when not added",
		},
		{
			displayName: 'Height (Pixels)',
			name: 'height',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_IMAGE_SIDE },
			default: 630,
			description: "The image's height (meta._height); the template's own setting when not added",
		},
		{
			displayName: 'Quality',
			name: 'quality',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 100 },
			default: 100,
			description: 'WebP only: from 1 (smallest file) to 100 (best, the default) (meta._quality)',
		},
	],
};

/** A whole number within `min`…`max`, named by its option when it is not one. */
function wholeNumber(value: unknown, option: string, min: number, max: number): number {
	const number = typeof value === 'string' && /^\s*\d{1,6}\s*$/.test(value) ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
		throw new InputError(
			`Image Options → ${option} must be a whole number from ${min} to ${max}, not ${preview(value)}`,
			`Set Image Options → ${option} to a number such as ${option === 'Quality' ? 80 : 1200}, or remove it to keep the template's setting`,
		);
	}
	return number;
}

/** The format option: one of the service's image types. */
function imageFormat(value: unknown): string {
	const format = typeof value === 'string' ? value.trim().toLowerCase() : value;
	if (typeof format === 'string' && (IMAGE_FORMATS as readonly string[]).includes(format))
		return format;
	throw new InputError(
		`Image Options → Format must be webp, png or jpg, not ${preview(value)}`,
		'Pick WebP, PNG or JPG under Image Options → Format',
	);
}

/** The meta keys of the Image Options given (none: an empty object). */
export function readImageMeta(value: unknown): IDataObject {
	const options = (value && typeof value === 'object' ? value : {}) as IDataObject;
	const meta: IDataObject = {};
	if (options.format !== undefined) meta._type = imageFormat(options.format);
	if (options.width !== undefined)
		meta._width = wholeNumber(options.width, 'Width (Pixels)', 1, MAX_IMAGE_SIDE);
	if (options.height !== undefined)
		meta._height = wholeNumber(options.height, 'Height (Pixels)', 1, MAX_IMAGE_SIDE);
	if (options.quality !== undefined)
		meta._quality = wholeNumber(options.quality, 'Quality', 1, 100);
	return meta;
}

/**
 * Refuses a document's meta (Meta (JSON) and the Image Options merged) whose Quality is set
 * for a format other than WebP, the only one it applies to.
 */
export function checkImageMeta(meta: IDataObject | undefined): void {
	const format = meta?._type;
	if (meta?._quality === undefined || format === undefined || format === 'webp') return;
	throw new InputError(
		`Image Options → Quality applies to WebP only, but the format is ${String(format).toUpperCase()}`,
		'Remove Image Options → Quality, or set Image Options → Format to WebP (a _type in Meta (JSON) counts too)',
	);
}
