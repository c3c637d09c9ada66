import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type Koa from 'koa';
import { SvcError } from '@svc-org/ai-sdk';

export interface RunningHttpServer {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

export const LOOPBACK_BIND = '127.0.0.1';

/** A path served beside the Koa app, on the same port (the MCP endpoint: it streams its own answers). */
export interface NodeEndpoint {
  handles(req: IncomingMessage): boolean;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** Listens on 127.0.0.1 only; `port` 0 picks a free port. */
export function startHttpServer(app: Koa, port: number, endpoints: readonly NodeEndpoint[] = []): Promise<RunningHttpServer> {
  return new Promise((resolve, reject) => {
    const callback = app.callback();
    const server = createServer((req, res) => {
      const endpoint = endpoints.find((candidate) => candidate.handles(req));
      if (endpoint) void endpoint.handle(req, res);
      else void callback(req, res);
    });
    // MCP clients over HTTP keep their connection between calls; Node's 5 s idle close races a client
    // sending its next request on the same socket (it sees the socket closed). Loopback only: an idle
    // connection costs nothing worth that.
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new SvcError({
              code: 'port_in_use',
              message: `port ${port} on ${LOOPBACK_BIND} is in use`,
              details: { port, fix: 'choose another with SVC_PORT or --port (0 picks a free port)' },
            })
          : error,
      );
    });
    server.listen(port, LOOPBACK_BIND, () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      resolve({
        server,
        port: bound,
        url: `http://${LOOPBACK_BIND}:${bound}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            // Attached viewers hold streams open; they end with their terminals, the rest go now.
            server.closeAllConnections();
          }),
      });
    });
  });
}
