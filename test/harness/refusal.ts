/** What the unit tests of the pure input checks share. */
import { InputError } from '../../nodes/shared/helpers/parse';

/** A valid template or document ID (a UUID). */
export const ID = '1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d';

/** The thrown InputError (fails the test when nothing or something else is thrown). */
export function refusal(fn: () => unknown): InputError {
	try {
		fn();
	} catch (error) {
		expect(error).toBeInstanceOf(InputError);
		return error as InputError;
	}
	throw new Error('expected an InputError');
}
