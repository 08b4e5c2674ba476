/**
 * A simulated clock for unit tests that wait: jest's fake timers from `now`, for every test
 * of the file. Promise callbacks and `setImmediate` stay real, so awaited work runs as
 * timers are advanced (`jest.advanceTimersByTimeAsync`).
 */
export function useFakeClock(now: number): void {
	beforeEach(() => {
		jest.useFakeTimers({ now, doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
	});
	afterEach(() => {
		jest.useRealTimers();
	});
}
