/**
 * Unit tests of the trigger's pure cursor module: keys, bounds and the service's clock, the
 * walks of one poll, the cursor per event; and the order and clock readings when the service
 * lists in any order.
 */
import * as fc from 'fast-check';

import {
	CLOCK_MARGIN_SECONDS,
	DATE_MARGIN_SECONDS,
	MAX_PASSES,
	OVERLAP_SECONDS,
	ServiceClock,
	VISIBILITY_LAG_SECONDS,
	Walk,
	advance,
	boundFor,
	entryOf,
	frontierBound,
	initialCursor,
	matches,
	mergeCursors,
	newest,
	oldestFirst,
	prune,
	readCursor,
	readState,
	serializeState,
	signedAtOf,
	type Card,
	type Entry,
	type EventCursor,
} from '../../../nodes/DocumentGenerationTrigger/cursor';
import { timeOf } from '../../../nodes/shared/helpers/dates';

const BASE = Date.UTC(2030, 5, 1, 12, 0, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00');
const card = (id: string, ms: number, extra: Card = {}): Card => ({
	id,
	updated_at: iso(ms),
	status: 'success',
	...extra,
});
const entry = (id: string, ms: number, extra: Card = {}): Entry => entryOf(card(id, ms, extra))!;
const amz = (ms: number) =>
	new Date(ms)
		.toISOString()
		.replace(/[-:]/g, '')
		.replace(/\.\d{3}/, '');
const signedUrl = (ms: number) =>
	`https://bucket.s3.amazonaws.com/doc.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=${amz(ms)}&X-Amz-Expires=900&X-Amz-Signature=ab`;

describe('keys and times', () => {
	test('timeOf reads ISO 8601 with an offset or Z, and nothing else', () => {
		expect(timeOf('2030-06-01T12:00:00.123+00:00')).toBe(BASE + 123);
		expect(timeOf('2030-06-01T14:00:00.123+02:00')).toBe(BASE + 123);
		expect(timeOf('2030-06-01T12:00:00Z')).toBe(BASE);
		for (const bad of [undefined, null, '', '  ', 'yesterday', 1234, {}])
			expect(timeOf(bad)).toBeUndefined();
	});

	test('an event key is id@updated_at in ms; the same instant written differently is the same key', () => {
		expect(entryOf(card('a', BASE + 5))).toEqual({
			key: `a@${BASE + 5}`,
			ms: BASE + 5,
			card: card('a', BASE + 5),
		});
		expect(entryOf({ id: 'a', updated_at: '2030-06-01T14:00:00.005+02:00' })!.key).toBe(
			`a@${BASE + 5}`,
		);
		expect(entryOf({ id: 'a', updated_at: 'garbage' })).toEqual({
			key: 'a@garbage',
			ms: undefined,
			card: { id: 'a', updated_at: 'garbage' },
		});
		expect(entryOf({ id: 'a' })!.key).toBe('a@?');
		expect(entryOf({ updated_at: iso(BASE) })).toBeUndefined();
		expect(entryOf({ id: '', updated_at: iso(BASE) })).toBeUndefined();
	});

	test('oldest first by updated_at, then key; unreadable times last; newest ignores them', () => {
		const list = [
			entry('b', BASE + 2),
			entry('a', BASE + 2),
			entryOf({ id: 'z', updated_at: 'x' })!,
			entry('c', BASE + 1),
		];
		expect(list.sort(oldestFirst).map((e) => e.key)).toEqual([
			`c@${BASE + 1}`,
			`a@${BASE + 2}`,
			`b@${BASE + 2}`,
			'z@x',
		]);
		expect(newest(list)!.key).toBe(`b@${BASE + 2}`);
		expect(newest([])).toBeUndefined();
		expect(newest([entryOf({ id: 'z', updated_at: 'x' })!])).toBeUndefined();
	});
});

describe('bounds', () => {
	test('boundFor: floor of the cursor, less the overlap and the walk time in whole seconds', () => {
		expect(OVERLAP_SECONDS).toBeGreaterThanOrEqual(VISIBILITY_LAG_SECONDS + 1);
		const s = Math.floor((BASE + 999) / 1000);
		expect(boundFor(BASE + 999, 0)).toBe(s - OVERLAP_SECONDS);
		expect(boundFor(BASE + 999, 1)).toBe(s - OVERLAP_SECONDS - 1);
		expect(boundFor(BASE + 999, 2500)).toBe(s - OVERLAP_SECONDS - 3);
		// A host clock that stepped back counts as no time; a huge or broken one is capped.
		expect(boundFor(BASE, -50_000)).toBe(BASE / 1000 - OVERLAP_SECONDS);
		expect(boundFor(BASE, 1e12)).toBe(BASE / 1000 - OVERLAP_SECONDS - 3600);
		expect(boundFor(BASE, NaN)).toBe(BASE / 1000 - OVERLAP_SECONDS - 3600);
	});

	test('boundFor: a walk time counted in whole seconds up, up to one hour exactly', () => {
		const at = (ms: number) => BASE / 1000 - OVERLAP_SECONDS - boundFor(BASE, ms);
		expect(at(3_599_000)).toBe(3599);
		expect(at(3_599_001)).toBe(3600);
		expect(at(3_600_000)).toBe(3600);
		// Past an hour (a host clock that jumped): an hour, not 3,601 s.
		expect(at(3_600_001)).toBe(3600);
	});

	test('frontierBound: the service time at the start of a walk, less the lag and margins', () => {
		expect(frontierBound(BASE + 700)).toBe(
			BASE / 1000 - VISIBILITY_LAG_SECONDS - CLOCK_MARGIN_SECONDS - 1,
		);
	});

	test('signedAtOf reads X-Amz-Date of a presigned download URL', () => {
		expect(signedAtOf({ download_url: signedUrl(BASE + 42_000) })).toBe(BASE + 42_000);
		expect(signedAtOf({ download_url: `https://x/y.pdf?X-Amz-Date=${amz(BASE)}` })).toBe(BASE);
		for (const url of [
			null,
			undefined,
			'https://x/y.pdf',
			'https://x/y.pdf?X-Amz-Date=2030-06-01',
			`https://x/y.pdf?Not-X-Amz-Date=${amz(BASE)}x`,
		]) {
			expect(signedAtOf({ download_url: url })).toBeUndefined();
		}
	});

	test('ServiceClock: the service time at a host instant is at least a reading less the host time since', () => {
		const clock = new ServiceClock();
		expect(clock.lowerBoundAt(1000)).toBeUndefined();
		clock.observe([{ download_url: null }, { id: 'x' }], 1000);
		expect(clock.lowerBoundAt(1000)).toBeUndefined();
		// Read at host 5000: service was BASE+10 s (the newest link of the answer counts).
		clock.observe(
			[{ download_url: signedUrl(BASE + 9000) }, { download_url: signedUrl(BASE + 10_000) }],
			5000,
		);
		expect(clock.lowerBoundAt(5000)).toBe(BASE + 10_000);
		expect(clock.lowerBoundAt(7000)).toBe(BASE + 10_000); // later: at least as late
		expect(clock.lowerBoundAt(2000)).toBe(BASE + 7000); // 3 s of host time earlier
		clock.observe([{ download_url: signedUrl(BASE + 9000) }], 5500);
		expect(clock.lowerBoundAt(5000)).toBe(BASE + 10_000);
	});

	test("ServiceClock: an answer's HTTP Date counts too, floored and one second earlier", () => {
		expect(DATE_MARGIN_SECONDS).toBe(1);
		const clock = new ServiceClock();
		// A failure list: no links, only the Date (BASE is a whole second).
		clock.observe([{ id: 'x', download_url: null }], 5000, BASE + 20_000);
		expect(clock.lowerBoundAt(5000)).toBe(BASE + 19_000);
		expect(clock.lowerBoundAt(4000)).toBe(BASE + 18_000);
		// Sub-second parts are dropped; junk is ignored.
		clock.observe([], 5000, BASE + 30_999);
		expect(clock.lowerBoundAt(5000)).toBe(BASE + 29_000);
		clock.observe([], 6000, Number.NaN);
		clock.observe([], 6000, undefined);
		expect(clock.lowerBoundAt(6000)).toBe(BASE + 29_000);
		// The later of the two sources in one answer wins.
		const both = new ServiceClock();
		both.observe([{ download_url: signedUrl(BASE + 40_000) }], 1000, BASE + 40_000);
		expect(both.lowerBoundAt(1000)).toBe(BASE + 40_000);
		both.observe([{ download_url: signedUrl(BASE + 40_000) }], 1000, BASE + 45_000);
		expect(both.lowerBoundAt(1000)).toBe(BASE + 44_000);
	});

	test('a walk whose only clock reading is a Date moves the bound past a quiet stretch', () => {
		const clock = new ServiceClock();
		// Walk began at host 0; the answer (a failure card stamped 60 s earlier) came at host 300.
		const card = {
			id: 'f',
			status: 'failure',
			updated_at: new Date(BASE - 60_000).toISOString(),
			download_url: null,
		};
		clock.observe([card], 300, BASE);
		const facts = { durationMs: 300, serviceStartMs: clock.lowerBoundAt(0) };
		const { next } = advance(
			{ cursor: BASE - 60_000, since: null, seen: {} },
			[entryOf(card)!],
			true,
			facts,
		);
		expect(next.since).toBe(frontierBound(BASE - 1000 - 300));
		expect(next.since).toBe(
			BASE / 1000 - 1 - 1 - VISIBILITY_LAG_SECONDS - CLOCK_MARGIN_SECONDS - 1,
		);
		expect(next.since! * 1000).toBeGreaterThan(BASE - 60_000);
	});

	test('prune keeps exactly the keys a list with that bound can still return', () => {
		const seen = { a: BASE - 1, b: BASE, c: BASE + 5000 };
		expect(prune(seen, BASE / 1000)).toEqual({ b: BASE, c: BASE + 5000 });
		expect(prune(seen, null)).toBe(seen);
	});
});

describe('Walk: when one walk of the list is enough', () => {
	/** `n` cards one second apart: all but the last ~7 s are "old" (below the next bound). */
	const cards = (n: number, from = BASE, step = 1000) =>
		Array.from({ length: n }, (_, i) => card(`d${i}`, from + i * step));

	test('a single page is one answer: settled', () => {
		const walk = new Walk();
		expect(walk.addPass(cards(20), 1)).toBe(true);
		expect(walk.entries.size).toBe(20);
		expect(walk.maxMs).toBe(BASE + 19_000);
	});

	test('several pages always get a second walk, which settles when it agrees', () => {
		const walk = new Walk();
		const list = cards(60);
		expect(walk.addPass(list, 3)).toBe(false);
		expect(walk.addPass([...list].reverse(), 3)).toBe(true);
		expect(walk.passes).toBe(2);
	});

	test('a second walk that finds an old card missed by the first walks again', () => {
		const walk = new Walk();
		const list = cards(60);
		const missed = list[10];
		expect(
			walk.addPass(
				list.filter((c) => c !== missed),
				3,
			),
		).toBe(false);
		expect(walk.addPass(list, 3)).toBe(false);
		expect(walk.entries.has(entryOf(missed)!.key)).toBe(true);
		expect(walk.addPass(list, 3)).toBe(true);
	});

	test('a new card the next poll lists again anyway (an arrival) needs no further walk; an old one does', () => {
		const list = cards(60);
		// The next bound is floor(newest) - overlap: a card from then on is listed again.
		const walk = new Walk();
		expect(walk.addPass(list, 3)).toBe(false);
		expect(
			walk.addPass([...list, card('late', BASE + 59_000 - (OVERLAP_SECONDS - 1) * 1000)], 3),
		).toBe(true);
		// One more arrival in every walk does not hold it up either.
		const busy = new Walk();
		expect(busy.addPass(list, 3)).toBe(false);
		expect(busy.addPass([...list, card('a1', BASE + 59_000)], 3)).toBe(true);
		// An old card that shows up late was missed: walk again.
		const other = new Walk();
		expect(other.addPass(list, 3)).toBe(false);
		expect(other.addPass([...list, card('old', BASE + 1500)], 3)).toBe(false);
		expect(other.addPass([...list, card('old', BASE + 1500)], 3)).toBe(true);
	});

	test('a list that reshuffles on every request is walked until every old card was seen', () => {
		const walk = new Walk();
		const list = cards(58); // 48 old cards, 10 recent
		const oldOnes = list.slice(0, 48);
		const twice = (part: Card[]) => [...part, ...part];
		expect(walk.addPass(twice(oldOnes.slice(0, 24)), 2)).toBe(false);
		// Nothing new, but 24 old cards seen for 48 served: walk again.
		expect(walk.addPass(twice(oldOnes.slice(0, 24)), 2)).toBe(false);
		// The other 24 (new, old: once more), then all of them.
		expect(walk.addPass(twice(oldOnes.slice(24)), 2)).toBe(false);
		expect(walk.addPass([...oldOnes.slice(0, 24), ...oldOnes.slice(24)], 2)).toBe(true);
		expect(list.length).toBe(58);
	});

	test('a card that left the list during the first walk cannot stand in for one never seen', () => {
		const list = cards(58);
		const oldOnes = list.slice(0, 48);
		const [left, missed] = [oldOnes[3], oldOnes[40]];
		const after = oldOnes.filter((c) => c !== left);
		const walk = new Walk();
		// Walk 1: page 1 still had `left`; page 2 came after it left, and never showed `missed`.
		expect(
			walk.addPass(
				[...oldOnes.slice(0, 24), ...after.slice(23).filter((c) => c !== missed), after[0]],
				2,
			),
		).toBe(false);
		// Walk 2 (reshuffled): 47 served, `missed` again absent (one card twice).
		const second = [...after.filter((c) => c !== missed), after[5]];
		expect(second).toHaveLength(47);
		expect(walk.addPass(second, 2)).toBe(false);
		expect(walk.addPass(after, 2)).toBe(false); // `missed` is new: once more
		expect(walk.addPass(after, 2)).toBe(true);
	});

	test('a change in the count of old cards restarts the count', () => {
		const list = cards(58);
		const walk = new Walk();
		expect(walk.addPass(list, 3)).toBe(false);
		expect(walk.addPass(list.slice(1), 3)).toBe(false); // one left: changed
		expect(walk.addPass(list.slice(1), 3)).toBe(true);
	});

	test('what is old follows the next bound: the newest card, the previous bound, a clock reading', () => {
		// 60 cards within 3 s of the newest; the first walk missed one of them.
		const close = cards(60, BASE, 50);
		const missedOne = close.filter((_, i) => i !== 7);
		// The next poll lists them all again: finding it now is no reason to walk again.
		const recent = new Walk();
		expect(recent.addPass(missedOne, 3)).toBe(false);
		expect(recent.addPass(close, 3)).toBe(true);
		// A previous bound above them: the next poll will not list them again: walk again.
		const bounded = new Walk({ cursor: BASE + 2950, since: BASE / 1000 + 2 });
		expect(bounded.addPass(missedOne, 3)).toBe(false);
		expect(bounded.addPass(close, 3)).toBe(false);
		expect(bounded.addPass(close, 3)).toBe(true);
		// A clock reading long after them: the same.
		const later = { durationMs: 0, serviceStartMs: BASE + 600_000 };
		const clocked = new Walk();
		expect(clocked.addPass(missedOne, 3, later)).toBe(false);
		expect(clocked.addPass(close, 3, later)).toBe(false);
		expect(clocked.addPass(close, 3, later)).toBe(true);
	});

	test('the latest copy of a card wins (its download link is the freshest); cards without id are ignored', () => {
		const walk = new Walk();
		walk.addPass([card('a', BASE, { download_url: 'old' }), { updated_at: iso(BASE) }], 2);
		walk.addPass([card('a', BASE, { download_url: 'new' })], 2);
		expect([...walk.entries.values()].map((e) => e.card.download_url)).toEqual(['new']);
		expect(MAX_PASSES).toBeGreaterThanOrEqual(8);
	});
});

describe('state transitions', () => {
	const fresh = (
		since: number | null,
		seen: Record<string, number> = {},
		cursor: number | null = null,
	): EventCursor => ({
		cursor,
		since,
		seen,
	});

	test('initialCursor: nothing seen gives no bound (everything later is new)', () => {
		expect(initialCursor([], { durationMs: 100 })).toEqual({ cursor: null, since: null, seen: {} });
	});

	test('initialCursor: history is remembered, not fired; the bound follows the newest card', () => {
		const list = [entry('a', BASE - 60_000), entry('b', BASE - 2000), entry('c', BASE)];
		const state = initialCursor(list, { durationMs: 300 });
		expect(state.cursor).toBe(BASE);
		expect(state.since).toBe(BASE / 1000 - OVERLAP_SECONDS - 1);
		expect(Object.keys(state.seen).sort()).toEqual([`b@${BASE - 2000}`, `c@${BASE}`]);
	});

	test('initialCursor: never below what the first poll listed; a clock reading moves it past old history', () => {
		const list = [entry('c', BASE)];
		expect(initialCursor(list, { durationMs: 0, coveredSince: BASE / 1000 - 3 }).since).toBe(
			BASE / 1000 - 3,
		);
		const later = initialCursor(list, { durationMs: 0, serviceStartMs: BASE + 3_600_000 });
		expect(later.since).toBe(frontierBound(BASE + 3_600_000));
		expect(later.seen).toEqual({});
		// A clock reading alone (nothing listed) sets a bound too.
		expect(initialCursor([], { durationMs: 0, serviceStartMs: BASE }).since).toBe(
			frontierBound(BASE),
		);
	});

	test('advance: only unseen keys are fresh, oldest first; seen keys and cursor are kept', () => {
		const prev = fresh(BASE / 1000 - 10, { [`a@${BASE - 5000}`]: BASE - 5000 }, BASE - 5000);
		const { next, fresh: out } = advance(
			prev,
			[entry('c', BASE + 20), entry('a', BASE - 5000), entry('b', BASE + 10)],
			true,
			{ durationMs: 10 },
		);
		expect(out.map((e) => e.key)).toEqual([`b@${BASE + 10}`, `c@${BASE + 20}`]);
		expect(next.cursor).toBe(BASE + 20);
		expect(next.since).toBe(BASE / 1000 - OVERLAP_SECONDS - 1);
		expect(Object.keys(next.seen).sort()).toEqual([
			`a@${BASE - 5000}`,
			`b@${BASE + 10}`,
			`c@${BASE + 20}`,
		]);
	});

	test('advance: a regenerated document (same id, new updated_at) is fresh again', () => {
		const prev = fresh(BASE / 1000 - 10, { [`a@${BASE}`]: BASE }, BASE);
		const { fresh: out } = advance(prev, [entry('a', BASE + 400)], true, { durationMs: 0 });
		expect(out.map((e) => e.key)).toEqual([`a@${BASE + 400}`]);
	});

	test('advance: the bound never moves back, and stays put when the walk did not settle', () => {
		const prev = fresh(BASE / 1000, {}, BASE + 9000);
		expect(advance(prev, [entry('x', BASE + 500)], true, { durationMs: 0 }).next.since).toBe(
			BASE / 1000 + 9 - OVERLAP_SECONDS,
		);
		expect(
			advance(fresh(BASE / 1000 + 5, {}, BASE + 9000), [], true, { durationMs: 0 }).next.since,
		).toBe(BASE / 1000 + 5);
		const unsettled = advance(prev, [entry('y', BASE + 60_000)], false, {
			durationMs: 0,
			serviceStartMs: BASE + 70_000,
		});
		expect(unsettled.next.since).toBe(BASE / 1000);
		expect(unsettled.next.cursor).toBe(BASE + 60_000);
		expect(unsettled.fresh).toHaveLength(1);
	});

	test('advance: idle, a clock reading moves the bound past the cursor and forgets the old keys', () => {
		const prev = fresh(BASE / 1000 - 8, { [`a@${BASE}`]: BASE }, BASE);
		const { next, fresh: out } = advance(prev, [entry('a', BASE)], true, {
			durationMs: 50,
			serviceStartMs: BASE + 60_000,
		});
		expect(out).toEqual([]);
		expect(next.since).toBe(frontierBound(BASE + 60_000));
		expect(next.since! * 1000).toBeGreaterThan(BASE);
		expect(next.seen).toEqual({});
		expect(next.cursor).toBe(BASE);
	});

	test('mergeCursors: later cursor and bound, union of keys, pruned', () => {
		const a = fresh(100, { x: 100_500, old: 99_000 }, 110_000);
		const b = fresh(102, { y: 102_000 }, 109_000);
		expect(mergeCursors(a, b)).toEqual({ cursor: 110_000, since: 102, seen: { y: 102_000 } });
		expect(mergeCursors(fresh(100, { x: 100_500 }, 1), fresh(100, { y: 100_600 }, 2)).seen).toEqual(
			{ x: 100_500, y: 100_600 },
		);
	});

	test('mergeCursors with null parts', () => {
		expect(mergeCursors(fresh(null, { a: 1 }), fresh(null, { b: 2 }))).toEqual({
			cursor: null,
			since: null,
			seen: { a: 1, b: 2 },
		});
		expect(mergeCursors(fresh(null, {}, null), fresh(5, {}, 9000))).toEqual({
			cursor: 9000,
			since: 5,
			seen: {},
		});
	});
});

describe('stored state', () => {
	test('round trip through serializeState / readState', () => {
		const state = {
			success: { cursor: BASE, since: BASE / 1000 - 8, seen: { [`a@${BASE}`]: BASE } },
		};
		const stored = JSON.parse(JSON.stringify(serializeState(state)));
		expect(stored.version).toBe(1);
		expect(readState(stored)).toEqual(state);
	});

	test('anything not understood is treated as absent (a fresh start for that event)', () => {
		expect(readState({})).toEqual({});
		expect(
			readState({ version: 2, events: { success: { cursor: 1, since: 1, seen: {} } } }),
		).toEqual({});
		expect(readState({ version: 1, events: 'x' })).toEqual({});
		expect(
			readState({ version: 1, events: { success: { cursor: 1, since: 1, seen: {} }, draft: {} } }),
		).toEqual({ success: { cursor: 1, since: 1, seen: {} } });
		for (const bad of [
			null,
			[],
			'x',
			{ cursor: 'x', since: 1, seen: {} },
			{ cursor: 1, since: 1.5, seen: {} },
			{ cursor: 1, since: 1, seen: [] },
			{ cursor: 1, since: 1, seen: { a: 'x' } },
			{ cursor: 1, since: 1 },
		]) {
			expect(readCursor(bad)).toBeUndefined();
		}
		expect(readCursor({ cursor: null, since: null, seen: {} })).toEqual({
			cursor: null,
			since: null,
			seen: {},
		});
	});
});

describe('matches', () => {
	const tpl = '1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d';
	const ws = 'aaaaaaaa-5f60-4a7b-8c9d-0e1f2a3b4c5d';
	test('status, template (case-insensitive) and workspace', () => {
		const c = card('a', BASE, { document_template_id: tpl.toUpperCase(), app_id: ws });
		expect(matches(c, 'success', { templateIds: [] })).toBe(true);
		expect(matches(c, 'failure', { templateIds: [] })).toBe(false);
		expect(matches(c, 'success', { templateIds: [tpl] })).toBe(true);
		expect(matches(c, 'success', { templateIds: ['bbbbbbbb-5f60-4a7b-8c9d-0e1f2a3b4c5d'] })).toBe(
			false,
		);
		expect(matches(c, 'success', { templateIds: [], workspaceId: ws.toUpperCase() })).toBe(true);
		expect(matches(c, 'success', { templateIds: [], workspaceId: tpl })).toBe(false);
		// A card without those fields is not refused on their account.
		expect(matches(card('b', BASE), 'success', { templateIds: [tpl], workspaceId: ws })).toBe(true);
	});
});

/**
 * Model check of the pure logic alone: a simulated list service (pages of 24, inclusive or
 * exclusive whole-second bound, cards visible `lag` after their stamp, any order) and a
 * poller built from Walk/advance as poll.ts does. Every stamp fires exactly once.
 */
describe('model check (fast-check)', () => {
	interface Doc {
		id: string;
		ms: number;
		visibleAt: number;
	}

	function simulate(
		ops: Array<{ gap: number; burst: number; backdate: number; lag: number; regen: boolean }>,
		inclusive: boolean,
		order: 'newest' | 'oldest' | 'random',
		seed: number,
	) {
		let now = BASE;
		let rnd = seed >>> 0;
		const random = () => {
			rnd = (Math.imul(rnd, 1664525) + 1013904223) >>> 0;
			return rnd / 2 ** 32;
		};
		const docs = new Map<string, Doc>();
		let n = 0;
		const truth: string[] = [];
		const fired = new Set<string>();
		const list = (since: number | null, page: number) => {
			let cards = [...docs.values()].filter(
				(d) =>
					now >= d.visibleAt &&
					(since === null ||
						(inclusive ? Math.floor(d.ms / 1000) >= since : Math.floor(d.ms / 1000) > since)),
			);
			if (order === 'random')
				cards = cards
					.map((d) => [random(), d] as const)
					.sort((a, b) => a[0] - b[0])
					.map(([, d]) => d);
			else
				cards.sort(
					(a, b) => (order === 'newest' ? b.ms - a.ms : a.ms - b.ms) || (a.id < b.id ? -1 : 1),
				);
			const slice = cards
				.slice((page - 1) * 24, page * 24)
				.map((d) => card(d.id, d.ms, { download_url: signedUrl(now) }));
			return { cards: slice, nextPage: page * 24 < cards.length ? page + 1 : null };
		};
		const walkAll = (since: number | null, cursor: number | null = null) => {
			const walk = new Walk({ cursor, since });
			let settled = false;
			while (!settled && walk.passes < MAX_PASSES) {
				const cards: Card[] = [];
				let pages = 0;
				for (let page: number | null = 1; page !== null; ) {
					const answer = list(since, page);
					pages++;
					cards.push(...answer.cards);
					page = answer.nextPage;
				}
				const clock = new ServiceClock();
				clock.observe(cards, 0);
				settled = walk.addPass(cards, pages, {
					durationMs: 0,
					serviceStartMs: clock.lowerBoundAt(0),
				});
			}
			return { walk, settled };
		};
		// Activation on an empty list.
		let state = initialCursor([], { durationMs: 0 });
		for (const op of ops) {
			now += op.gap;
			for (let i = 0; i < op.burst; i++) {
				const id = `d${n++}`;
				const ms = now - Math.min(op.backdate, 5000);
				docs.set(id, { id, ms, visibleAt: Math.max(now, ms + op.lag) });
				truth.push(`${id}@${ms}`);
			}
			if (op.regen && docs.size) {
				// Regenerate one whose current stamp already fired.
				const done = [...docs.values()].find((d) => fired.has(`${d.id}@${d.ms}`) && d.ms < now);
				if (done) {
					done.ms = now;
					done.visibleAt = now + op.lag;
					truth.push(`${done.id}@${done.ms}`);
				}
			}
			const { walk, settled } = walkAll(state.since, state.cursor);
			const clock = new ServiceClock();
			clock.observe(
				[...walk.entries.values()].map((e) => e.card),
				0,
			);
			const result = advance(state, walk.entries.values(), settled, {
				durationMs: 0,
				serviceStartMs: clock.lowerBoundAt(0),
			});
			state = result.next;
			for (const e of result.fresh) {
				if (fired.has(e.key)) throw new Error(`${e.key} fired twice`);
				fired.add(e.key);
			}
		}
		// Drain.
		now += 10_000;
		const { walk, settled } = walkAll(state.since);
		for (const e of advance(state, walk.entries.values(), settled, { durationMs: 0 }).fresh) {
			if (fired.has(e.key)) throw new Error(`${e.key} fired twice`);
			fired.add(e.key);
		}
		return { truth, fired };
	}

	test('every stamp fires exactly once', () => {
		fc.assert(
			fc.property(
				fc.array(
					fc.record({
						gap: fc.oneof(fc.integer({ min: 0, max: 1500 }), fc.integer({ min: 0, max: 90_000 })),
						burst: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 60 })),
						backdate: fc.integer({ min: 0, max: 4900 }),
						lag: fc.integer({ min: 0, max: 5000 }),
						regen: fc.boolean(),
					}),
					{ minLength: 1, maxLength: 40 },
				),
				fc.boolean(),
				fc.constantFrom('newest' as const, 'oldest' as const, 'random' as const),
				fc.integer(),
				(ops, inclusive, order, seed) => {
					const { truth, fired } = simulate(ops, inclusive, order, seed);
					expect([...fired].sort()).toEqual([...truth].sort());
				},
			),
			{ numRuns: 150 },
		);
	});
});

const bareEntry = (id: string, ms: number): Entry =>
	entryOf({ id, updated_at: new Date(ms).toISOString() })!;
const linked = (ms: number) => ({
	download_url: `https://bucket.s3.amazonaws.com/doc.pdf?X-Amz-Date=${amz(ms)}&X-Amz-Expires=900&X-Amz-Signature=ab`,
});

describe('documents stamped the same instant', () => {
	test('fire in the order of their keys, whichever order they were listed in', () => {
		const a = bareEntry('a', BASE);
		const b = bareEntry('b', BASE);
		expect(oldestFirst(a, b)).toBe(-1);
		expect(oldestFirst(b, a)).toBe(1);
		expect([b, a].sort(oldestFirst)).toEqual([a, b]);
		expect([a, b].sort(oldestFirst)).toEqual([a, b]);
	});

	test('a card compared with itself is neither older nor newer', () => {
		const a = bareEntry('a', BASE);
		expect(oldestFirst(a, bareEntry('a', BASE))).toBe(0);
	});
});

describe('the newest card', () => {
	test('is found wherever it stands in the list', () => {
		const newer = bareEntry('n', BASE + 5000);
		expect(newest([newer, bareEntry('o', BASE), bareEntry('m', BASE + 1000)])).toBe(newer);
	});

	test('of two stamped the same instant, the one with the later key', () => {
		const b = bareEntry('b', BASE);
		expect(newest([b, bareEntry('a', BASE)])).toBe(b);
	});
});

describe("the service's clock from an answer", () => {
	test('the newest download link counts, wherever it stands among the cards', () => {
		const clock = new ServiceClock();
		clock.observe([linked(BASE + 10_000), linked(BASE + 2000), { download_url: null }], 5000);
		expect(clock.lowerBoundAt(5000)).toBe(BASE + 10_000);
	});
});
