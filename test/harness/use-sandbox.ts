/**
 * The one way a test file starts the sandbox: `const sb = useSandbox({ … })` starts it before
 * the file's tests (or the enclosing describe's), closes it after them, and before each test
 * clears its request log and faults (then runs `beforeEach`, if given). `sb` stands for the
 * running sandbox: every property and method is the live one's.
 */
import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox';

export interface UseSandboxOptions {
	/** Runs after the request log and faults are cleared, before each test. */
	beforeEach?: (sb: Sandbox) => void;
}

export function useSandbox(options: SandboxOptions = {}, hooks: UseSandboxOptions = {}): Sandbox {
	let current: Sandbox | undefined;
	beforeAll(async () => {
		current = await startSandbox(options);
	});
	afterAll(async () => {
		await current?.close();
		current = undefined;
	});
	beforeEach(() => {
		if (!current) return;
		current.resetRequests();
		current.faults.clear();
		hooks.beforeEach?.(current);
	});
	return new Proxy({} as Sandbox, {
		get(_target, property) {
			if (!current)
				throw new Error(
					'The sandbox is used outside a test: it runs only from beforeAll to afterAll',
				);
			const value = Reflect.get(current, property, current) as unknown;
			return typeof value === 'function'
				? (value as (...args: unknown[]) => unknown).bind(current)
				: value;
		},
	});
}
