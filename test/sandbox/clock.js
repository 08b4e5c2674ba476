'use strict';
// The sandbox clock and its scheduler.
//
// Everything that happens "later" in the sandbox (status transitions, the 30 s
// limit of the sync endpoint) is an event on this scheduler, due at a sandbox
// time. Each event's callback receives the instant it was due, so a transition
// is stamped with that instant however late it runs.
//
// - 'real' clock: now() = Date.now() + offset. One unref'd timer wakes up for
//   the earliest event. advance(ms)/set(ms) move the offset and run what is due.
// - 'manual' clock: time stands still until advance(ms)/set(ms), which run every
//   event due by the new time in order; while an event runs, now() reads its due time.

function createClock({ mode = 'real', startTime } = {}) {
	if (mode !== 'real' && mode !== 'manual') throw new Error(`sandbox: unknown clock '${mode}'`);
	const manual = mode === 'manual';
	let manualNow = typeof startTime === 'number' ? startTime : Date.now();
	let offset = !manual && typeof startTime === 'number' ? startTime - Date.now() : 0;
	/** sorted by (at, seq) */
	let events = [];
	let seq = 0;
	let timer = null;
	let running = false;
	let closed = false;

	const now = () => (manual ? manualNow : Date.now() + offset);

	function insert(ev) {
		let lo = 0;
		let hi = events.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			const e = events[mid];
			if (e.at < ev.at || (e.at === ev.at && e.seq < ev.seq)) lo = mid + 1;
			else hi = mid;
		}
		events.splice(lo, 0, ev);
	}

	function arm() {
		if (manual || closed) return;
		if (timer) {
			clearTimeout(timer);
			timer = null;
		}
		while (events.length && events[0].cancelled) events.shift();
		if (!events.length) return;
		const wait = Math.max(0, Math.min(events[0].at - now(), 0x7fffffff));
		timer = setTimeout(() => {
			timer = null;
			runDue();
		}, wait);
		timer.unref();
	}

	/** Runs every event due by `upTo` (default: now), in order. */
	function runDue(upTo) {
		if (running || closed) return;
		running = true;
		try {
			const limit = upTo === undefined ? now() : upTo;
			for (;;) {
				while (events.length && events[0].cancelled) events.shift();
				if (!events.length || events[0].at > limit) break;
				const ev = events.shift();
				if (manual && ev.at > manualNow) manualNow = ev.at;
				ev.fn(ev.at);
			}
		} finally {
			running = false;
		}
		arm();
	}

	/** Schedules fn(dueAt) at sandbox time `at`; returns a handle with cancel(). */
	function schedule(at, fn) {
		const ev = { at, seq: seq++, fn, cancelled: false };
		insert(ev);
		if (!running) arm();
		return {
			at,
			cancel() {
				ev.cancelled = true;
			},
		};
	}

	const clock = {
		mode,
		now,
		advance(ms) {
			if (!(ms >= 0)) throw new Error('sandbox: clock.advance needs a non-negative number of ms');
			const target = now() + ms;
			if (manual) {
				runDue(target);
				manualNow = Math.max(manualNow, target);
			} else {
				offset += ms;
				runDue();
			}
			return now();
		},
		set(ms) {
			if (typeof ms !== 'number' || !Number.isFinite(ms))
				throw new Error('sandbox: clock.set needs a number of ms');
			if (manual) {
				if (ms > manualNow) runDue(ms);
				manualNow = ms;
			} else {
				offset = ms - Date.now();
				runDue();
			}
			return now();
		},
	};

	return {
		clock,
		schedule,
		runDue,
		/** number of live events (for debugging) */
		pending: () => events.filter((e) => !e.cancelled).length,
		close() {
			closed = true;
			if (timer) clearTimeout(timer);
			timer = null;
			events = [];
		},
	};
}

module.exports = { createClock };
