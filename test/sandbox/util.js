'use strict';
// Small helpers shared by the sandbox modules: randomness (seedable), ids, dates, query strings.

const crypto = require('crypto');

/**
 * A source of randomness. With a numeric seed it is deterministic (a 32-bit
 * xorshift-multiply generator); without one it draws from crypto.
 */
function createRandom(seed) {
	if (typeof seed !== 'number' || !Number.isFinite(seed)) {
		return {
			next: () => crypto.randomInt(0, 0x100000000) / 0x100000000,
			bytes: (n) => crypto.randomBytes(n),
			deterministic: false,
		};
	}
	let state = (Math.floor(seed) ^ 0x9e3779b9) >>> 0;
	const next = () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let z = state;
		z = Math.imul(z ^ (z >>> 15), z | 1);
		z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
		return ((z ^ (z >>> 14)) >>> 0) / 0x100000000;
	};
	return {
		next,
		bytes: (n) => {
			const out = Buffer.alloc(n);
			for (let i = 0; i < n; i++) out[i] = Math.floor(next() * 256);
			return out;
		},
		deterministic: true,
	};
}

/** UUID version 4 (random) built from the given random source. */
function uuidV4(random) {
	const b = random.bytes(16);
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	const h = b.toString('hex');
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Fisher-Yates shuffle of a copy. */
function shuffled(list, random) {
	const out = list.slice();
	for (let i = out.length - 1; i > 0; i--) {
		const j = Math.floor(random.next() * (i + 1));
		[out[i], out[j]] = [out[j], out[i]];
	}
	return out;
}

/** ISO 8601 with milliseconds and a numeric UTC offset: 2026-11-21T10:12:31.123+00:00 */
function isoTime(ms) {
	return new Date(ms).toISOString().replace('Z', '+00:00');
}

/** YYYY-MM-DD */
function isoDay(ms) {
	return new Date(ms).toISOString().slice(0, 10);
}

/** yyyymmddThhmmssZ as used by AWS signatures. */
function amzDate(ms) {
	return new Date(ms)
		.toISOString()
		.replace(/[-:]/g, '')
		.replace(/\.\d{3}/, '');
}

/** Parses an amzDate back into ms, or NaN. */
function parseAmzDate(s) {
	const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(String(s || ''));
	if (!m) return NaN;
	return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
}

/** Accepts ms, Date or date string; returns ms or undefined. */
function toMs(value) {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'number') return value;
	if (value instanceof Date) return value.getTime();
	const ms = Date.parse(String(value));
	if (Number.isNaN(ms)) throw new Error(`sandbox: not a date: ${value}`);
	return ms;
}

/**
 * Parses a raw query string into an object keyed by the raw (decoded) names.
 * Keys ending in [] are always arrays; any other key becomes an array only when repeated.
 */
function parseQuery(rawQuery) {
	const out = {};
	for (const [key, value] of new URLSearchParams(rawQuery || '')) {
		if (key.endsWith('[]')) {
			(out[key] = out[key] || []).push(value);
		} else if (Object.prototype.hasOwnProperty.call(out, key)) {
			out[key] = Array.isArray(out[key]) ? out[key].concat(value) : [out[key], value];
		} else {
			out[key] = value;
		}
	}
	return out;
}

/** All values of a query key as an array (ignores empty strings). */
function queryValues(query, key) {
	const v = query[key];
	if (v === undefined) return [];
	return (Array.isArray(v) ? v : [v]).filter((x) => x !== '');
}

/** The single value of a query key (the last one when repeated). */
function queryValue(query, key) {
	const v = query[key];
	if (Array.isArray(v)) return v[v.length - 1];
	return v;
}

module.exports = {
	createRandom,
	uuidV4,
	shuffled,
	isoTime,
	isoDay,
	amzDate,
	parseAmzDate,
	toMs,
	parseQuery,
	queryValues,
	queryValue,
};
