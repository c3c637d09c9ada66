// The MCP conformance suite drives a server URL and has no way to send a token. This proxy stands in
// for the client's own "Authorization: Bearer" setting: it adds the token and forwards everything else
// unchanged (streams included). A loopback Host or Origin naming the proxy's port is moved to the
// service's port; any other Host or Origin (the suite's DNS-rebinding probes) passes as it came.
import { createServer, request, type Server } from 'node:http';

export interface BearerProxy {
  url: string;
  close(): Promise<void>;
}

export async function startBearerProxy(target: string, token: string): Promise<BearerProxy> {
  const service = new URL(target);
  let port = 0;
  const local = (value: string | undefined, prefix: string) => {
    for (const name of ['127.0.0.1', 'localhost', '[::1]']) {
      if (value === `${prefix}${name}:${port}`) return `${prefix}${name}:${service.port}`;
    }
    return value;
  };
  const server: Server = createServer((incoming, outgoing) => {
    const headers = { ...incoming.headers, authorization: `Bearer ${token}` } as Record<string, string | string[] | undefined>;
    headers.host = local(incoming.headers.host, '');
    if (incoming.headers.origin) headers.origin = local(incoming.headers.origin, 'http://');
    const forwarded = request({ host: service.hostname, port: service.port, method: incoming.method, path: incoming.url, headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on('error', () => outgoing.destroy());
    outgoing.on('close', () => forwarded.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
