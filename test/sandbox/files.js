'use strict';
// The file host of the sandbox: presigned downloads (as object storage answers them: no
// Authorization header allowed, signatures and expiry checked, XML errors), public share
// links and preview pages.

const crypto = require('crypto');
const { queryValue, parseAmzDate } = require('./util');

function xmlError(status, code, message, extra = '') {
	return {
		status,
		headers: { 'content-type': 'application/xml' },
		body:
			`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message>` +
			`${extra}<RequestId>SANDBOX</RequestId></Error>`,
	};
}

function createFiles({ store, clock, options }) {
	/**
	 * The file as object storage serves it. With `fileSizeBytes`, the file is made that large
	 * by spaces after its end (a PDF reader ignores them), streamed out as it is sent rather
	 * than held in memory, to try large catalogues.
	 */
	function serveFile(ctx, file, head) {
		const pad = Math.max(0, (options.fileSizeBytes || 0) - file.bytes.length);
		const length = file.bytes.length + pad;
		return {
			status: 200,
			headers: {
				'content-type': file.contentType,
				'content-length': String(length),
				etag: `"${crypto.createHash('md5').update(file.bytes).digest('hex')}-${pad}"`,
				'accept-ranges': 'bytes',
			},
			body: head ? '' : file.bytes,
			pad: head ? 0 : pad,
			contentLength: length,
		};
	}

	function handleDownload(ctx, id, encodedName) {
		if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
			return xmlError(
				405,
				'MethodNotAllowed',
				'The specified method is not allowed against this resource.',
			);
		}
		if (ctx.authorization !== undefined) {
			return xmlError(
				400,
				'InvalidArgument',
				'Only one auth mechanism allowed',
				'<ArgumentName>Authorization</ArgumentName>',
			);
		}
		const q = ctx.query;
		const date = queryValue(q, 'X-Amz-Date');
		const expires = queryValue(q, 'X-Amz-Expires');
		const signature = queryValue(q, 'X-Amz-Signature');
		if (
			!date ||
			!expires ||
			!signature ||
			queryValue(q, 'X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256'
		) {
			return xmlError(
				403,
				'AccessDenied',
				'Query-string authentication requires the X-Amz-Algorithm, X-Amz-Date, X-Amz-Expires and X-Amz-Signature parameters',
			);
		}
		const signedAt = parseAmzDate(date);
		const expected = store.sign(ctx.path, date, Number(expires));
		if (!/^\d+$/.test(expires) || Number.isNaN(signedAt) || signature !== expected) {
			return xmlError(
				403,
				'SignatureDoesNotMatch',
				'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
			);
		}
		if (clock.now() > signedAt + Number(expires) * 1000) {
			return xmlError(
				403,
				'AccessDenied',
				'Request has expired',
				`<X-Amz-Expires>${expires}</X-Amz-Expires>`,
			);
		}
		const file = store.fileOf(id);
		let name;
		try {
			name = decodeURIComponent(encodedName);
		} catch {
			name = encodedName;
		}
		if (!file || file.filename !== name)
			return xmlError(404, 'NoSuchKey', 'The specified key does not exist.');
		return serveFile(ctx, file, ctx.method === 'HEAD');
	}

	function handleShare(ctx, token) {
		const found = store.fileByShareToken(token);
		if (
			!found ||
			!found.file ||
			!options.shareLinks ||
			!found.rec ||
			found.rec.status !== 'success'
		) {
			return {
				status: 404,
				headers: { 'content-type': 'text/plain; charset=utf-8' },
				body: 'Not Found',
			};
		}
		return serveFile(ctx, found.file, ctx.method === 'HEAD');
	}

	function handlePreview(ctx, id) {
		const rec = store.documents.get(id);
		if (!rec)
			return {
				status: 404,
				headers: { 'content-type': 'text/plain; charset=utf-8' },
				body: 'Not Found',
			};
		const url = rec.status === 'success' ? store.downloadUrlFor(rec) : null;
		const esc = (s) => String(s).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
		const body = url
			? `<!doctype html><title>${esc(rec.filename)}</title><iframe src="${esc(url)}" style="width:100%;height:95vh;border:0"></iframe>`
			: `<!doctype html><title>Preview</title><p>Document ${esc(rec.id)} is ${esc(rec.status)}.</p>`;
		return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body };
	}

	return { download: handleDownload, share: handleShare, preview: handlePreview };
}

module.exports = { createFiles, xmlError };
