/** The one reader of each kind of time the service sends, and waiting inside a node. */
import { sleep } from 'n8n-workflow';

/** A service timestamp (ISO 8601 text such as `updated_at`) in ms; undefined when unreadable. */
export function timeOf(value: unknown): number | undefined {
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const ms = Date.parse(value);
	return Number.isFinite(ms) ? ms : undefined;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const LONG_WEEKDAYS = 'Sunday Monday Tuesday Wednesday Thursday Friday Saturday'.split(' ');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const W = WEEKDAYS.join('|');
const M = MONTHS.join('|');
/** RFC 7231 IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`. */
const IMF_FIXDATE = new RegExp(`^(${W}), (\\d{2}) (${M}) (\\d{4}) (\\d{2}):(\\d{2}):(\\d{2}) GMT$`);
/** The obsolete RFC 850 form, e.g. `Sunday, 06-Nov-94 08:49:37 GMT`. */
const RFC_850 = new RegExp(
	`^(${LONG_WEEKDAYS.join('|')}), (\\d{2})-(${M})-(\\d{2}) (\\d{2}):(\\d{2}):(\\d{2}) GMT$`,
);
/** The obsolete asctime form, e.g. `Sun Nov  6 08:49:37 1994` (GMT). */
const ASCTIME = new RegExp(`^(${W}) (${M}) ( \\d|\\d{2}) (\\d{2}):(\\d{2}):(\\d{2}) (\\d{4})$`);

type DateFields = { weekday: number; day: string; month: string; year: number; time: string[] };

export interface HttpDateOptions {
	/** Also read the obsolete RFC 850 and asctime forms, which HTTP recipients must accept. */
	obsoleteForms?: boolean;
}

/** An HTTP date header (`Date`, `Retry-After`) in ms; undefined when absent, repeated or unreal. */
export function parseHttpDate(value: unknown, options: HttpDateOptions = {}): number | undefined {
	const text: unknown = Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value;
	if (typeof text !== 'string') return undefined;
	const trimmed = text.trim();
	let fields: DateFields | undefined;
	let match = IMF_FIXDATE.exec(trimmed);
	if (match) {
		const [, weekday, day, month, year, ...time] = match;
		fields = { weekday: WEEKDAYS.indexOf(weekday), day, month, year: Number(year), time };
	} else if (options.obsoleteForms && (match = RFC_850.exec(trimmed))) {
		const [, weekday, day, month, yy, ...time] = match;
		const year = (Number(yy) < 70 ? 2000 : 1900) + Number(yy);
		fields = { weekday: LONG_WEEKDAYS.indexOf(weekday), day, month, year, time };
	} else if (options.obsoleteForms && (match = ASCTIME.exec(trimmed))) {
		const [, weekday, month, day, hour, minute, second, yyyy] = match;
		const [time, year] = [[hour, minute, second], Number(yyyy)];
		fields = { weekday: WEEKDAYS.indexOf(weekday), day: day.trim(), month, year, time };
	}
	if (!fields) return undefined;
	const [hour, minute, second] = fields.time.map(Number);
	const month = MONTHS.indexOf(fields.month);
	const ms = Date.UTC(fields.year, month, Number(fields.day), hour, minute, second);
	const date = new Date(ms);
	// Date.UTC rolls over out-of-range fields (31 Feb, 24:00) and maps years 0-99 to 19xx.
	const real =
		Number.isFinite(ms) &&
		date.getUTCFullYear() === fields.year &&
		date.getUTCDate() === Number(fields.day) &&
		date.getUTCHours() === hour &&
		date.getUTCMinutes() === minute &&
		date.getUTCSeconds() === second &&
		date.getUTCDay() === fields.weekday;
	return real ? ms : undefined;
}

/** A duration in whole seconds, for messages: "65 s". */
export function wholeSeconds(ms: number): string {
	return `${Math.round(ms / 1000)} s`;
}

/** Waits `ms` in slices of a second; resolves early (no throw) when the signal aborts. */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
	const until = Date.now() + ms;
	while (!signal?.aborted) {
		const left = until - Date.now();
		if (left <= 0) return;
		await sleep(Math.min(left, 1000));
	}
}
