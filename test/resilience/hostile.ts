/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node under jest, never inside n8n */
/**
 * Hostile counterparts on localhost: a host that records every request it gets (the place a
 * stolen key would arrive), and an API front that answers with redirects, either to that
 * other host or within its own origin (then passing requests on to the sandbox).
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

export interface Recorded {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	body: string;
}

export interface HostileServer {
	url: string;
	requests: Recorded[];
	close(): Promise<void>;
}

async function listen(
	handler: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void,
	host = '127.0.0.1',
): Promise<HostileServer> {
	const requests: Recorded[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks).toString('utf8');
			requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
			handler(req, body, res);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, host, resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://${host === '127.0.0.1' ? 'localhost' : host}:${port}`,
		requests,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/**
 * Another origin that records every header it gets and answers each request with a plausible
 * document, so a client that followed a redirect here would take it for the API's answer.
 */
export async function startCollector(): Promise<HostileServer> {
	return await listen((_req, _body, res) => {
		const document = {
			id: '00000000-0000-4000-8000-000000000001',
			status: 'success',
			document_template_id: '00000000-0000-4000-8000-000000000002',
			meta: '{}',
			filename: 'stolen.pdf',
		};
		res.writeHead(200, { 'Content-Type': 'application/json' });
		res.end(JSON.stringify({ document, document_card: document, current_user: {} }));
	});
}

/**
 * An API front on 127.0.0.1: GET and DELETE answer 302, writes 307, all to `target` + path
 * (`target` may be made from the request, e.g. from its Host header).
 */
export async function startRedirector(
	target: string | ((req: http.IncomingMessage) => string),
): Promise<HostileServer> {
	return await listen((req, _body, res) => {
		const read = req.method === 'GET' || req.method === 'DELETE';
		const to = typeof target === 'string' ? target : target(req);
		res.writeHead(read ? 302 : 307, { Location: `${to}${req.url ?? '/'}` });
		res.end();
	});
}

/**
 * An API front that redirects every request once within its own origin (302 for reads, 307
 * for writes, to `/moved` + path, given relative), and passes `/moved/...` on to the sandbox.
 */
export async function startSameOriginRedirector(sandboxUrl: string): Promise<HostileServer> {
	const sandbox = new URL(sandboxUrl);
	return await listen((req, body, res) => {
		const path = req.url ?? '/';
		if (!path.startsWith('/moved/')) {
			const read = req.method === 'GET' || req.method === 'DELETE';
			res.writeHead(read ? 302 : 307, { Location: `/moved${path}` });
			res.end();
			return;
		}
		const headers = { ...req.headers, host: sandbox.host };
		const forward = http.request(
			{
				host: sandbox.hostname,
				port: sandbox.port,
				method: req.method,
				path: path.slice('/moved'.length),
				headers,
			},
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		forward.on('error', () => {
			res.writeHead(502);
			res.end();
		});
		forward.end(body);
	});
}

export interface EndlessFileFront extends HostileServer {
	/** Bytes of file sent so far (to every client together). */
	fileBytesSent(): number;
}

/**
 * An API front that passes every API request on to the sandbox, but names itself in each
 * `download_url`, where it serves a file that never ends: chunks of 64 KB without a
 * Content-Length, for as long as the client reads.
 */
export async function startEndlessFileFront(sandboxUrl: string): Promise<EndlessFileFront> {
	const sandbox = new URL(sandboxUrl);
	let sent = 0;
	let self = '';
	const chunk = Buffer.alloc(64 * 1024, 0x20);
	const server = await listen((req, body, res) => {
		const path = req.url ?? '/';
		if (path.startsWith('/endless/')) {
			res.writeHead(200, { 'Content-Type': 'application/pdf' });
			const pump = () => {
				while (!res.destroyed && res.write(chunk)) sent += chunk.length;
				if (!res.destroyed) sent += chunk.length;
			};
			res.on('drain', pump);
			res.on('close', () => res.off('drain', pump));
			pump();
			return;
		}
		const forward = http.request(
			{
				host: sandbox.hostname,
				port: sandbox.port,
				method: req.method,
				path,
				headers: { ...req.headers, host: sandbox.host },
			},
			(answer) => {
				const parts: Buffer[] = [];
				answer.on('data', (part: Buffer) => parts.push(part));
				answer.on('end', () => {
					const text = Buffer.concat(parts)
						.toString('utf8')
						.replace(/"download_url":"[^"]*"/g, `"download_url":"${self}/endless/file.pdf"`);
					const headers = { ...answer.headers };
					delete headers['content-length'];
					res.writeHead(answer.statusCode ?? 502, headers);
					res.end(text);
				});
			},
		);
		forward.on('error', () => {
			res.writeHead(502);
			res.end();
		});
		forward.end(body);
	});
	self = server.url;
	return { ...server, fileBytesSent: () => sent };
}

/**
 * An API front whose every answer is a redirect within its own origin: to the next step of a
 * loop that never ends (`/step/<n>`), or, for paths under `/nolocation`, a 302 with no address.
 */
export async function startRedirectLoop(): Promise<HostileServer> {
	return await listen((req, _body, res) => {
		const path = req.url ?? '/';
		if (path.startsWith('/nolocation')) {
			res.writeHead(302);
			res.end();
			return;
		}
		const step = Number(/^\/step\/(\d+)/.exec(path)?.[1] ?? 0);
		res.writeHead(302, { Location: `/step/${step + 1}${path.replace(/^\/step\/\d+/, '')}` });
		res.end();
	});
}

/** One list an endless service answers: the key its records go under, and the record of a page. */
export interface EndlessListOf {
	key: string;
	record: (page: number, query: URLSearchParams) => object;
}

export interface EndlessList {
	url: string;
	/** Requests to the lists (other paths are not counted). */
	requests: () => number;
	close(): Promise<void>;
}

/**
 * A service whose lists never end: every page of each list (by path) holds one record and
 * names a next page, which `next` decides (a page after it, or one before to loop). Any other
 * path answers 404.
 */
export async function startEndlessList(
	next: (page: number) => number,
	lists: Record<string, EndlessListOf>,
): Promise<EndlessList> {
	const server = await listen((req, _body, res) => {
		const url = new URL(req.url ?? '/', 'http://localhost');
		const list = lists[url.pathname];
		if (!list) {
			res.writeHead(404, { 'content-type': 'application/json' });
			res.end('{"errors":[{"status":"404","title":"Not Found"}]}');
			return;
		}
		const page = Number(url.searchParams.get('page[number]') ?? 1);
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(
			JSON.stringify({
				[list.key]: [list.record(page, url.searchParams)],
				meta: { current_page: page, next_page: next(page), total_pages: page + 1 },
			}),
		);
	});
	return {
		url: server.url.replace('//localhost:', '//127.0.0.1:'),
		requests: () =>
			server.requests.filter((r) => new URL(r.url, 'http://localhost').pathname in lists).length,
		close: server.close,
	};
}
