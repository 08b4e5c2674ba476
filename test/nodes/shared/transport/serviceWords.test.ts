/**
 * Every error shape of the service mapped to the item's message (nodes/shared/transport/
 * messages.ts): validation messages in the first shape's `detail` (as the official Ruby client
 * reads them), the field hash (also one level deep), and `{"error": "..."}` with 400.
 */
import { describeHttpError, serviceDetails } from '../../../../nodes/shared/transport/messages';

const WHAT = 'create a snippet';

describe('validation messages in every shape reach the message', () => {
	test('shape 1 with 422: the detail is the message', () => {
		const body = {
			errors: [
				{ status: '422', title: 'Unprocessable Entity', detail: 'Document template must exist' },
			],
		};
		expect(describeHttpError(422, body, WHAT).message).toBe(
			'The service refused the data (422): Document template must exist',
		);
	});

	test('shape 1: several details, each with the field its source points at', () => {
		const body = {
			errors: [
				{
					status: '422',
					detail: "can't be blank",
					source: { pointer: '/data/attributes/identifier' },
				},
				{ status: '422', detail: 'Code is too long', source: { pointer: '/data/attributes/code' } },
				{ status: '422', detail: 'must exist', source: { parameter: 'workspace_id' } },
				{ status: '422', detail: "You've reached your quota", source: { pointer: '/status' } },
			],
		};
		expect(serviceDetails(body)).toEqual([
			"identifier can't be blank",
			'Code is too long',
			'workspace id must exist',
			"You've reached your quota",
		]);
		expect(describeHttpError(422, body, WHAT).message).toBe(
			"The service refused the data (422): identifier can't be blank; Code is too long; workspace id must exist; You've reached your quota",
		);
	});

	test('shape 1 with 400: the detail is in the message', () => {
		const body = {
			errors: [{ status: '400', detail: 'param is missing or the value is empty: snippet' }],
		};
		expect(describeHttpError(400, body, WHAT).message).toBe(
			'The service could not read the request (400): param is missing or the value is empty: snippet',
		);
	});

	test('shape 2 one level deep: the inner fields and their messages', () => {
		const body = { errors: { snippet: { identifier: ['has already been taken'] }, base: ['No'] } };
		expect(describeHttpError(422, body, WHAT).message).toBe(
			'The service refused the data (422): identifier has already been taken; No',
		);
	});

	test('shape 3 with 400: the service words in the message, a fix that fits every resource', () => {
		const text = describeHttpError(400, { error: 'unexpected character at line 1 column 9' }, WHAT);
		expect(text.message).toBe(
			'The service could not read the request (400): unexpected character at line 1 column 9',
		);
		expect(text.description).toMatch(/payload, meta, sample data/);
	});

	test('shape 3 with another status still carries the words', () => {
		expect(describeHttpError(422, { error: 'Invalid template' }, WHAT).message).toBe(
			'The service refused the data (422): Invalid template',
		);
		expect(describeHttpError(409, { error: 'Conflict' }, WHAT).message).toBe(
			`Unexpected answer 409 while trying to ${WHAT}: Conflict`,
		);
	});
});
