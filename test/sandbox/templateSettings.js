'use strict';
// A template's settings (a JSON field: page settings of a PDF template, size and background of
// an image template) and its retention (`ttl`, whole seconds, capped by the plan), checked as
// a strict stand-in would: a shape the service documents passes, anything else is a 422.

const PAPER_FORMATS = ['a3', 'a4', 'a5', 'letter', 'legal', 'custom'];
const ORIENTATIONS = ['portrait', 'landscape'];
const SIDES = ['top', 'right', 'bottom', 'left'];
const BAND_KEYS = ['left', 'center', 'right', 'content'];
const FLAGS = ['inject_javascript', 'use_emojis', 'use_paged', 'transparent'];

/** The plan's longest retention: 30 days (the `maxTemplateTtl` option changes it). */
const DEFAULT_MAX_TTL = 30 * 24 * 3600;

/** The settings a new template starts with: A4 portrait, zero margins; 500 x 500 for images. */
function defaultSettings(outputType) {
	return outputType === 'pdf'
		? {
				paper_format: 'a4',
				orientation: 'portrait',
				margin: { top: 0, right: 0, bottom: 0, left: 0 },
			}
		: { width: 500, height: 500, transparent: false };
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isSize = (v) => typeof v === 'number' && Number.isFinite(v) && v > 0;

/**
 * The margin's errors: an object of the four sides in mm, none negative. One number (the same
 * on every side) passes too: the documented shape is only likely, and a replayed client sends it.
 */
function marginErrors(margin) {
	const isMm = (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
	if (typeof margin === 'number')
		return isMm(margin) ? [] : ['margin must be a number of mm, 0 or more'];
	if (!isObject(margin)) return ['margin must be an object of top, right, bottom, left'];
	return Object.entries(margin).flatMap(([side, value]) => {
		if (!SIDES.includes(side)) return [`margin.${side} is not a side (top, right, bottom, left)`];
		return isMm(value) ? [] : [`margin.${side} must be a number of mm, 0 or more`];
	});
}

/** A header's or footer's errors: an object of texts left, center, right (and content). */
function bandErrors(name, band) {
	if (!isObject(band)) return [`${name} must be an object of left, center, right`];
	return Object.entries(band).flatMap(([key, value]) => {
		if (!BAND_KEYS.includes(key))
			return [`${name}.${key} is not one of left, center, right, content`];
		return typeof value === 'string' ? [] : [`${name}.${key} must be a text`];
	});
}

/** The errors of one settings key, [] when its value is one the service documents. */
function keyErrors(key, value, settings) {
	if (key === 'paper_format') {
		if (!PAPER_FORMATS.includes(value))
			return [`paper_format "${value}" is not one of ${PAPER_FORMATS.join(', ')}`];
		if (value === 'custom' && !(isSize(settings.paper_width) && isSize(settings.paper_height)))
			return ['paper_format custom needs paper_width and paper_height'];
		return [];
	}
	if (['paper_width', 'paper_height', 'width', 'height'].includes(key))
		return isSize(value) ? [] : [`${key} must be a number greater than 0`];
	if (key === 'orientation')
		return ORIENTATIONS.includes(value)
			? []
			: [`orientation "${value}" is not portrait or landscape`];
	if (key === 'margin') return marginErrors(value);
	if (key === 'header' || key === 'footer') return bandErrors(key, value);
	// Whether inject_javascript is a switch or the code itself is not known: both pass.
	if (key === 'inject_javascript' && typeof value === 'string') return [];
	if (FLAGS.includes(key))
		return typeof value === 'boolean' ? [] : [`${key} must be true or false`];
	return [`${key} is not a template setting`];
}

/**
 * Checks a `settings_draft` as sent: an object (a string is not one: a JSON field would keep
 * it as a string). Answers the messages of its errors, [] when it is good.
 */
function settingsErrors(settings) {
	if (!isObject(settings)) return ['must be a JSON object'];
	return Object.entries(settings).flatMap(([key, value]) => keyErrors(key, value, settings));
}

/** Checks a `ttl`: whole seconds, more than 0, at most the plan's cap; answers its errors. */
function ttlErrors(ttl, maxTtl = DEFAULT_MAX_TTL) {
	if (typeof ttl !== 'number' || !Number.isInteger(ttl)) return ['must be an integer (seconds)'];
	if (ttl <= 0) return ['must be greater than 0'];
	if (ttl > maxTtl) return [`must be less than or equal to ${maxTtl} (the plan's longest)`];
	return [];
}

module.exports = { defaultSettings, settingsErrors, ttlErrors, DEFAULT_MAX_TTL, PAPER_FORMATS };
