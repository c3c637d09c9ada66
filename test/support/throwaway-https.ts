// A throwaway certificate authority and an HTTPS server on 127.0.0.1 for catalog and install tests.
// The CA and the server certificate are made at test time with the `openssl` command in a temp folder,
// so no key is ever committed and nothing is downloaded.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type ServerOptions } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface ThrowawayCa {
  /** PEM of the CA certificate: pass as `ca`, or write its file into NODE_EXTRA_CA_CERTS. */
  caCert: string;
  caCertFile: string;
  /** Server key and certificate for 127.0.0.1 and localhost, signed by the CA. */
  serverKey: string;
  serverCert: string;
}

export function createThrowawayCa(dir: string): ThrowawayCa {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', '-new', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=svc throwaway test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  openssl('req', '-new', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
  writeFileSync(
    join(dir, 'server.ext'),
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n',
  );
  openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '2', '-extfile', 'server.ext');
  return {
    caCert: readFileSync(join(dir, 'ca.crt'), 'utf8'),
    caCertFile: join(dir, 'ca.crt'),
    serverKey: readFileSync(join(dir, 'server.key'), 'utf8'),
    serverCert: readFileSync(join(dir, 'server.crt'), 'utf8'),
  };
}

export interface RecordedHttpsRequest {
  path: string;
  headers: IncomingMessage['headers'];
}

export interface HttpsTestServer {
  /** `https://127.0.0.1:<port>` */
  origin: string;
  requests: RecordedHttpsRequest[];
  close(): Promise<void>;
}

export async function startHttpsServer(
  ca: Pick<ThrowawayCa, 'serverKey' | 'serverCert'>,
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<HttpsTestServer> {
  const requests: RecordedHttpsRequest[] = [];
  const options: ServerOptions = { key: ca.serverKey, cert: ca.serverCert };
  const server = createServer(options, (request, response) => {
    requests.push({ path: request.url ?? '', headers: request.headers });
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
