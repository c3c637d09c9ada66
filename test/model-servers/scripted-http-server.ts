// The HTTP and server-sent-events plumbing the scripted model servers share: a server on
// 127.0.0.1 that reads each request's JSON body, answers through one handler, turns a handler
// failure into a 500 in the API's own error shape, and closes every connection on close(). Only
// node: builtins and erasable TypeScript, so Node 22 runs it directly from a recorder script.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedHttpRequest {
  method: string;
  url: URL;
  path: string;
  headers: IncomingMessage['headers'];
  /** The JSON body, the raw text when it is not JSON, undefined when empty. */
  body: unknown;
}

export interface ListeningServer {
  port: number;
  /** http://127.0.0.1:<port> */
  origin: string;
  close(): Promise<void>;
}

export async function listenScripted(
  handle: (request: ScriptedHttpRequest, res: ServerResponse) => Promise<void> | void,
  /** The body of the 500 a failing handler answers, in the API's error shape. */
  failureBody: (message: string) => unknown,
): Promise<ListeningServer> {
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const raw = await readBody(req);
      let body: unknown = undefined;
      try {
        body = raw.length > 0 ? JSON.parse(raw) : undefined;
      } catch {
        body = raw;
      }
      await handle({ method: req.method ?? '', url, path: url.pathname, headers: req.headers, body }, res);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify(failureBody(String(error))));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Starts an event stream; `keepAlive: false` leaves out the connection header (Gemini's API sends none). */
export function startEventStream(res: ServerResponse, options: { keepAlive?: boolean } = {}): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    ...(options.keepAlive === false ? {} : { connection: 'keep-alive' }),
  });
}

/** One server-sent event: `event:` when named, one `data:` line of JSON (or text), then a blank line. */
export function writeEvent(res: ServerResponse, data: unknown, options: { event?: string; eol?: '\n' | '\r\n' } = {}): void {
  const eol = options.eol ?? '\n';
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  res.write(`${options.event === undefined ? '' : `event: ${options.event}${eol}`}data: ${payload}${eol}${eol}`);
}

/** `text` cut into pieces of `size` characters, so clients see several deltas. */
export function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
