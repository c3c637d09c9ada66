import { createServer, type Server } from 'node:http';
import type Koa from 'koa';
import { SvcError } from '@svc-org/ai-sdk';

export interface RunningHttpServer {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

export const LOOPBACK_BIND = '127.0.0.1';

/** Listens on 127.0.0.1 only; `port` 0 picks a free port. */
export function startHttpServer(app: Koa, port: number): Promise<RunningHttpServer> {
  return new Promise((resolve, reject) => {
    const server = createServer(app.callback());
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
