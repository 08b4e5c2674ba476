/**
 * Keeping secrets out of what is shown: the API key and the webhook signing secret, in every
 * form they take in a text. Pure.
 */

/** The secrets to keep out of a text: the API key, and the signing secret where there is one. */
export type Secrets = string | ReadonlyArray<string | undefined> | undefined;

/** Shortest encoded form worth removing (shorter ones could match ordinary text). */
const MIN_FORM_LENGTH = 8;

/**
 * The forms a secret takes in a text: as it is, URL- and form-encoded (either case of hex),
 * JSON-escaped once and twice (in a string of JSON inside JSON, as a document's meta is), the
 * base64 of a `whsec_` signing secret without its prefix, and its base64 and base64url at each
 * of the three byte alignments, so that it is found inside a longer encoded text too
 * (`Basic …`, a base64 of `Bearer <key>`). Longest first.
 */
export function secretForms(secret: string): string[] {
	const forms = new Set<string>([secret]);
	const url = encodeURIComponent(secret);
	forms.add(url);
	forms.add(url.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
	forms.add(url.replace(/%20/g, '+'));
	forms.add(JSON.stringify(secret).slice(1, -1));
	forms.add(JSON.stringify(JSON.stringify(secret)).slice(3, -3));
	if (secret.startsWith('whsec_')) forms.add(secret.slice('whsec_'.length));
	const bytes = Buffer.from(secret, 'utf8');
	for (let shift = 0; shift < 3; shift++) {
		const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
		// Only the characters made of the secret's own bits: not the shift's, not the padding.
		const core = encoded.slice(
			Math.ceil((8 * shift) / 6),
			Math.floor((8 * (shift + bytes.length)) / 6),
		);
		if (core.length < MIN_FORM_LENGTH) continue;
		forms.add(core);
		forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return [...forms].filter((form) => form.length >= 4).sort((a, b) => b.length - a.length);
}

/** Replaces every occurrence of each secret, in any of its forms (`secretForms`), in a text. */
export function redact(value: string, secrets: Secrets): string {
	const list = typeof secrets === 'string' ? [secrets] : (secrets ?? []);
	let out = value;
	for (const secret of list) {
		if (!secret || secret.length < 4) continue;
		for (const form of secretForms(secret)) out = out.split(form).join('***');
	}
	return out;
}
